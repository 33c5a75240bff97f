# Rules the board seldom needs, loaded on first use (RAM): the acceptor's demand of a higher
# forfeit, a shut-out player's pass, and the events of those and of irregular throws
# (bgcore.irregular), applied as a journal replays them.

from bgcore.cube import LEVEL_NAMES, check_level
from bgcore.errors import RuleError
from bgcore.offers import PLAYING, why_not_accept_resignation
from bgcore.position import BAR


def why_not_demand(game, level=None, player=None):
    """Why the player offered a resignation may not demand `level` (None: any higher one)
    instead: "the player accepting the forfeit must decide whether to accept the forfeit as
    a single loss or to require the opponent to forfeit to a gammon"."""
    res = game.resignation
    reason = why_not_accept_resignation(game, player)
    if reason or len(res) > 2:
        return reason or "a higher forfeit is demanded: player %d agrees or plays on" % res[0]
    if level is None:
        level = res[1] + 1
    try:
        check_level(level)
    except RuleError as e:
        return str(e)
    if level <= res[1]:
        return "a demand asks more than the %s offered" % LEVEL_NAMES[res[1]]
    return None


def shut_out(game):
    """The player on roll has a checker on the bar and the opponent holds every point of the
    home board: no entry is possible, whatever the dice."""
    if game.phase != PLAYING or game.turn is not None and not game.turn.can_end():
        return False
    p = game.position
    return p.mover[BAR] > 0 and min(p.opponent[1:7]) >= 2


def why_not_pass_turn(game, player=None):
    """Why the player on roll may not pass without a throw, or None (rule option
    shut_out_pass)."""
    if not game.rules.shut_out_pass:
        return "a shut-out player throws and loses the turn (rule option shut_out_pass " \
               "is off)"
    return game._throw_error(player) or (
        None if shut_out(game) else
        "only a shut-out player (on the bar against a closed board) passes")


def pass_turn(game, player=None):
    """A shut-out player passes without rolling ("Though he does not roll the dice, since he
    cannot make a checker play, he still has the right to double"; rule option
    shut_out_pass): the opponent throws next."""
    reason = why_not_pass_turn(game, player)
    if reason:
        raise RuleError(reason)
    game.accept_play()
    game.cube.beaver_by = game.cube.taken_by = None  # the doubler's action: too late now
    game.start = game.start.swapped()
    game.player = 1 - game.player


def apply(game, ev):
    """A demand, pass, rethrow or void event, live or replayed from a journal."""
    kind = ev["ev"]
    if kind == "demand":
        game.demand(ev["level"], ev["player"])
    elif kind == "pass":
        pass_turn(game, ev["player"])
    else:
        from bgcore import irregular

        if kind == "rethrow":
            irregular.rethrow(game, ev["dice"], ev["player"])
        else:
            irregular.void(game, ev["player"])
