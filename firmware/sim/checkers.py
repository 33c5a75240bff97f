"""The checkers a builder owns, as the simulated sensors see them (sim.sensor_model): each
checker put on a slot has a magnet of the set's strength x (1 +- spread) and lands up to
off_centre mm from the sensor's axis. Loaded only for a set that is not the design's."""

from board.layout import SLOTS, filled
from sim.rng import Rng

# A checker's field against its distance from the sensor's axis, at 0, 1, 2 and 4 mm: the
# bottom layer's and a higher layer's (hardware/field_table.json "tolerance", counts_at_offset
# for 1 and 2 checkers; tests/hardware checks these against it). 3 mm is interpolated.
OFF_MM = (0, 1, 2, 4)
OFF_BOTTOM = (859.0, 843.0, 796.3, 632.1)
OFF_UPPER = (177.4, 175.9, 171.7, 155.9)  # the second checker's share


def _off_factor(table, tenths):
    # table's value at tenths/10 mm over its value at 0, in 1/4096 (linear between points).
    mm = tenths / 10
    for i in range(1, len(OFF_MM)):
        if mm <= OFF_MM[i] or i == len(OFF_MM) - 1:
            a, b = OFF_MM[i - 1], OFF_MM[i]
            v = table[i - 1] + (table[i] - table[i - 1]) * (mm - a) / (b - a)
            return int(v * 4096 / table[0] + 0.5)
    return 4096


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
        self._tenths = int(off_centre * 10 + 0.5)
        self._rng = Rng(seed * 131 + 17)
        self._offb = filled("h", 41)
        self._offu = filled("h", 41)
        for t in range(41):
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
