"""Every distinct play of a roll, and a play's .mat notation. Host-side and test work: a hard
roll has over 2,000 plays, so the board itself never lists them (it asks Turn about one
lifted checker at a time)."""

from bgcore.movegen import apply, dice_to_play, landing, retract
from bgcore.position import Position
from bgcore.turn import Step, check_dice


def plays_with_steps(position, dice):
    """[(resulting Position, Steps of one way to play it)], one entry per distinct result,
    sorted by Position ID. The mover stays on roll in the results."""
    high, low = check_dice(dice)
    me = bytearray(position.mover)
    opp = bytearray(position.opponent)
    required = dice_to_play(me, opp, high, low)
    if not required:
        return []
    found = {}
    doubles = len(required) > 1 and required[0] == required[1]
    orders = [required] if doubles or len(required) == 1 else [required, required[::-1]]
    for order in orders:
        _walk(me, opp, order, 0, 25, doubles, [], found)
    out = [(Position(bytes(k[:26]), bytes(k[26:])), steps) for k, steps in found.items()]
    out.sort(key=lambda pair: pair[0].to_id())
    return out


def legal_plays(position, dice):
    """The distinct positions a legal play of `dice` can lead to (empty if none)."""
    return [p for p, _ in plays_with_steps(position, dice)]


def _walk(me, opp, dice, n, top, doubles, path, found):
    if n == len(dice):
        key = bytes(me) + bytes(opp)
        if key not in found:
            found[key] = tuple(path)
        return
    die = dice[n]
    src = top if doubles else 25
    while src > 0:
        if me[src]:
            dst = landing(me, opp, src, die)
            if dst >= 0:
                hit = apply(me, opp, src, dst)
                path.append(Step(src, dst, die, bool(hit)))
                _walk(me, opp, dice, n + 1, src, doubles, path, found)
                path.pop()
                retract(me, opp, src, dst, hit)
        src -= 1


def notation(steps):
    """Steps in .mat notation: `13/7 8/7*` (25 the bar, 0 off, * a hit)."""
    return " ".join("%d/%d%s" % (s.src, s.dst, "*" if s.hit else "") for s in steps)
