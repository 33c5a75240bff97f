"""A game's data: the actions it allows now and its gnubg Match ID fields (the host's state),
and snapshots of plain data (ints, strings, lists) that a journal can store and from_dict
rebuilds. Loaded when first asked (bgcore.game)."""

from bgcore.cube import Cube
from bgcore.game import Result
from bgcore.position import Position
from bgcore.rules import Rules
from bgcore.turn import Turn

ACTIONS = ("roll", "pass", "rethrow", "move", "undo", "double", "take", "drop", "beaver",
           "raccoon", "resign", "accept_resignation", "reject_resignation", "demand")
_ANSWERS = ("accept_resignation", "reject_resignation", "demand")


def allowed(game):
    """Names of the actions allowed now (bgcore.game.Game.allowed). A condition each of the
    seldom ones needs is looked at first: a host's state would otherwise load their rules
    (bgcore.rare, beavers, resign) in every game."""
    out = []
    for a in ACTIONS:
        if a == "pass" and not game.rules.shut_out_pass or \
                a == "rethrow" and not game.rethrow_open or \
                a == "beaver" and not (game.money and game.rules.beavers) or \
                a == "raccoon" and game.cube.beaver_by is None or \
                a in _ANSWERS and game.resignation is None:
            continue
        if game.can(a):
            out.append(a)
    return out


def id_fields(game, length=0, score=(0, 0)):
    if game.cube.offered_by is not None:
        on_roll = game.cube.offered_by
    else:
        on_roll = game.on_roll if game.phase != "opening" else 0
    res = game.resignation
    resignation = res[1] if res else 0
    if game.result is not None and game.result.how == "resigned":
        resignation = game.result.level
    return {
        "cube": game.cube.value,
        "cube_owner": game.cube.owner,
        "on_roll": on_roll,
        "crawford": game.crawford,
        "game_state": game.game_state,
        "turn": game.decider if game.phase != "opening" else 0,
        "double_offered": game.cube.offered_by is not None,
        "resignation": resignation,
        "dice": list(game.dice),
        "match_length": length,
        "score": list(score),
        "jacoby": game.jacoby(),
    }


def to_dict(game):
    turn = game.turn
    moves = []
    if turn is not None:
        for route in turn.moves:
            moves.append([route[0].src, route[-1].dst] +
                         [s.dst for s in route[:-1] if s.hit])
    r = game.result
    return {
        "rules": game.rules.to_dict(),
        "flags": [int(game.money), int(game.crawford), _num(game.trailer),
                  int(game.doubling), int(game.rethrow_open)],
        "phase": game.phase,
        "player": game.player,
        "start": game.start.to_id(),
        "dice": list(turn.dice) if turn is not None else [],
        "moves": moves,
        "cube": game.cube.to_list(),
        "rolls": list(game.rolls),
        "needs": list(game.needs) if game.needs else [],
        "automatic": game.automatic,
        "opening": list(game.opening) if game.opening else [],
        "resignation": list(game.resignation) if game.resignation else [],
        "result": [r.winner, r.level, r.points, r.how] if r else [],
    }


def from_dict(cls, data):
    flags = data["flags"]
    game = cls(Rules.from_dict(data["rules"]), flags[0], flags[1],
               None if flags[2] < 0 else flags[2], flags[3])
    game.rethrow_open = bool(flags[4])
    game.phase = data["phase"]
    game.player = data["player"]
    game.start = Position.from_id(data["start"])
    if data["dice"]:
        game.turn = Turn(game.start, data["dice"])
        for m in data["moves"]:
            game.turn.move(m[0], m[1], m[2:])
    game.cube = Cube.from_list(data["cube"])
    game.rolls = list(data["rolls"])
    game.needs = list(data["needs"]) or None
    game.automatic = data["automatic"]
    game.opening = tuple(data["opening"]) if data["opening"] else None
    game.resignation = tuple(data["resignation"]) if data["resignation"] else None
    r = data["result"]
    game.result = Result(r[0], r[1], r[2], r[3]) if r else None
    return game


def _num(player):
    return -1 if player is None else player
