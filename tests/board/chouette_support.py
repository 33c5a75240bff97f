# Helpers for the chouette tests on the board (pytest and MicroPython alike). Light on
# imports: a chouette's code and snapshot must fit beside them in a 160K heap.
from bgcore import Rules
from board.controller import Controller
from board_support import BLACK, WHITE, Dice, Eyes

NAMES = ["Ann", "Bob", "Cy", "Dee"]


class Clock:
    """Time stands still unless a test moves it (board.hw.Clock)."""

    def __init__(self):
        self.t = 0

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def advance(self, ms):
        self.t += ms


def raises(exc_type, fn, *args):
    try:
        fn(*args)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (fn, exc_type.__name__))


def rig(*throws, journal=None):
    """A controller on a clock that stands still, with these throws: (board, eyes, the
    committed events, the board's emit)."""
    events = []  # the committed events only (a small heap keeps no live lines)

    def emit(msg):
        if "ev" in msg:
            events.append(msg)

    board = Controller(Clock(), Dice(*throws), journal, None, emit)
    return board, Eyes(board), events, emit


def chouette(multiple=True, players=NAMES, journal=None, partner_from=None):
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events, _ = rig(journal=journal)
    chouette_session.new(board, players, Rules(), multiple, partner_from)
    eyes.start()
    return board, eyes, events


def evs(events, name=None):
    return [e for e in events if "ev" in e and (name is None or e["ev"] == name)]


def box_on_roll(board, eyes):
    # The captain wins the opening throw (box 1, captain 6) and plays 13/7 8/7.
    board.roll((1, 6))
    eyes.carry(BLACK, 13, 7)
    eyes.carry(BLACK, 8, 7)


def team_on_roll(board, eyes):
    board.roll((6, 1))
    eyes.carry(WHITE, 13, 7)
    eyes.carry(WHITE, 8, 7)


def refused(board, events, fn, *args):
    """fn must be refused with a ValueError, commit nothing and change nothing."""
    before = board.snapshot()
    n = len(evs(events))
    e = raises(ValueError, fn, *args)
    assert board.snapshot() == before, "refusal changed the state: %s" % e
    assert len(evs(events)) == n, "refusal committed an event: %s" % e
    return str(e)
