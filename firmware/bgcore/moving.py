"""Why a checker may not be moved or taken back, in words for the player: a Turn's refused
move (bgcore.turn.Turn.why_not), and when the game lets a player move or take back through
it (bgcore.game.Game.move and undo). The board's tracker plays through the Turn and needs
no words: this is loaded when a program's or a player's command is refused (the board pays
no RAM for it before)."""

from bgcore.movegen import apply, landing, retract
from bgcore.offers import OVER, PLAYING, player_error
from bgcore.position import BAR, OFF, point_name
from bgcore.turn import _is_point


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


def why_not(turn, src, dst):
    """Why a checker may not go from src to dst now in `turn` (bgcore.turn.Turn.why_not)."""
    me = turn._me
    if not turn._left:
        if not turn.required:
            return "no legal play with %d-%d: the turn passes" % turn.dice
        return "the play is complete: no dice left"
    if not _is_point(src, 1, BAR) or not _is_point(dst, OFF, 24):
        return "no such move: %r to %r" % (src, dst)
    if not me[src]:
        return "you have no checker on %s" % point_name(src)
    if me[BAR] and src != BAR:
        return "enter from the bar first (%d on the bar)" % me[BAR]
    if dst >= src:
        return "checkers move from higher points to lower ones"
    if dst == OFF and _highest(me) > 6:
        return "you may bear off only when all your checkers are home (one is on %s)" % (
            point_name(_highest(me))
        )
    if dst and turn._opp[25 - dst] > 1:
        return "%s is held by your opponent" % point_name(dst)
    rolled = _rolled_left(turn)
    dice_left = "-".join(str(d) for d in rolled)
    if not _reachable_ignoring_rest(turn, src, dst, rolled):
        if dst == OFF:
            return "no die left (%s) bears off from %s: a higher die only bears off from " \
                   "your highest point" % (dice_left, point_name(src))
        return "no die or dice left (%s) take a checker from %s to %s on open points" % (
            dice_left, point_name(src), point_name(dst)
        )
    if len(turn.required) == 1 and turn.dice[0] != turn.dice[1]:
        return "only one die can be played and it must be the %d" % turn.required[0]
    return "that would leave dice unplayable: this roll must use %d dice" % len(turn.required)


def _rolled_left(turn):
    # The dice thrown and not yet used (the rules may not let all of them be played).
    left = list(turn.dice) * (2 if turn.dice[0] == turn.dice[1] else 1)
    for s in turn.steps:
        left.remove(s.die)
    return left


def _reachable_ignoring_rest(turn, src, dst, left):
    # Is dst reachable by any chain of these dice, whether or not the rest could follow?
    me = turn._me
    opp = turn._opp
    for i in range(len(left)):
        die = left[i]
        to = landing(me, opp, src, die)
        if to < 0:
            continue
        if to == dst:
            return True
        if to == 0:
            continue
        hit = apply(me, opp, src, to)
        rest = left[:i] + left[i + 1:]
        found = _reachable_ignoring_rest(turn, to, dst, rest)
        retract(me, opp, src, to, hit)
        if found:
            return True
    return False


def _highest(side):
    p = BAR
    while p > 0 and not side[p]:
        p -= 1
    return p
