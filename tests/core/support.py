# Helpers shared by the core tests; they run under pytest (CPython) and tests/core/run_mpy.py
# (MicroPython), so nothing here may need pytest or CPython-only modules.
from bgcore import Position


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised, which must be an exc_type."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (fn, exc_type.__name__))


def board(mover=None, opponent=None):
    """A Position from {point: count} dicts in each side's own numbering (25 bar); checkers
    not placed are borne off."""
    return Position(_counts(mover or {}), _counts(opponent or {}))


def _counts(points):
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    return counts


def on_micropython():
    import sys
    return sys.implementation.name == "micropython"
