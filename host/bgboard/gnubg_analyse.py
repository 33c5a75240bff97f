"""Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_analyse.py`): gnubg analyses one match
file with its own settings and says what it found through its Python API (`import gnubg`).
The host side is bgboard.analysis; this file is not imported by the host.

Stdin: one JSON line {"file": PATH, "kind": "mat" or "sgf"}. Stdout: JSON lines
    {"ready": "bgboard-analyse"}
    {"imported": {"games": N, "plays": [plays per game], "rolls": [rolls per game],
                  "words": gnubg's import messages}}
    {"progress": {"game": i, "games": N, "plays": plays in game i}}   before game i (1-based)
    {"done": {"info": ..., "stats": ..., "games": [...]}}   gnubg.match(analysis=1,
        statistics=1), each record cut to what the host uses: the action, player, dice,
        board (its Position ID before the play, from the mover's side), the move made,
        gnubg's best move and both equities (normalised, as its statistics count them),
        the skill label
    or {"error": words, "bad_file": true/false} (bad_file: gnubg could not read the file).

Why game by game (`analyse game` after `first game` / `next game`) rather than `analyse
match`: the same analysis (its statistics are summed over the games' records either way),
but the host can say how far it is. gnubg's own output (its boards, its banner) goes to
stderr; what it says while importing is caught in a file and handed back as `words`.
"""

import json
import os
import sys
import tempfile

import gnubg  # noqa: F401 - gnubg's embedded module: only inside gnubg

sys.stdout.flush()
_out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)


def say(obj):
    _out.write(json.dumps(obj) + "\n")
    _out.flush()


def caught(command):
    """Run a gnubg command, returning what it printed (stdout and stderr)."""
    fd, path = tempfile.mkstemp(prefix="gnubg-said-")
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(fd, 2)
    os.dup2(fd, 1)
    try:
        gnubg.command(command)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.dup2(saved, 1)
        os.close(saved)
        os.close(fd)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    os.unlink(path)
    return text


def _move(m):
    return [list(step) for step in (m or ())]


class NotAPlay(Exception):
    """gnubg took a play that is none of the roll's legal plays (a file cut in the middle of
    its last play: `53: 24/21`); its analysis has no entry for it."""


def cut(record):
    a = record.get("analysis") or {}
    out = {"action": record.get("action"), "player": record.get("player")}
    for key in ("dice", "board"):
        if key in record:
            out[key] = record[key]
    if "move" in record:
        out["move"] = _move(record["move"])
    moves = a.get("moves")
    if moves and "imove" in a:
        if not 0 <= a["imove"] < len(moves):
            raise NotAPlay(out)
        best, made = moves[0], moves[a["imove"]]
        out["best"] = _move(best.get("move"))
        out["best_score"] = best.get("score")
        out["score"] = made.get("score")
        out["choices"] = len(moves)
    if "skill" in a:
        out["skill"] = a["skill"]
    if "luck-value" in a:
        out["luck"] = a["luck-value"]
    return out


def plays(game):
    """Checker plays: rolls on which a checker moved (as the board's journal and the
    autoplay count them), not the rolls with no legal play nor the cube's actions."""
    return sum(1 for r in game["game"] if r.get("action") == "move"
               and any(step and step[0] >= 0 for step in r.get("move") or ()))


def rolls(game):
    return sum(1 for r in game["game"] if r.get("action") == "move")


def main():
    say({"ready": "bgboard-analyse"})
    req = json.loads(sys.stdin.readline())
    gnubg.command("set display off")
    path = req["file"]
    if req["kind"] == "sgf":
        words = caught("load match %s" % path)
    else:
        words = caught("import mat %s" % path)
    match = gnubg.match(analysis=0, statistics=0)
    words = [w.strip() for w in words.splitlines() if w.strip()
             and not w.startswith("Will not display")]
    if match is None or not match.get("games"):
        say({"error": words[-1] if words else "gnubg found no game in it", "bad_file": True})
        return
    games = match["games"]
    say({"imported": {"games": len(games), "plays": [plays(g) for g in games],
                      "rolls": [rolls(g) for g in games], "words": words}})
    gnubg.command("first game")
    for i, game in enumerate(games):
        say({"progress": {"game": i + 1, "games": len(games), "plays": plays(game)}})
        gnubg.command("analyse game")
        if i + 1 < len(games):
            gnubg.command("next game")
    match = gnubg.match(analysis=1, statistics=1, boards=1)
    done = []
    for i, g in enumerate(match["games"]):
        records = []
        for r in g["game"]:
            try:
                records.append(cut(r))
            except NotAPlay as e:
                say({"error": "not a whole legal play", "bad_file": True, "game": i + 1,
                     "roll": 1 + sum(1 for c in records if c["action"] == "move"),
                     "play": e.args[0]})
                return
        done.append({"info": g["info"], "records": records})
    say({"done": {"info": match["match-info"], "stats": match["stats"], "games": done}})


try:
    main()
except Exception as e:  # noqa: B902 - said to the host, which ends us
    say({"error": "%s: %s" % (type(e).__name__, e), "bad_file": False})
