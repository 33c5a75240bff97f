# Positions from games of random legal plays, for the core's tests (pytest and MicroPython
# alike): bgcore alone, no simulator; a module of its own, so that the board's tests, which
# load support.py, do not hold this code in their heaps.
import random

from bgcore import Position, Turn


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
