# Helpers for the game, cube, match and chouette tests (pytest and MicroPython alike).
from bgcore import RuleError
from support import raises


def refused(obj, fn, *args, **kwargs):
    """fn must raise RuleError and leave obj's snapshot as it was; returns the error."""
    before = obj.to_dict()
    e = raises(RuleError, fn, *args, **kwargs)
    assert obj.to_dict() == before, "refusal changed the state: %s" % e
    assert isinstance(e, ValueError)
    return e


def says(e, *words):
    """The error's text names the rule: it contains every one of `words`."""
    text = str(e)
    for w in words:
        assert w in text, "%r not in %r" % (w, text)


def start(game, first=0, dice=(6, 1)):
    """The opening throw, `first` winning it with the numbers `dice` (high, low)."""
    high, low = dice
    game.roll((high, low) if first == 0 else (low, high))
    assert game.player == first
    return game.turn


def play_out(game):
    """Finish the current roll with the first legal checker moves."""
    turn = game.turn
    while not turn.can_end():
        src = [p for p in range(25, 0, -1) if turn.destinations(p)][0]
        game.move(src, turn.destinations(src)[0])


def roll_and_play(game, dice):
    game.roll(dice)
    play_out(game)


def is_plain(data):
    """Snapshots hold only ints, strings, lists and dicts of those (no None, no tuples)."""
    if isinstance(data, bool):
        return False
    if isinstance(data, (int, str)):
        return True
    if isinstance(data, list):
        return all(is_plain(x) for x in data)
    if isinstance(data, dict):
        return all(isinstance(k, str) and is_plain(v) for k, v in data.items())
    return False
