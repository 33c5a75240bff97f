# A simulated board wired to the sensing pipeline, for the board tests. Runs under pytest
# and MicroPython (tests/core/run_mpy.py), so plain Python only.
from array import array

from board.neighbours import neighbour_table
from board.calibration import calibrate, frames
from board.sensing import Field, Sensing
from sim.sensor_model import SensorModel, SimClock

SCAN_MS = 10


_shared = []


def _defaults():
    # One default neighbour table and Field for all rigs: the heap is small (160K) and a
    # test that builds many rigs would otherwise fragment it.
    if not _shared:
        kernels, table = neighbour_table()
        _shared.extend((kernels, table, Field(kernels=kernels, table=table)))
    return _shared


class Rig:
    """Clock, sensor model and a pipeline calibrated on the empty board."""

    def __init__(self, seed=1, start=0, calibrate_frames=32, model=None, **sensing_kw):
        kernels, table, field = _defaults()
        self.clock = SimClock(start)
        if model:
            self.model = model(self.clock)
        else:
            self.model = SensorModel(self.clock, seed=seed, kernels=kernels, table=table)
        self.buf = array("H", bytes(256))
        self.offsets, self.faulty = calibrate(frames(self.model, self.buf, calibrate_frames))
        if "field" not in sensing_kw:
            sensing_kw["field"] = field
        self.sensing = Sensing(self.clock, offsets=self.offsets,
                               disabled=[s for s, _ in self.faulty], **sensing_kw)

    def scan(self, ms=SCAN_MS):
        """Advance the clock by ms, read and scan once; the (slot, code) changes."""
        self.clock.advance(ms)
        self.model.read_into(self.buf)
        p = self.sensing
        n = p.scan(self.buf)
        return [(p.changed[i], p.frame[p.changed[i]]) for i in range(n)]

    def run(self, ms, step=SCAN_MS):
        """Scan every step ms for ms; all changes as (time from now, slot, code)."""
        out = []
        t = 0
        while t < ms:
            t += step
            for slot, c in self.scan(step):
                out.append((t, slot, c))
        return out

    def codes(self):
        return list(self.sensing.frame)


def true_zero(model, slot):
    """A simulated sensor's zero level at its last reading (zero spread plus drift)."""
    return model.zero[slot] + (model.drift[slot] if model.drift else 0)


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised, which must be an exc_type. (As support's,
    without importing bgcore: these tests need not pay its heap.)"""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (fn, exc_type.__name__))


def expected(heights):
    return [h if -3 <= h <= 3 else (3 if h > 0 else -3) for h in heights]


def hardware_file(name):
    """Path of a file in the repository's hardware/ folder (tests run from the top)."""
    return "hardware/" + name