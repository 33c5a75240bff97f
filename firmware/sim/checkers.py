"""The checkers a builder owns, as the simulated sensors see them (sim.sensor_model): each
checker put on a slot has a magnet of the set's strength x (1 +- spread) and lands up to
off_centre mm (up to 16, the field table's reach) from the sensor's axis. Loaded only for a
set that is not the design's."""

from board.layout import SLOTS, filled
from sim.rng import Rng

# A checker's field against its distance from the sensor's axis, every mm from 0 to 16 mm
# (the whole of hardware/field_table.json's "tolerance": at 8 mm a single checker reads
# below the empty/1 boundary, at 16 mm, half-way to the next slot, nothing): the bottom
# layer's and a higher layer's (the second checker's share). The table's own points (0, 1,
# 2, 4, 8, 16 mm: counts_at_offset for 1 and 2 checkers) and the field model's between them
# (hardware/field_model.py, magpylib: the table's points alone, linear between, miss by 70
# counts at 12 mm); tests/hardware checks both. Linear between the millimetres (within 4
# counts of the field model).
OFF_MM = tuple(range(17))
OFF_BOTTOM = (859.0, 843.0, 796.3, 723.7, 632.1, 530.3, 427.4, 331.0, 246.3, 175.9, 120.1,
              77.4, 45.8, 23.1, 7.2, -3.7, -10.9)
OFF_UPPER = (177.4, 175.9, 171.7, 164.9, 155.9, 145.1, 133.1, 120.4, 107.4, 94.5, 82.2, 70.6,
             59.9, 50.3, 41.8, 34.3, 27.8)
OFF_MAX = OFF_MM[-1]  # mm: Checkers(off_centre=) goes no further


def _off_factor(table, tenths):
    # table's value at tenths/10 mm over its value at 0, in 1/4096 (linear between points:
    # the points are a mm apart).
    i = tenths // 10
    if i >= OFF_MAX:
        return int(table[OFF_MAX] * 4096 / table[0] + 0.5 * (1 if table[OFF_MAX] > 0 else -1))
    v = table[i] + (table[i + 1] - table[i]) * (tenths - 10 * i) / 10
    return int(v * 4096 / table[0] + (0.5 if v >= 0 else -0.5))


class Checkers:
    """Per slot, its stack's field over the design's (scale, 1/4096). steps: the counts each
    layer adds (sim.sensor_model); magnets: the set's strength; spread: +-fraction per
    checker; off_centre: mm. Draws from their own random source (seeded from seed)."""

    def __init__(self, seed, steps, magnets=1.0, spread=0.0, off_centre=0.0):
        field = filled("i", 16)
        for h in range(1, 16):
            field[h] = field[h - 1] + int(steps[min(h, len(steps)) - 1] + 0.5)
        self._field = field
        self.scale = filled("h", SLOTS, 4096)
        self._bottom = filled("h", SLOTS, 4096)  # the bottom checker's factor
        self._upper = filled("i", SLOTS)  # the upper ones' field x factor (1/4096 count)
        self._magnet = int(magnets * 4096 + 0.5)
        self._spread = int(spread * 4096 + 0.5)
        if not 0 <= off_centre <= OFF_MAX:
            raise ValueError("off_centre: 0 to %d mm (the field table's)" % OFF_MAX)
        self._tenths = int(off_centre * 10 + 0.5)
        self._rng = Rng(seed * 131 + 17)
        # The factors per 0.1 mm, as far as off_centre goes (the soaks' heap is a Pico's).
        self._offb = filled("h", self._tenths + 1)
        self._offu = filled("h", self._tenths + 1)
        for t in range(self._tenths + 1):
            self._offb[t] = _off_factor(OFF_BOTTOM, t)
            self._offu[t] = _off_factor(OFF_UPPER, t)

    def place(self, slot, old, height):
        """The slot's stack goes from old to height (signed): checkers put on it bring their
        own strength and placement; a hand takes a stack's top checker, so the bottom one
        stays as it was and the upper ones left keep their mean."""
        scale = self.scale
        if old * height <= 0:
            old = 0  # emptied, or the other colour: a new stack
        a = old if old >= 0 else -old
        b = height if height >= 0 else -height
        if not b:
            scale[slot] = 4096
            return
        field = self._field
        bottom = self._bottom
        upper = self._upper
        if not a:
            bottom[slot] = self._draw(1)
            upper[slot] = 0
            a = 1
        if b < a:
            upper[slot] = upper[slot] * (field[b] - field[1]) // (field[a] - field[1])
        for layer in range(a + 1, b + 1):
            upper[slot] += (field[layer] - field[layer - 1]) * self._draw(layer)
        total = field[1] * bottom[slot] + upper[slot]
        scale[slot] = (total + field[b] // 2) // field[b]

    def _draw(self, layer):
        # One checker's field factor in 1/4096: its magnet times its placement.
        rng = self._rng
        f = self._magnet
        if self._spread:
            f += rng.randint(-self._spread, self._spread) * self._magnet >> 12
        if self._tenths:
            off = (self._offb if layer == 1 else self._offu)[rng.randint(0, self._tenths)]
            f = f * off >> 12
        return f
