"""gnubg Match ID: the match and cube state in 12 base64 characters (formats.md). 67 bits,
least-significant first:
  0-3 log2 cube, 4-5 cube owner (3 centred), 6 on roll, 7 Crawford game, 8-10 game state,
  11 whose decision, 12 double offered, 13-14 resignation, 15-17 and 18-20 dice (higher
  first), 21-35 match length (0 money), 36-50 and 51-65 scores, 66 set when Jacoby is OFF.

The fields travel as one dict with the keys of KEYS (the `bgboard rules matchid` JSON)."""

import binascii

from bgcore.errors import RuleError
from bgcore.offers import PLAYING
from bgcore.position import Position
from bgcore.rules import Rules
from bgcore.turn import Turn


class MatchIdError(ValueError):
    """A gnubg Match ID, or a set of Match ID fields, that cannot describe a match."""


KEYS = ("cube", "cube_owner", "on_roll", "crawford", "game_state", "turn", "double_offered",
        "resignation", "dice", "match_length", "score", "jacoby")
STATES = ("none", "playing", "over", "resigned", "dropped")
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_MAX15 = (1 << 15) - 1


def encode(fields):
    """The 12-character Match ID of `fields` (checked first: MatchIdError says what is wrong)."""
    f = check(fields)
    raw = bytearray(9)
    cube = f["cube"]
    log = 0
    while (1 << log) < cube:
        log += 1
    owner = f["cube_owner"]
    dice = f["dice"] or [0, 0]
    _put(raw, 0, 4, log)
    _put(raw, 4, 2, 3 if owner is None else owner)
    _put(raw, 6, 1, f["on_roll"])
    _put(raw, 7, 1, int(f["crawford"]))
    _put(raw, 8, 3, STATES.index(f["game_state"]))
    _put(raw, 11, 1, f["turn"])
    _put(raw, 12, 1, int(f["double_offered"]))
    _put(raw, 13, 2, f["resignation"])
    _put(raw, 15, 3, dice[0])
    _put(raw, 18, 3, dice[1])
    _put(raw, 21, 15, f["match_length"])
    _put(raw, 36, 15, f["score"][0])
    _put(raw, 51, 15, f["score"][1])
    _put(raw, 66, 1, 0 if f["jacoby"] else 1)
    return binascii.b2a_base64(bytes(raw)).decode().strip()


def decode(match_id):
    """The fields of a Match ID, checked as encode checks them. In match play `jacoby` is
    False whatever bit 66 says (IDs from before gnubg's extension leave it clear)."""
    if not isinstance(match_id, str) or len(match_id) != 12:
        raise MatchIdError("a Match ID has 12 characters: %r" % (match_id,))
    for c in match_id:
        if c not in _ALPHABET:
            raise MatchIdError("not a Match ID (%r is not a base64 character): %r"
                               % (c, match_id))
    raw = binascii.a2b_base64(match_id)
    if _get(raw, 67, 5):
        raise MatchIdError("not a Match ID: bits past 66 are set in %r" % match_id)
    owner = _get(raw, 4, 2)
    if owner == 2:
        raise MatchIdError("Match ID %r: cube owner 2 (owners are 0, 1 and 3 for centred)"
                           % match_id)
    state = _get(raw, 8, 3)
    if state >= len(STATES):
        raise MatchIdError("Match ID %r: game state %d (0 to 4 exist)" % (match_id, state))
    d1 = _get(raw, 15, 3)
    d2 = _get(raw, 18, 3)
    dice = []
    if d1 or d2:
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MatchIdError("Match ID %r: dice %d and %d (each 1 to 6, or both 0 before "
                               "the roll)" % (match_id, d1, d2))
        dice = [max(d1, d2), min(d1, d2)]
    length = _get(raw, 21, 15)
    fields = {
        "cube": 1 << _get(raw, 0, 4),
        "cube_owner": None if owner == 3 else owner,
        "on_roll": _get(raw, 6, 1),
        "crawford": bool(_get(raw, 7, 1)),
        "game_state": STATES[state],
        "turn": _get(raw, 11, 1),
        "double_offered": bool(_get(raw, 12, 1)),
        "resignation": _get(raw, 13, 2),
        "dice": dice,
        "match_length": length,
        "score": [_get(raw, 36, 15), _get(raw, 51, 15)],
        "jacoby": length == 0 and not _get(raw, 66, 1),
    }
    try:
        return check(fields)
    except MatchIdError as e:
        raise MatchIdError("Match ID %s: %s" % (match_id, e))


def check(fields):
    """A normalised copy of Match ID fields (dice high first), or MatchIdError."""
    if not isinstance(fields, dict):
        raise MatchIdError("Match ID fields are an object with keys %s" % ", ".join(KEYS))
    missing = [k for k in KEYS if k not in fields]
    if missing:
        raise MatchIdError("missing field(s): %s" % ", ".join(missing))
    unknown = sorted(k for k in fields if k not in KEYS)
    if unknown:
        raise MatchIdError("unknown field(s): %s" % ", ".join(unknown))
    f = dict(fields)
    cube = f["cube"]
    if not _is_int(cube) or cube < 1 or cube > 1 << 15 or cube & (cube - 1):
        raise MatchIdError("cube must be a power of two from 1 to 32768, got %r" % (cube,))
    if f["cube_owner"] not in (None, 0, 1) or isinstance(f["cube_owner"], bool):
        raise MatchIdError("cube_owner is 0, 1 or null (centred), got %r" % (f["cube_owner"],))
    for key in ("on_roll", "turn"):
        if not _is_int(f[key]) or f[key] not in (0, 1):
            raise MatchIdError("%s is player 0 or 1, got %r" % (key, f[key]))
    for key in ("crawford", "double_offered", "jacoby"):
        if not isinstance(f[key], bool):
            raise MatchIdError("%s is true or false, got %r" % (key, f[key]))
    if f["game_state"] not in STATES:
        raise MatchIdError("game_state is one of %s, got %r" % (", ".join(STATES),
                                                                f["game_state"]))
    if not _is_int(f["resignation"]) or not 0 <= f["resignation"] <= 3:
        raise MatchIdError("resignation is 0 (none), 1 (single), 2 (gammon) or 3 (backgammon),"
                           " got %r" % (f["resignation"],))
    f["dice"] = _dice(f["dice"])
    length = f["match_length"]
    if not _is_int(length) or not 0 <= length <= _MAX15:
        raise MatchIdError("match_length is 0 (money) to 32767, got %r" % (length,))
    f["score"] = _score(f["score"])
    _check_rules(f)
    return f


def _check_rules(f):
    length = f["match_length"]
    state = f["game_state"]
    if length:
        high = max(f["score"])
        if state in ("none", "playing") and high >= length:
            raise MatchIdError("a score of %d is past the %d-point match: the match is over"
                               % (high, length))
        if min(f["score"]) >= length:
            raise MatchIdError("both scores reach the match length %d: only one side can win"
                               % length)
        if f["jacoby"]:
            raise MatchIdError("the Jacoby rule is not used in match play")
    elif f["crawford"]:
        raise MatchIdError("the Crawford rule belongs to match play (match_length is 0)")
    if f["crawford"] and f["double_offered"]:
        raise MatchIdError("Crawford rule: no doubling in the Crawford game")
    if f["double_offered"]:
        if state != "playing":
            raise MatchIdError("a double can be on offer only while the game is playing")
        if f["resignation"]:
            raise MatchIdError("a double and a resignation cannot be on offer at once")
        if f["dice"]:
            raise MatchIdError("a double is offered before rolling: no dice with a double")
    if f["resignation"] and state not in ("playing", "resigned"):
        raise MatchIdError("a resignation is on offer or accepted only in a game being played")
    if state == "resigned" and not f["resignation"]:
        raise MatchIdError("a resigned game records the resignation (1, 2 or 3)")


def _dice(dice):
    if not isinstance(dice, (list, tuple)) or len(dice) not in (0, 2):
        raise MatchIdError("dice are [high, low] or [] before the roll, got %r" % (dice,))
    for d in dice:
        if not _is_int(d) or not 1 <= d <= 6:
            raise MatchIdError("a die shows 1 to 6, got %r" % (d,))
    if dice:
        return [max(dice), min(dice)]
    return []


def _score(score):
    if not isinstance(score, (list, tuple)) or len(score) != 2:
        raise MatchIdError("score is [player 0, player 1], got %r" % (score,))
    for s in score:
        if not _is_int(s) or not 0 <= s <= _MAX15:
            raise MatchIdError("a score is 0 to 32767, got %r" % (s,))
    return [score[0], score[1]]


def _is_int(n):
    return isinstance(n, int) and not isinstance(n, bool)


def _put(raw, offset, width, value):
    for i in range(width):
        if (value >> i) & 1:
            k = offset + i
            raw[k >> 3] |= 1 << (k & 7)


def _get(raw, offset, width):
    value = 0
    for i in range(width):
        k = offset + i
        if (raw[k >> 3] >> (k & 7)) & 1:
            value |= 1 << i
    return value


def match_from_id(cls, match_id, position=None, rules=None):
    """bgcore.match.Match.from_match_id: a match (class cls) resumed from a Match ID."""
    f = decode(match_id)
    if f["game_state"] not in ("none", "playing"):
        raise RuleError("only a game in play can be resumed from a Match ID, this one is %s"
                        % f["game_state"])
    if rules is None:
        rules = Rules(jacoby=f["jacoby"])
    match = cls(f["match_length"], rules, f["score"], f["crawford"])
    game = match.game
    if f["game_state"] == "playing":
        game.phase = PLAYING
        game.player = f["on_roll"]
        game.start = position if position is not None else Position.initial()
        game.rolls = [2, 2]
        game.cube.value = f["cube"]
        game.cube.owner = f["cube_owner"]
        if f["dice"]:
            game.turn = Turn(game.start, f["dice"])
        if f["double_offered"]:
            game.cube.offered_by = f["on_roll"]
        if f["resignation"]:
            game.resignation = (1 - f["turn"], f["resignation"])
    return match
