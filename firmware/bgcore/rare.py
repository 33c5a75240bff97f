"""Rules the board seldom needs, loaded on first use (RAM): a shut-out player's pass, the
opening rethrow (old rule options), and the events of those, of the acceptor's demand of a
higher forfeit (bgcore.resign) and of irregular throws (bgcore.irregular), applied as a
journal replays them."""

from bgcore.errors import RuleError
from bgcore.offers import PLAYING, player_error
from bgcore.position import BAR


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


def why_not_rethrow(game, player=None):
    """Why the first player may not throw both dice again instead of playing the opening
    numbers (rule option opening_rethrow), or None."""
    if player_error(player):
        return player_error(player)
    if not game.rules.opening_rethrow:
        return "the first player plays the opening numbers (rule option opening_rethrow " \
               "is off)"
    if not game.rethrow_open or game.turn is None:
        return "only the first player, instead of playing the opening throw, may throw " \
               "both dice again"
    if game.turn.moves:
        return "the opening numbers are being played: take the checkers back to rethrow"
    if player is not None and player != game.player:
        return "only the first player (player %d) may rethrow" % game.player
    return None


def apply(game, ev):
    """A demand, pass, rethrow, void or correct_setup event, live or replayed from a
    journal."""
    kind = ev["ev"]
    if kind == "demand":
        game.demand(ev["level"], ev["player"])
    elif kind == "pass":
        pass_turn(game, ev["player"])
    else:
        from bgcore import irregular

        if kind == "rethrow":
            irregular.rethrow(game, ev["dice"], ev["player"])
        elif kind == "correct_setup":
            irregular.correct_setup(game, None, ev["player"])
        else:
            irregular.void(game, ev["player"])
