"""When a game allows a double, and why not: the cube's timing (whose turn, before the roll),
Crawford, Holland, the dead cube. Each function returns the reason an offer or answer is
refused, naming the rule, or None. Beavers and raccoons are bgcore.beavers', resignations
bgcore.resign's (loaded when used)."""

OPENING = "opening"
PLAYING = "playing"
OVER = "over"


def player_error(player):
    """Why `player` names no player, or None: they are 0 and 1 (None: whoever the rule
    means; True and 1.0 are no player numbers)."""
    if player is None or (isinstance(player, int) and not isinstance(player, bool)
                          and player in (0, 1)):
        return None
    return "players are 0 and 1, got %r" % (player,)


def timing_error(game, player=None):
    """Why `player` (None: the player on roll) may not offer a double now, as far as
    timing goes (whose turn, before the roll, nothing else on offer), or None."""
    if player_error(player):
        return player_error(player)
    if game.phase == OPENING:
        return "no double before the opening throw: the opening roll is played as thrown"
    if game.phase == OVER:
        return "the game is over"
    if game.resignation is not None:
        return "a resignation is on offer: accept or reject it first"
    if game.cube.offered_by is not None:
        return "a double is already offered: it must be taken or dropped first"
    if game.turn is not None and not game.turn.can_end():
        return "a double may be offered only before rolling (player %d has rolled)" % (
            game.player)
    if player is not None and player != game.on_roll:
        return "only the player on roll may double, before rolling: player %d is on roll" % (
            game.on_roll)
    return None


def why_not_double(game, player=None):
    reason = timing_error(game, player)
    if reason:
        return reason
    if not game.doubling:
        return "the cube is not in play in this game"
    if game.crawford:
        return "Crawford rule: no doubling in the Crawford game"
    doubler = game.on_roll
    if doubler == game.trailer and (game.rolls[0] < 2 or game.rolls[1] < 2):
        return "Holland rule: after the Crawford game the trailer may double only after " \
               "both sides have played two rolls"
    needs = game.needs
    v = game.cube.value
    if needs and game.rules.dead_cube and v >= needs[doubler]:
        # The texts set no limit: by default a dead cube may be turned, up to the one cap
        # on every cube (bgcore.rules.MAX_CUBE).
        return "dead cube: a win on the cube's present %d gives player %d the match (rule " \
               "option dead_cube)" % (v, doubler)
    return game.cube.why_not_double(doubler, game.rules)


def why_not_take(game, player=None):
    if player_error(player):
        return player_error(player)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else "no double has been offered"
    return game.cube.why_not_answer(player)
