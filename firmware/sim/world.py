"""The physical side of a simulated board: a clock, the hall sensors under the checkers, the
checkers themselves, and the factory's calibration. It exists before the board powers up,
and it is built before the firmware is loaded (sim.virtual_board.VirtualBoard takes it), so that
the simulation's buffers do not take the pieces of heap the firmware needs."""
import sys

from board.layout import SLOTS, filled
from sim.sensor_model import SensorModel, SimClock
from sim.table import Table


class World:
    """sensors: more of sim.sensor_model.SensorModel's settings (spread, drift, magnets...);
    faults: [(slot, kind)] broken before the factory calibrates (sim.faults.fault)."""

    def __init__(self, seed=1, noise=3.0, sensors=None, faults=()):
        self.clock = SimClock()
        self.model = SensorModel(self.clock, seed=seed, noise=noise, **(sensors or {}))
        if faults:
            from sim.faults import fault

            for slot, kind in faults:
                fault(self.model, slot, kind)
        self.table = Table(self.model)
        self.table.clear()
        self.buf = filled("H", SLOTS)
        # Calibrated once on the empty board, as at the factory; kept on flash.
        self.offsets, self.faulty = _calibrated(self.model, self.buf)


def _calibrated(model, buf):
    # Zero levels of the empty board. The calibration code is not kept loaded afterwards: a
    # board loads it only to calibrate, and the heap is a Pico's.
    import board
    from board.calibration import calibrate, frames

    try:
        return calibrate(frames(model, buf, 32))
    finally:
        del sys.modules["board.calibration"]
        if hasattr(board, "calibration"):  # MicroPython keeps it in the package too
            delattr(board, "calibration")
