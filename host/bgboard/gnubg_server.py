"""Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_server.py`), where `import gnubg` gives
its evaluation functions: the engine side of bgboard.engine. Not imported by the host.

One JSON object a line on stdin, one answer a line on stdout (gnubg's own messages go to
stderr, so that stdout carries answers only):

    {"op": "play", "position": ID, "dice": [a, b], "ctx": CTX, "level": LEVEL}
        -> {"moves": [[from, to], ...]}   one per die, the mover's numbering (25 bar, 0 off)
    {"op": "cube", "position": ID, "ctx": CTX, "level": LEVEL}
        -> {"double": bool, "take": bool, "beaver": bool, "equities": {...}, "text": words,
            "code": n}
           gnubg's cube decision (`cfevaluate`): n is its cubedecision (eval.h), text its
           words for it ("No double, beaver")
    {"op": "resign", "position": ID, "ctx": CTX}
        -> {"level": 0..3, "class": c, "probabilities": [5 floats]}
           whether the mover should resign, and what (1 single, 2 gammon, 3 backgammon; 0
           play on): gnubg's own rule for its computer player (below, `resign`)
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
import struct
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
    # gnubg's settings, for its own game (`hint`); the cube information the evaluations
    # take has the rules set in it too (_context).
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
    ci = gnubg.cubeinfo(int(ctx.get("cube", 1)), int(ctx.get("owner", -1)),
                        int(ctx.get("player", 0)), int(ctx.get("length", 0)),
                        (int(score[0]), int(score[1])), int(bool(ctx.get("crawford"))), 0)
    # gnubg 1.07's cubeinfo() takes its beavers from the match state's count of beavers
    # turned so far (python.c: `int fBeavers = ms.cBeavers`), not from `set beavers`: 0 in
    # this process, so that cfevaluate would never answer a beaver. The rules are set in the
    # dict (gnubg reads it back with its gammon prices computed again).
    money = not ctx.get("length")
    ci["beavers"] = 1 if money and ctx.get("beavers") else 0
    ci["jacoby"] = 1 if money and ctx.get("jacoby") else 0
    return ci


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


# gnubg's cube decisions (eval.h's enum cubedecision, the `code` cfevaluate returns) after
# which its own computer player beavers a double offered to it (play.c, ComputerTurn: "Beaver
# all night!"): DOUBLE_BEAVER, NODOUBLE_BEAVER, NO_REDOUBLE_BEAVER, OPTIONAL_DOUBLE_BEAVER.
# eval.c's FindBestCubeDecision answers them in money play with beavers on when the doubler's
# equity after a take (normalised to the cube) is between -2 and 0.
BEAVER_CODES = (5, 6, 12, 18)


def cube(req):
    board = gnubg.positionfromid(req["position"])
    ci = _context(req["ctx"])
    optimal, nodouble, take, drop, code, text = gnubg.cfevaluate(board, ci,
                                                                 _level(req["level"]))
    # From the doubler's side, for a cube of 1: "take" is the equity if the opponent takes,
    # "drop" if it drops. Doubling pays when both beat playing on; the opponent takes when
    # taking leaves the doubler less than a drop would.
    return {"double": min(take, drop) > nodouble, "take": take <= drop,
            "beaver": code in BEAVER_CODES,
            "equities": {"optimal": optimal, "no_double": nodouble, "take": take,
                         "drop": drop},
            "text": text, "code": code}


# eval.h's positionclass: CLASS_RACE and the classes below it (bearoff databases,
# hypergammon, over) are the positions gnubg's computer player considers resigning in.
CLASS_RACE = 8
# gnubg's evaluation for that decision (play.c, ComputerTurn: "no point wasting time over
# the decision, so only evaluate at 0 plies"): cubeless, 0-ply, deterministic.
RESIGN_LEVEL = {"cubeful": 0, "plies": 0, "deterministic": 1, "prune": 0, "noise": 0.0}


def _f(x):
    # gnubg computes in C floats: round each step as it does, so that its equalities hold
    # here as there.
    return struct.unpack("f", struct.pack("f", x))[0]


def _utility(p, ci):
    # eval.c's Utility: cubeless equity (money) or its match-play counterpart, for the mover.
    win, wg, wbg, lg, lbg = (_f(x) for x in p)
    (g0, g1), (b0, b1) = ci["gammonprice"]
    if not ci["matchto"]:
        return _f(_f(_f(_f(win * 2.0) - 1.0) + _f(_f(wg - lg) * g0)) + _f(_f(wbg - lbg) * b0))
    gp = (g0, g1, b0, b1)
    me = 1 if ci["move"] else 0
    u = _f(_f(win * 2.0) - 1.0)
    u = _f(u + _f(wg * gp[me]))
    u = _f(u - _f(lg * gp[1 - me]))
    u = _f(u + _f(wbg * gp[2 + me]))
    return _f(u - _f(lbg * gp[2 + 1 - me]))


def resign(req):
    """gnubg's own resignation rule (play.c's ComputerTurn, before it doubles or moves): in
    a race or a bear-off (ClassifyPosition <= CLASS_RACE) it asks getResignation (eval.c)
    with a 0-ply cubeless evaluation. That resigns at the lowest level whose loss is worth
    exactly what playing on is worth (Utility equal: the evaluation says nothing better
    can happen), a backgammon only while one is possible, and a single instead of a
    gammon or backgammon where the Jacoby rule makes them count single (money, cube
    centred)."""
    board = gnubg.positionfromid(req["position"])
    ci = _context(req["ctx"])
    kind = gnubg.classifypos(board)
    if kind > CLASS_RACE:
        return {"level": 0, "class": kind, "probabilities": None}
    out = gnubg.evaluate(board, ci, RESIGN_LEVEL)
    p = list(out[:5])
    play = _utility(p, ci)
    single = bool(not ci["matchto"] and ci["jacoby"] and ci["cubeowner"] == -1)
    level = 0
    if p[4] > 0.0 and _utility([0.0, 0.0, 0.0, 1.0, 1.0], ci) == play:
        level = 1 if single else 3
    elif p[3] > 0.0 and _utility([0.0, 0.0, 0.0, 1.0, 0.0], ci) == play:
        level = 1 if single else 2
    elif _utility([0.0, 0.0, 0.0, 0.0, 0.0], ci) == play:
        level = 1
    return {"level": level, "class": kind, "probabilities": p}


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


OPS = {"play": play, "hint": hint, "cube": cube, "resign": resign, "evaluate": evaluate,
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
