# Helpers for the board tests, under pytest and MicroPython alike.
import os
import random
import time

from bgcore import Position
from board.tracker import Sensed
from bgwire import BLACK, WHITE  # the sides (re-exported for the tests)


def tmpdir(tag="bgboard"):
    t = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)  # type: ignore[attr-defined]
    while True:
        path = "/tmp/%s-%d-%d" % (tag, t, random.getrandbits(30))
        try:
            os.mkdir(path)
            return path
        except OSError:
            pass


def rmtree(path):
    for name in os.listdir(path):
        try:
            os.remove(path + "/" + name)
        except OSError:  # a folder (of files)
            rmtree(path + "/" + name)
    os.rmdir(path)


class Dice:
    """A random source that throws the numbers given (then 1s... never: it must not run out)."""

    def __init__(self, *throws):
        self.values = []
        for pair in throws:
            self.values += list(pair)

    def randint(self, a, b):
        return self.values.pop(0)


class Eyes:
    """Perfect sensing: a hand moves checkers and the board is told at once."""

    def __init__(self, board):
        self.board = board
        self.sensed = Sensed()

    def show(self, white, black):
        """Put the checkers so: counts in each side's own numbering."""
        for side, counts in ((WHITE, white), (BLACK, black)):
            for p in range(1, 26):
                self.sensed.count[side][p] = counts[p]
        self.board.on_sensed(self.sensed)

    def start(self):
        p = Position.initial()
        self.show(p.mover, p.opponent)

    def lift(self, side, point):
        assert self.sensed.count[side][point] > 0, (side, point)
        self.sensed.count[side][point] -= 1
        self.board.on_sensed(self.sensed)

    def put(self, side, point):
        if point:  # 0: into the tray, which nothing senses
            self.sensed.count[side][point] += 1
        self.board.on_sensed(self.sensed)

    def carry(self, side, src, dst):
        self.lift(side, src)
        self.put(side, dst)


def check_autoplay(ap, what):
    """The board committed exactly the plays the simulated hands made (sim.autoplay)."""
    assert not ap.mismatches, "%s: board committed other plays: %r" % (what, ap.mismatches[:3])
    assert ap.stuck == 0, "%s: board disagreed with the hands %d times" % (what, ap.stuck)
