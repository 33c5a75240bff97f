"""Broken sensors, for the calibration and dead-sensor tests (sim.world's faults): loaded only
where a sensor is broken, the soaks' heap is a Pico's."""

from board.layout import SLOTS, filled


def fault(model, slot, kind):
    """Break a sensor of model (sim.sensor_model.SensorModel): "high"/"low" stuck at a rail,
    "noisy" (10x noise), "offset" (zero level 500 counts off), "dead" (blind: its zero level
    and noise, whatever stands on it; a calibration cannot tell it from a good sensor). The
    model's per-slot arrays for these are made when first needed."""
    if kind == "dead":
        if model._dead is None:
            model._dead = bytearray(SLOTS)
        model._dead[slot] = 1
    elif kind in ("high", "low"):
        if model._stuck is None:
            model._stuck = filled("h", SLOTS, -1)
        model._stuck[slot] = 4095 if kind == "high" else 0
    elif kind == "noisy":
        if model._nq is None:
            model._nq = filled("i", SLOTS, model._q)
        model._nq[slot] *= 10
    elif kind == "offset":
        model.zero[slot] += 500
    else:
        raise ValueError("unknown fault %r" % (kind,))
    model._rebuild()
