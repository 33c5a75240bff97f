"""Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_server.py`), where `import gnubg` gives
its evaluation functions: the engine side of bgboard.engine. Not imported by the host.

One JSON object a line on stdin, one answer a line on stdout (gnubg's own messages go to
stderr, so that stdout carries answers only):

    {"op": "play", "position": ID, "dice": [a, b], "ctx": CTX, "level": LEVEL}
        -> {"moves": [[from, to], ...]}   one per die, the mover's numbering (25 bar, 0 off)
    {"op": "cube", "position": ID, "ctx": CTX, "level": LEVEL}
        -> {"double": bool, "take": bool, "beaver": bool, "equities": {...}, "text": words}
    {"op": "evaluate", "position": ID, "ctx": CTX, "level": LEVEL}
        -> {"probabilities": [win, win gammon, win bg, lose gammon, lose bg], "equity": e}
           cubeless, for the mover (gnubg's `evaluate`)
    {"op": "hint", "position": ID, "match_id": MID, "dice": [a, b], "ctx": CTX, "level": LEVEL,
     "count": N}
        -> {"plays": [{"move": "8/5 6/5", "steps": [[8, 5], [6, 5]], "equity": e, "diff": d,
                       "probs": [5 floats], "plies": p}, ...]}
           gnubg's own hint (the `hint` command's list, best first, at most N): the position
           and dice set in gnubg's game by its `set` commands (MID: the gnubg Match ID of the
           score and cube, no dice), the chequer play evaluated as LEVEL says. `steps` are
           gnubg's own reading of its move (a checker's chain of dice as one step unless it
           hits on the way)
    {"op": "ping"} -> {"pong": true}

ID: a gnubg Position ID with the player on roll (for "cube": the one who would double) as
the mover. CTX: {"cube", "owner" (-1 centred, 0, 1), "player" (on roll: 0 or 1), "length"
(0 money), "score" [p0, p1], "crawford", "jacoby", "beavers"}. LEVEL: gnubg's evaluation
context {"plies", "noise", "deterministic", "prune"}.

An answer that fails is {"error": words}; the process goes on.
"""

import json
import os
import sys

import gnubg  # noqa: F401 - gnubg's embedded module: only inside gnubg

# Answers go to the real stdout; whatever gnubg prints (its banner, the output of a
# command) goes to stderr.
sys.stdout.flush()
_out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)

_rules = {"jacoby": None, "beavers": None}
_hint_level = {}
_game = []  # a game in gnubg's own match (for `hint`), started once


def _set_rules(ctx):
    # cubeinfo() takes the Jacoby rule and beavers from gnubg's settings.
    jacoby = bool(ctx.get("jacoby"))
    if _rules["jacoby"] != jacoby:
        gnubg.command("set jacoby %s" % ("on" if jacoby else "off"))
        _rules["jacoby"] = jacoby
    beavers = 3 if ctx.get("beavers") else 0
    if _rules["beavers"] != beavers:
        gnubg.command("set beavers %d" % beavers)
        _rules["beavers"] = beavers


def _context(ctx):
    _set_rules(ctx)
    score = ctx.get("score") or (0, 0)
    return gnubg.cubeinfo(int(ctx.get("cube", 1)), int(ctx.get("owner", -1)),
                          int(ctx.get("player", 0)), int(ctx.get("length", 0)),
                          (int(score[0]), int(score[1])), int(bool(ctx.get("crawford"))), 0)


def _level(level):
    return {"cubeful": 1, "plies": int(level.get("plies", 0)),
            "deterministic": int(level.get("deterministic", 1)),
            "prune": int(level.get("prune", 1)), "noise": float(level.get("noise", 0.0))}


def play(req):
    board = gnubg.positionfromid(req["position"])
    dice = req["dice"]
    found = gnubg.findbestmove(board, _context(req["ctx"]), _level(req["level"]),
                               (int(dice[0]), int(dice[1])))
    moves = []
    for i in range(0, len(found) - 1, 2):
        if found[i] <= 0:
            break  # unused steps are zeros
        moves.append([found[i], found[i + 1]])
    return {"moves": moves}


def cube(req):
    board = gnubg.positionfromid(req["position"])
    ci = _context(req["ctx"])
    optimal, nodouble, take, drop, code, text = gnubg.cfevaluate(board, ci,
                                                                 _level(req["level"]))
    # From the doubler's side, for a cube of 1: "take" is the equity if the opponent takes,
    # "drop" if it drops. Doubling pays when both beat playing on; the opponent takes when
    # taking leaves the doubler less than a drop would.
    money = not req["ctx"].get("length")
    return {"double": min(take, drop) > nodouble, "take": take <= drop,
            "beaver": bool(money and req["ctx"].get("beavers") and take < 0.0),
            "equities": {"optimal": optimal, "no_double": nodouble, "take": take,
                         "drop": drop},
            "text": text}


def evaluate(req):
    board = gnubg.positionfromid(req["position"])
    out = gnubg.evaluate(board, _context(req["ctx"]), _level(req["level"]))
    return {"probabilities": list(out[:5]), "equity": out[5]}


def _set_hint_level(level):
    # `hint` evaluates with gnubg's "evaluation" settings for chequer play.
    want = _level(level)
    for key, value in sorted(want.items()):
        if _hint_level.get(key) != value:
            if key == "noise":
                word = "%.6f" % value
            else:
                word = "%d" % value if key == "plies" else ("on" if value else "off")
            gnubg.command("set evaluation chequerplay evaluation %s %s" % (key, word))
            _hint_level[key] = value


def hint(req):
    ctx = req["ctx"]
    _set_rules(ctx)
    _set_hint_level(req["level"])
    if not _game:
        for player in (0, 1):  # nobody plays by itself in this gnubg
            gnubg.command("set player %d human" % player)
        gnubg.command("new match 1")
        _game.append(True)
    player = int(ctx.get("player", 0))
    dice = req["dice"]
    gnubg.command("set matchid %s" % req["match_id"])
    gnubg.command("set turn %d" % player)  # also forgets the last hint (gnubg keeps one)
    gnubg.command("set board %s" % req["position"])
    gnubg.command("set dice %d %d" % (int(dice[0]), int(dice[1])))
    if gnubg.positionid() != req["position"]:
        raise ValueError("gnubg did not take the position %s (it has %s)"
                         % (req["position"], gnubg.positionid()))
    found = gnubg.hint(int(req.get("count", 5)))
    plays = []
    for e in found.get("hint", []):
        plays.append({"move": e["move"], "steps": [list(s) for s in gnubg.parsemove(e["move"])],
                      "equity": e["equity"], "diff": e["eqdiff"],
                      "probs": list(e["details"]["probs"]),
                      "plies": e["context"]["plies"]})
    return {"plays": plays}


OPS = {"play": play, "hint": hint, "cube": cube, "evaluate": evaluate,
       "ping": lambda req: {"pong": True}}


def main():
    _out.write(json.dumps({"ready": "bgboard-gnubg"}) + "\n")
    _out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            answer = OPS[req["op"]](req)
        except Exception as e:  # noqa: B902 - answered; the next request goes on
            answer = {"error": "%s: %s" % (type(e).__name__, e)}
        _out.write(json.dumps(answer) + "\n")
        _out.flush()


main()
