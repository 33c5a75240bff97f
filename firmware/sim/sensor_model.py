"""Simulated sensors and clock: raw ADC counts per slot from where checkers are.

Model per slot s (board.layout numbering), in 12-bit ADC counts:
  raw = zero[s] + drift[s](t) + gain[s] x (own field + neighbours' fields) + noise
own field of a stack of h checkers: 860, +177, +61, then +10 per layer (hardware.md), sign
+1 white (north-up), -1 black; neighbours' fields add linearly through kernels and a table
as in board.sensing.Field (default board.neighbours.neighbour_table(): -10..-13 counts per nearest
neighbour, 51 counts in the worst case; a kernel's last entry serves taller stacks); zero
spread +-offset_spread counts, sensitivity spread +-gain_spread;
Gaussian-ish noise (sum of four uniform bytes) of noise counts RMS; drift: a triangle wave
per sensor, amplitude up to +-drift counts, period drift_hours (+-50 %). The result is
clipped to 0..4095.

Checkers (a set a builder owns, placed by hand): each checker put on a slot has a magnet of
strength `magnets` (the set's, 1.0 the design's) x (1 +- magnet_spread) and lands up to
off_centre mm (up to 16) from the sensor's axis; its layer's field is scaled by both (the
off-centre factor from hardware/field_table.json's "tolerance", magpylib: 4 mm off costs 26 %
of a single checker's field, 12 % of a higher layer's; 8 mm 71 %, below the empty/1
boundary; 16 mm all of it). The neighbours see such a checker scaled as its own sensor does
(a checker far off its slot's centre is nearer another sensor, which this misses: at 16 mm
the nearest neighbour would read its -11 counts, not the 32 mm kernel's). A hand takes a stack's top checker: the
bottom one stays what it is, the upper ones left keep their mean. Neighbours see a stack
scaled as the sensor under it does.
Deterministic from seed (own xorshift32, same numbers on CPython and
MicroPython). read_into does not allocate on 64-bit MicroPython (32-bit ints are small)."""

from array import array

from board.layout import SLOTS, filled, heights_from_counts
from board.sensing import default_field
from sim.clock import PERIOD, SimClock  # noqa: F401 - SimClock: where it was
from sim.rng import Rng

MID = 2048
_NOISE_MASK = 255  # noise table of 256 samples
# Counts of a stack of h checkers on the slot itself, h = 0..15.
_STEPS = (860, 177, 61) + (10,) * 12
class SensorModel:
    """Simulated hall sensors (board.hw.Scanner). Put checkers with set_heights, set_slot or
    set_counts; read_into(buf) gives the 128 raw counts of one scan at clock's time; break
    a sensor with sim.faults.fault.

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
        # The checkers as placed (sim.checkers.Checkers), loaded only when they are not all
        # the design's put dead centre (the soaks run in a Pico's heap).
        self.checkers = None
        self.scale = None  # type: array | None  # per slot, its stack's field (1/4096)
        if magnets != 1.0 or magnet_spread or off_centre:
            from sim.checkers import Checkers

            self.checkers = Checkers(seed, steps, magnets, magnet_spread, off_centre)
            self.scale = self.checkers.scale
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
        # (Periods in seconds: unsigned 16 bits while they fit, as the soaks' do: the heap
        # they run in is a Pico's.)
        self.drift = None
        if drift:
            long = drift_hours * 5400 >= 65535
            self._amp = filled("h", SLOTS)
            self._period = filled("i" if long else "H", SLOTS, 1)
            self._phase = filled("i" if long else "H", SLOTS)
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
        # Noise per slot (1/65536 of the table's) and rails, per slot only once a fault
        # needs it (sim.faults).
        self._q = self._noise_q(noise)
        self._nq = None  # type: array | None
        self._stuck = None  # type: array | None
        self._dead = None  # type: bytearray | None  # blind sensors, once there is one
        shared = kernels is None and table is None
        if shared:
            from board.neighbours import neighbour_table  # let go with the default Field's

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
            import board

            board.forget("neighbours")  # (the default Field, once built, forgot it already)
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
        old = self.heights[slot]
        self.heights[slot] = height
        if self.checkers is not None:
            self.checkers.place(slot, old, height)

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
            if self._stuck is not None and self._stuck[s] >= 0:
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
        q = self._q
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
            v = base[s] + ((d * (q if nq is None else nq[s]) + 32768) >> 16)
            if drift is not None and (stuck is None or stuck[s] < 0):
                v += drift[s]
            if v < 0:
                v = 0
            elif v > 4095:
                v = 4095
            buf[s] = v
