# Helpers shared by the core tests; they run under pytest (CPython) and tests/core/run_mpy.py
# (MicroPython), so nothing here may need pytest or CPython-only modules.
import random

from bgcore import Position, Turn


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


def random_dice(rng):
    return (rng.randint(1, 6), rng.randint(1, 6))


def random_positions(seed, count):
    """Yield positions met in games of random legal plays, each with the dice rolled there
    (one at a time: a list of them ran a 192K heap out when the path names were longer)."""
    rng = random.Random(seed) if hasattr(random, "Random") else _SeededModule(seed)
    position = Position.initial()
    for _ in range(count):
        dice = random_dice(rng)
        yield position, dice
        position = random_play(Turn(position, dice), rng).position
        if position.mover[0] == 15:
            position = Position.initial()
        else:
            position = position.swapped()


def random_play(turn, rng):
    """Complete `turn` (a bgcore.Turn) with random legal moves: a random checker, a random
    destination, a random way there. The core's tests play with bgcore alone (the simulated
    hands, sim.hands, do the same for the board's, with their clumsiness on top)."""
    while not turn.can_end():
        srcs = [p for p in range(25, 0, -1) if turn.destinations(p)]
        src = srcs[rng.randint(0, len(srcs) - 1)]
        dests = turn.destinations(src)
        dst = dests[rng.randint(0, len(dests) - 1)]
        ways = turn.paths(src, dst)
        way = ways[rng.randint(0, len(ways) - 1)]
        turn.move(src, dst, [s.dst for s in way[:-1] if s.hit])
    return turn


class _SeededModule:
    # MicroPython has no random.Random: seed the module generator instead.
    def __init__(self, seed):
        random.seed(seed)

    def randint(self, a, b):
        return random.randint(a, b)


def measured_on_micropython_only():
    """Skip the calling test under pytest: it measures the heap's allocations, which only
    MicroPython's gc.mem_alloc() gives (make test-mpy runs it there). CPython only."""
    import pytest

    pytest.skip("allocation is measured on MicroPython only (make test-mpy)")


def on_micropython():
    import sys
    return sys.implementation.name == "micropython"
