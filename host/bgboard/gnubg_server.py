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


OPS = {"play": play, "cube": cube, "evaluate": evaluate, "ping": lambda req: {"pong": True}}


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
