"""Resignations: who may offer one and at what level, who answers it, and the acceptor's
demand of a higher forfeit. Loaded when a resignation is offered or asked about (the board
pays no RAM for it before)."""

from bgcore.cube import BACKGAMMON, SINGLE
from bgcore.errors import RuleError
from bgcore.offers import OVER, PLAYING, player_error

LEVEL_NAMES = ("none", "single", "gammon", "backgammon")


def check_level(level):
    if not isinstance(level, int) or isinstance(level, bool) or not SINGLE <= level <= BACKGAMMON:
        raise RuleError("a resignation offers 1 (single), 2 (gammon) or 3 (backgammon), got %r"
                        % (level,))
    return level


def why_not_resign(game, level=SINGLE, player=None):
    if player_error(player):
        return player_error(player)
    try:
        check_level(level)
    except RuleError as e:
        return str(e)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else \
            "no resignation before the opening throw"
    if game.resignation is not None:
        return "a resignation is already on offer"
    if game.cube.offered_by is not None:
        return "a double is on offer: the answer is take or drop"
    return None


def why_not_accept_resignation(game, player=None):
    """Accept or reject: the resigner's opponent, or after a demand (a resignation of three
    entries) the resigner, who agrees or plays on."""
    if player_error(player):
        return player_error(player)
    res = game.resignation
    if res is None:
        return "no resignation is on offer"
    if len(res) > 2:
        if player is not None and player != res[0]:
            return "player %d demanded a higher forfeit: player %d agrees or plays on" % (
                player, res[0])
    elif player is not None and player == res[0]:
        return "player %d offered to resign: the opponent accepts or rejects" % player
    return None


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
