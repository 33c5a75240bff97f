# Moving and taking back a checker through the game (bgcore.game.Game.move and undo): when
# the game lets a player do so, and why not. The board's tracker plays through the Turn
# itself: this is loaded when a program moves a checker, or a player takes one back by
# command (the board pays no RAM for it before).

from bgcore.offers import OVER, PLAYING, player_error


def why_not_move(game, player=None):
    if player_error(player):
        return player_error(player)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else "throw the opening roll first"
    if game.turn is None:
        return "throw the dice first"
    if game.turn.can_end():
        if not game.turn.required:
            return "no legal play with %d-%d: the turn passes" % game.turn.dice
        return "the play is complete: take a checker back to change it"
    if game.resignation is not None:
        return "a resignation is on offer: accept or reject it first"
    if player is not None and player != game.player:
        return "player %d is playing this roll" % game.player
    return None


def why_not_undo(game, player=None):
    if player_error(player):
        return player_error(player)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else "nothing has been played"
    if game.turn is None or not game.turn.moves:
        if game.turn is None and game.rolls[1 - game.player]:
            return "nothing to take back: a play stands once the opponent throws (or " \
                   "doubles or resigns)"
        return "nothing to take back this turn"
    if game.resignation is not None:
        return "a resignation is on offer: accept or reject it first"
    if player is not None and player != game.player:
        return "only player %d may take back this play" % game.player
    return None
