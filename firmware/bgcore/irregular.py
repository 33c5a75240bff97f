"""Irregular throws with physical dice (Lowe's laws 9-10, PC-Gammon): dice that came to rest
cocked are thrown again; a player who picks the dice up before the play is finished lets
the opponent void the play and require a new throw. And a wrong setup corrected after the
opening throw (PC-Gammon). Its own module, loaded only when such a thing happens (the board
pays no RAM for it otherwise)."""

from bgcore import offers
from bgcore.errors import RuleError
from bgcore.offers import PLAYING
from bgcore.position import Position
from bgcore.turn import Turn, check_dice


def _turn_error(game, what):
    if game.phase != PLAYING or game.turn is None:
        return "no throw to %s: %s" % (what, "the game is over" if game.is_over() else
                                       "nobody has thrown")
    if sum(game.rolls) < 2:
        return "not the opening throw: a tie or flat dice decide it before it is played"
    if game.resignation is not None:
        return "a resignation is on offer: accept or reject it first"
    return None


def why_not_rethrow(game, player=None):
    """Why the dice of the roll being played may not be thrown again (cocked: "The dice must
    be rolled together and come to rest flat ... otherwise they must be thrown again")."""
    reason = offers.player_error(player) or _turn_error(game, "throw again")
    if reason:
        return reason
    if game.turn.moves:  # type: ignore[union-attr]
        return "checkers have been moved with these dice: they lay flat"
    if player is not None and player != game.player:
        return "player %d threw these dice: the thrower throws again" % game.player
    return None


def rethrow(game, dice, player=None):
    """The thrower's cocked dice are thrown again: `dice` replace them. Returns the Turn."""
    dice = check_dice(dice)
    _refuse(why_not_rethrow(game, player))
    game.turn = Turn(game.start, dice)
    return game.turn


def why_not_void(game, player=None):
    """Why the opponent of the player whose roll it is may not void the play ("Should he pick
    them up before the completion of the play, his Opponent may declare the play void and
    require him to replace the man or men moved and throw again")."""
    reason = offers.player_error(player) or _turn_error(game, "void")
    if reason:
        return reason
    if player is not None and player == game.player:
        return "player %d is playing this roll: only the opponent voids it" % player
    return None


def void(game, player=None):
    """The play and its throw are void: the checkers go back, the same player throws again."""
    _refuse(why_not_void(game, player))
    game.turn = None
    game.rolls[game.player] -= 1


def _refuse(reason):
    if reason:
        raise RuleError(reason)


def why_not_correct_setup(game, player=None):
    """Why a wrong setup may not be corrected now, or None: "If an error has been made in
    setup or play, either player may require its correction before a subsequent throw of
    the dice, but not afterwards." (PC-Gammon) As for a play, the setup stands once the
    opponent of the opening player throws (or doubles or resigns, which accept the opening
    play: bgcore.game). Either player (0, 1 or None) may require it."""
    reason = offers.player_error(player)
    if reason:
        return reason
    if game.phase != PLAYING:
        return "the game is over" if game.is_over() else \
            "no throw yet: set the checkers up before the opening throw"
    if game.turn is None or sum(game.rolls) > 1:
        return "the setup stands: it may be corrected only before a throw after the " \
               "opening throw (and before the opening play is accepted)"
    if game.resignation is not None:
        return "a resignation is on offer: accept or reject it first"
    return None


def correct_setup(game, position=None, player=None):
    """The setup was wrong: the checkers are set up as `position` (seen from player 0, as
    Game takes it; None: the usual starting position) and the opening throw is played again
    from there ("Any man incorrectly played must be restored to its previous position, and
    a correct play then made"): same player, same dice. Returns the Turn."""
    _refuse(why_not_correct_setup(game, player))
    if position is None:
        position = Position.initial()
    elif not isinstance(position, Position):
        raise RuleError("a setup is a Position, got %r" % (position,))
    start = position.swapped() if game.player else position
    game.start = start
    game.turn = Turn(start, game.turn.dice)  # type: ignore[union-attr]
    return game.turn
