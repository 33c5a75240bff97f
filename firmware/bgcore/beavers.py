"""Beavers and raccoons (money play's rule options): the taker of a double redoubles at once
and keeps the cube, the doubler may answer with a raccoon. Loaded when one is made or asked
about (the board pays no RAM for them before)."""

from bgcore.cube import cap_reason
from bgcore.offers import OVER, PLAYING, player_error


def why_not_beaver(game, player=None):
    """A beaver instead of a take, or at once after it ("After accepting a double, he may
    immediately turn the cube"): until the doubler's next throw."""
    if player_error(player):
        return player_error(player)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else "no double has been offered"
    cube = game.cube
    rules = game.rules
    taken = cube.taken_by
    if taken is None or cube.offered_by is not None:
        reason = cube.why_not_answer(player)
        if reason:
            return reason
    elif player is not None and player != taken:
        return "player %d took the double: only the taker may beaver" % taken
    if not game.money:
        return "beavers are not used in match play"
    if not rules.beavers:
        return "beavers are not allowed (rule option beavers is off)"
    if not rules.cap_allows(cube.value * (4 if cube.offered_by is not None else 2)):
        return cap_reason(rules, "a beaver")
    return None


def beaver(cube, raccoons):
    """The taker redoubles at once and keeps the cube (bgcore.cube.Cube); with raccoons, the
    doubler may answer with a raccoon until the next roll."""
    if cube.offered_by is not None:
        cube.take()
    taker = cube.owner
    cube.value *= 2
    cube.taken_by = None
    cube.beaver_by = taker if raccoons else None


def why_not_raccoon(game, player=None):
    if player_error(player):
        return player_error(player)
    if game.phase != PLAYING:
        return "the game is over" if game.phase == OVER else "no beaver to answer"
    if not game.money:
        return "raccoons are not used in match play"
    cube = game.cube
    rules = game.rules
    if not rules.raccoons:
        return "raccoons are not allowed (rule option raccoons is off)"
    if cube.beaver_by is None:
        return "a raccoon answers a beaver at once: there is no beaver to answer"
    if player is not None and player == cube.beaver_by:
        return "player %d beavered: only the doubler may raccoon" % player
    if not rules.cap_allows(cube.value * 2):
        return cap_reason(rules, "a raccoon")
    return None


def raccoon(cube):
    """The doubler redoubles the beaver at once; the cube stays with the beaverer."""
    cube.value *= 2
    cube.beaver_by = None
