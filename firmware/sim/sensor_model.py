# Simulated sensors and clock: raw ADC counts per slot from where checkers are.
#
# Model per slot s (board.layout numbering), in 12-bit ADC counts:
#   raw = zero[s] + drift[s](t) + gain[s] x (own field + neighbours' fields) + noise
# own field of a stack of h checkers: 860, +177, +61, then +10 per layer (hardware.md), sign
# +1 white (north-up), -1 black; neighbours' fields add linearly through kernels and a table
# as in board.sensing.Field (default board.layout.neighbour_table(): -10..-13 counts per nearest
# neighbour, 51 counts in the worst case; a kernel's last entry serves taller stacks); zero
# spread +-offset_spread counts, sensitivity spread +-gain_spread;
# Gaussian-ish noise (sum of four uniform bytes) of noise counts RMS; drift: a triangle wave
# per sensor, amplitude up to +-drift counts, period drift_hours (+-50 %). The result is
# clipped to 0..4095.
#
# Checkers (a set a builder owns, placed by hand): each checker put on a slot has a magnet of
# strength `magnets` (the set's, 1.0 the design's) x (1 +- magnet_spread) and lands up to
# off_centre mm from the sensor's axis; its layer's field is scaled by both (the off-centre
# factor from hardware/field_table.json's "tolerance", magpylib: 4 mm off costs 26 % of a
# single checker's field, 12 % of a higher layer's). A hand takes a stack's top checker: the
# bottom one stays what it is, the upper ones left keep their mean. Neighbours see a stack
# scaled as the sensor under it does.
# Deterministic from seed (own xorshift32, same numbers on CPython and
# MicroPython). read_into does not allocate on 64-bit MicroPython (32-bit ints are small).

from array import array

from board.layout import SLOTS, filled, heights_from_counts, neighbour_table
from board.sensing import default_field
from sim.rng import Rng

MID = 2048
PERIOD = 1 << 30  # ticks_ms wraps here on a Pico
_NOISE_MASK = 255  # noise table of 256 samples
# Counts of a stack of h checkers on the slot itself, h = 0..15.
_STEPS = (860, 177, 61) + (10,) * 12
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


class SimClock:
    """A clock the test moves by hand (board.hw.Clock); wraps at 2**30 like a Pico's."""

    def __init__(self, start=0):
        self._t = start % PERIOD

    def ticks_ms(self):
        return self._t

    def ticks_diff(self, a, b):
        d = (a - b) & (PERIOD - 1)
        return d - PERIOD if d >= PERIOD >> 1 else d

    def ticks_add(self, t, delta):
        return (t + delta) % PERIOD

    def sleep_ms(self, ms):
        self.advance(ms)

    def advance(self, ms):
        self._t = (self._t + ms) % PERIOD


class SensorModel:
    """Simulated hall sensors (board.hw.Scanner). Put checkers with set_heights, set_slot or
    set_counts; read_into(buf) gives the 128 raw counts of one scan at clock's time.

    noise: RMS counts; offset_spread: +-counts; gain_spread: +-fraction; drift: +-counts;
    steps: counts each layer of a stack adds (its last entry repeats for taller stacks);
    kernels, table: the neighbour table, as board.sensing.Field takes it. magnets: the
    checker set's strength (1.0 the design's); magnet_spread: +-fraction per checker;
    off_centre: mm a checker may land off its sensor's axis (these draws have their own
    random source: the noise and the sensors are the same with or without them)."""

    def __init__(self, clock, seed=1, noise=3.0, offset_spread=40, gain_spread=0.02,
                 drift=0, drift_hours=3.0, kernels=None, table=None, steps=_STEPS,
                 magnets=1.0, magnet_spread=0.0, off_centre=0.0):
        self._clock = clock
        # Each slot's stack: its field over the design's, in 1/4096 (the mean of its
        # checkers); None while every checker is the design's, put dead centre (the soaks
        # run in a Pico's heap: what they do not use takes none of it).
        self.scale = None  # type: array | None
        self._magnet = int(magnets * 4096 + 0.5)
        self._mspread = int(magnet_spread * 4096 + 0.5)
        self._off_tenths = int(off_centre * 10 + 0.5)
        if self._magnet != 4096 or self._mspread or self._off_tenths:
            self.scale = filled("h", SLOTS, 4096)
            self._bottom = filled("h", SLOTS, 4096)  # the bottom checker's factor
            self._upper = filled("i", SLOTS)  # the upper ones' field x factor (1/4096 count)
            self._placing = Rng(seed * 131 + 17)
            self._offb = filled("h", 41)
            self._offu = filled("h", 41)
            for t in range(41):
                self._offb[t] = _off_factor(OFF_BOTTOM, t)
                self._offu[t] = _off_factor(OFF_UPPER, t)
        self.rng = Rng(seed)  # its state: where the noise goes on from
        # Gaussian-ish noise samples: four uniform bytes summed (SD 147.8), centred. First,
        # while the heap still has room in one piece.
        self._noise = filled("h", _NOISE_MASK + 1)
        for i in range(_NOISE_MASK + 1):
            x = self._next()
            self._noise[i] = (x & 255) + ((x >> 8) & 255) + ((x >> 16) & 255) + (x >> 24) - 510
        field = filled("i", 16)
        for h in range(1, 16):
            field[h] = field[h - 1] + int(steps[min(h, len(steps)) - 1] + 0.5)
        self._field = field
        self.heights = array("b", bytes(SLOTS))
        self.zero = filled("h", SLOTS)
        self.gains = filled("h", SLOTS)  # sensitivity in 1/4096
        # Drift per slot: amplitude, period (s) and phase; kept only if there is drift (the
        # draws are made anyway, so a seed gives the same board either way).
        self.drift = None
        if drift:
            self._amp = filled("h", SLOTS)
            self._period = filled("i", SLOTS, 1)
            self._phase = filled("i", SLOTS)
            self.drift = filled("h", SLOTS)
        g = int(gain_spread * 4096)
        for s in range(SLOTS):
            self.zero[s] = MID + self._uniform(offset_spread)
            self.gains[s] = 4096 + self._uniform(g)
            a = self._uniform(drift)
            p = int(drift_hours * 3600)
            p = max(2, p // 2 + self._rand(p + 1))
            ph = self._rand(p)
            if drift:
                self._amp[s] = a
                self._period[s] = p
                self._phase[s] = ph
        self._nq = filled("i", SLOTS, self._noise_q(noise))
        self._stuck = filled("h", SLOTS, -1)
        self._dead = None  # type: bytearray | None  # blind sensors, once there is one
        shared = kernels is None and table is None
        if shared:
            kernels, table = neighbour_table()
        if kernels is None or table is None or len(table) != SLOTS:
            raise ValueError("the neighbour table needs kernels and 128 slots' neighbours")
        # Neighbour field in 1/16 count of a stack of h = 0..15 white checkers, per kernel,
        # under 7 k + 3 for kernel k (the kernel codes of board.sensing.Field.rv_kv).
        self._kernels = {}
        for k in range(len(kernels)):
            kern = kernels[k]
            row = filled("h", 16)
            for h in range(1, 16):
                row[h] = int(kern[min(h, len(kern)) - 1] * 16)
            self._kernels[7 * k + 3] = row
        # The table flat: slot s's neighbours are _nb_other/_nb_kernel[_nb_first[s]:
        # _nb_first[s + 1]]. The default table is symmetric (who sees s is whom s sees), so
        # the default Field's reverse table serves as it is: one copy in RAM, not two.
        if shared:
            field = default_field()
            self._nb_first = field.rv_first
            self._nb_other = field.rv_slot
            self._nb_kernel = field.rv_kv
        else:
            self._flatten(table)
        self._dirty = False
        self._base = filled("h", SLOTS)
        self._ms = 0  # simulated time since creation
        self._last = clock.ticks_ms()
        self._drift_s = -1
        self._rebuild()

    def _flatten(self, table):
        first = filled("H", SLOTS + 1)
        n = 0
        for s in range(SLOTS):
            first[s] = n
            n += len(table[s]) // 2
        first[SLOTS] = n
        self._nb_first = first
        self._nb_other = filled("B", n)
        self._nb_kernel = filled("B", n)
        for s in range(SLOTS):
            row = table[s]
            for j in range(0, len(row), 2):
                i = first[s] + j // 2
                self._nb_other[i] = row[j]
                self._nb_kernel[i] = 7 * row[j + 1] + 3

    @staticmethod
    def _noise_q(rms):
        # Four uniform bytes summed: SD 147.8; scale to rms counts, in 1/65536.
        return int(rms * 65536 / 147.8 + 0.5)

    def _next(self):
        return self.rng.next32()

    def _rand(self, n):
        return self._next() % n if n > 0 else 0

    def _uniform(self, spread):
        return self._rand(2 * spread + 1) - spread

    # -- where checkers are ------------------------------------------------------------

    def set_heights(self, heights):
        """All 128 signed stack heights (+ white, - black)."""
        for s in range(SLOTS):
            self._place(s, heights[s])
        self._rebuild()

    def set_slot(self, slot, height):
        """One slot's height; the field is rebuilt at the next reading."""
        if self.heights[slot] != height:
            self._place(slot, height)
            self._dirty = True

    def set_counts(self, white, black):
        """bgcore-style counts (each side's own points 1..24, bar 25), filled into slots by
        board.layout.expected_slots."""
        if self.scale is None:
            heights_from_counts(white, black, self.heights)
        else:
            for s, h in enumerate(heights_from_counts(white, black)):
                self._place(s, h)
        self._rebuild()

    def _place(self, slot, height):
        # The slot's stack becomes height: checkers put on it bring their own strength and
        # placement; checkers taken off its top leave the bottom one as it was.
        old = self.heights[slot]
        self.heights[slot] = height
        scale = self.scale
        if scale is None:
            return
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
        if b < a:  # the top ones taken: the upper ones left keep their mean
            upper[slot] = upper[slot] * (field[b] - field[1]) // (field[a] - field[1])
        for layer in range(a + 1, b + 1):
            upper[slot] += (field[layer] - field[layer - 1]) * self._draw(layer)
        total = field[1] * bottom[slot] + upper[slot]
        scale[slot] = (total + field[b] // 2) // field[b]

    def _draw(self, layer):
        # One checker's field factor in 1/4096: its magnet times its placement.
        rng = self._placing
        f = self._magnet
        if self._mspread:
            f += rng.randint(-self._mspread, self._mspread) * self._magnet >> 12
        if self._off_tenths:
            off = (self._offb if layer == 1 else self._offu)[rng.randint(0, self._off_tenths)]
            f = f * off >> 12
        return f

    # -- faults, for calibration tests --------------------------------------------------

    def fault(self, slot, kind):
        """Break a sensor: "high"/"low" stuck at a rail, "noisy" (10x noise), "offset" (zero
        level 500 counts off), "dead" (blind: its zero level and noise, whatever stands on
        it; a calibration cannot tell it from a good sensor)."""
        if kind == "dead":
            if self._dead is None:
                self._dead = bytearray(SLOTS)
            self._dead[slot] = 1
        elif kind == "high":
            self._stuck[slot] = 4095
        elif kind == "low":
            self._stuck[slot] = 0
        elif kind == "noisy":
            self._nq[slot] *= 10
        elif kind == "offset":
            self.zero[slot] += 500
        else:
            raise ValueError("unknown fault %r" % (kind,))
        self._rebuild()

    def true_zero(self, slot):
        """The slot's zero level at the last reading (zero spread plus drift)."""
        return self.zero[slot] + (self.drift[slot] if self.drift else 0)

    # -- reading -----------------------------------------------------------------------

    def _rebuild(self):
        field = self._field
        h = self.heights
        scale = self.scale
        kernels = self._kernels
        first = self._nb_first
        other = self._nb_other
        kernel = self._nb_kernel
        for s in range(SLOTS):
            acc = 0  # neighbours' field, 1/16 count
            for i in range(first[s], first[s + 1]):
                o = other[i]
                ho = h[o]
                if ho:
                    k = kernels[kernel[i]]
                    f = k[ho] if ho > 0 else -k[-ho]
                    acc += f if scale is None else (f * scale[o]) >> 12
            hs = h[s]
            own = field[hs] if hs >= 0 else -field[-hs]
            if scale is not None:
                own = (own * scale[s] + 2048) >> 12
            if self._dead is not None and self._dead[s]:
                own = acc = 0
            total = own + ((acc + 8) >> 4)
            v = self.zero[s] + ((total * self.gains[s] + 2048) >> 12)
            if self._stuck[s] >= 0:
                v = self._stuck[s]
            self._base[s] = v

    def _update_drift(self):
        if self.drift is None:
            return
        now = self._clock.ticks_ms()
        self._ms += self._clock.ticks_diff(now, self._last)
        self._last = now
        sec = self._ms // 1000
        if sec == self._drift_s:
            return
        self._drift_s = sec
        amp = self._amp
        period = self._period
        phase = self._phase
        drift = self.drift
        for s in range(SLOTS):
            a = amp[s]
            if a:
                p = period[s]
                w = (((sec + phase[s]) % p) << 12) // p
                tri = (w - 2048 if w >= 2048 else 2048 - w) - 1024
                drift[s] = (a * tri) >> 10

    def read_into(self, buf):
        """One scan: 128 raw counts into buf."""
        if self._dirty:
            self._dirty = False
            self._rebuild()
        self._update_drift()
        base = self._base
        drift = self.drift
        nq = self._nq
        stuck = self._stuck
        noise = self._noise
        # Noise samples from the precomputed table, at a random start and odd stride each
        # scan: one random draw per scan instead of one per slot.
        x = self._next()
        i = x & _NOISE_MASK
        stride = (x >> 16) | 1
        for s in range(SLOTS):
            d = noise[i]
            i = (i + stride) & _NOISE_MASK
            v = base[s] + ((d * nq[s] + 32768) >> 16)
            if drift is not None and stuck[s] < 0:
                v += drift[s]
            if v < 0:
                v = 0
            elif v > 4095:
                v = 4095
            buf[s] = v
