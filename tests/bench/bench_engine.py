"""GNU Backgammon's reply time per level on this machine (`make bench`): gnubg's play
(bgboard.engine.Engine.play), cube decision (Engine.cube) and hint (Engine.hint) for the positions of one game
between two expert engines with seeded dice, through the JSON pipe as `bgboard engine` asks
them. The board never waits for these: the host asks while the board scans on."""

import random
import statistics
import sys
import time

from bgboard.engine import LEVELS, Context, Engine, turn_of
from bgcore import Position


def positions(seed=19, n=60):
    """(position, dice) of a game between expert engines, the first n turns."""
    rng = random.Random(seed)
    out = []
    with Engine("expert") as e:
        p = Position.initial()
        while len(out) < n:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((p, dice))
            after = turn_of(p, dice, e.play(p, dice, Context())).position
            if after.mover[0] == 15:
                p = Position.initial()
                continue
            p = after.swapped()
    return out


def main():
    cases = positions()
    print("engine reply time per level (%d positions of one game; median / 90th percentile "
          "/ max, ms):" % len(cases))
    for level in LEVELS:
        with Engine(level) as e:
            plays, cubes, hints = [], [], []
            for p, dice in cases:
                t0 = time.perf_counter()
                e.play(p, dice, Context())
                plays.append(1000 * (time.perf_counter() - t0))
                t0 = time.perf_counter()
                e.cube(p, Context())
                cubes.append(1000 * (time.perf_counter() - t0))
        with Engine(level) as e:  # a gnubg of its own: not helped by the plays' cache
            for p, dice in cases:
                t0 = time.perf_counter()
                e.hint(p, dice, Context(), level=level)
                hints.append(1000 * (time.perf_counter() - t0))
        print("  %-12s play %6.1f / %6.1f / %6.1f   cube %6.1f / %6.1f / %6.1f   "
              "hint (top 5) %6.1f / %6.1f / %6.1f" % (
                  level, *_figures(plays), *_figures(cubes), *_figures(hints)))
    t0 = time.perf_counter()
    with Engine("expert") as e:
        e.start()
        started = 1000 * (time.perf_counter() - t0)
    print("  gnubg's start (networks and tables loaded): %.0f ms" % started)
    return 0


def _figures(ms):
    ms = sorted(ms)
    return statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], ms[-1]


if __name__ == "__main__":
    sys.exit(main())
