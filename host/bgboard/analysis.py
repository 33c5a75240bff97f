"""A match analysed by GNU Backgammon, written beside it as NAME.analysis.json and a
self-contained NAME.analysis.html.

    summary, json_path, html_path = analyse_file("games/match-1-000001.mat",
                                                 on_progress=print)

gnubg does the analysis with its own settings (world class: 2-ply, cubeful), in a gnubg
process of its own (`gnubg -t -q -p bgboard/gnubg_analyse.py`), never in the engine's: an
analysis takes seconds to minutes and gnubg answers nothing else meanwhile, while the board
may go on playing against the engine's process. The figures are gnubg's own: its
statistics (`gnubg.match(analysis=1, statistics=1)`, what `show statistics match` prints)
and each play's analysis; this module only divides them as gnubg's statistics page does:

- error rate (mEMG): the equity lost (normalised, EMG) per unforced move for checker play,
  per close or actual cube decision for the cube, per both together overall; x 1000;
- luck rate (mEMG): luck (EMG) per move (every roll counts);
- ratings: gnubg's labels for those rates (analysis.c's GetRating and getLuckRating);
- the worst checker plays of each player, each with the position before it (gnubg's
  Position ID from the mover's side) drawn by bgboard.view.drawing (as `bgboard render`).

A file gnubg cannot read (or reads only part of: an illegal or garbled play, after which it
drops the rest of the game without a word) raises BadMatchFile; gnubg dying or failing on the
way raises AnalysisError.
"""

import html
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time

from bgboard.engine import EngineError, find_gnubg, spawn_gnubg, stop_gnubg
from bgboard.matfile import LEFT_WIDTH

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gnubg_analyse.py")
WORST = 5  # worst checker plays listed per player
START_S = 30.0
GAME_S = 1800.0  # a long game at 2-ply takes tens of seconds on a busy machine

# gnubg 1.07's analysis.c: GetRating's thresholds on an error rate per move (EMG) and names.
RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"),
           (0.012, "Advanced"), (0.018, "Intermediate"), (0.026, "Casual player"),
           (0.035, "Beginner"))
AWFUL = "Awful!"
# getLuckRating(rate) = Luck(rate * 10) with arLuckLevel 0.3 and 0.6.
LUCK = ((0.06, "Go to Las Vegas"), (0.03, "Good dice, man!"))
UNLUCK = ((-0.06, "Go to bed"), (-0.03, "Bad dice, man!"))
CUBE_ERRORS = ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
               "wrong-double-above-tg", "wrong-take", "wrong-drop")


class AnalysisError(Exception):
    """gnubg failed during the analysis (died, or answered nonsense)."""


class BadMatchFile(AnalysisError):
    """The file is not a match gnubg reads whole (damaged, or not a match file at all)."""


def rating(rate):
    """gnubg's rating label for an error rate per move (EMG, positive: equity lost)."""
    for threshold, name in RATINGS:
        if rate < threshold:
            return name
    return AWFUL


def luck_rating(rate):
    for threshold, name in LUCK:
        if rate > threshold:
            return name
    for threshold, name in UNLUCK:
        if rate < threshold:
            return name
    return "None"


# --- the file, as written ---------------------------------------------------------------------


def kind_of(path):
    """"mat" or "sgf" from the file's name; BadMatchFile for another."""
    ext = os.path.splitext(path)[1].lower()
    if ext in (".mat", ".sgf"):
        return ext[1:]
    raise BadMatchFile("%s: not a .mat or .sgf file" % path)


_MAT_GAME = re.compile(r"^\s*Game\s+\d+\s*$", re.M)
_MAT_ROLL = re.compile(r"(?<![\d/])[1-6][1-6]:")
_SGF_ROLL = re.compile(r";\s*[BW]\[[1-6][1-6]")
LEFT_END = 5 + LEFT_WIDTH  # a .mat line's right column starts after this


def rolls_in_file(text, kind):
    """The number of rolls written in each game of a .mat or .sgf text: what gnubg must
    read as plays (a roll with no legal play included)."""
    if kind == "sgf":
        parts = text.split("(;")[1:]
        return [len(_SGF_ROLL.findall(p)) for p in parts]
    parts = _MAT_GAME.split(text)[1:]
    counts = []
    for part in parts:
        rolls = []  # (played, where, column) of each roll in the game
        body = "\n".join(ln for ln in part.splitlines() if re.match(r"^\s*\d+\)", ln))
        for m in _MAT_ROLL.finditer(body):
            column = m.start() - body.rfind("\n", 0, m.start()) - 1 > LEFT_END
            rolls.append((bool(re.match(r" *\d+/", body[m.end():])), m.end(), column))
        n = len(rolls)
        # A roll its player resigned after without playing is the game's last action, with
        # no play, and the other player wins: gnubg keeps no play for it.
        wins = part.find("Wins")
        right_wins = wins - part.rfind("\n", 0, wins) - 1 > LEFT_END
        if rolls and wins >= 0 and not rolls[-1][0] and not re.search(
                r"Doubles|Takes|Drops|Beavers|Raccoons", body[rolls[-1][1]:]) \
                and right_wins != rolls[-1][2]:
            n -= 1
        counts.append(n)
    return counts


# --- gnubg ----------------------------------------------------------------------------------


class _Process:
    def __init__(self, program):
        self.home = tempfile.mkdtemp(prefix="bgboard-analyse-")
        self.err = open(os.path.join(self.home, "stderr.txt"), "wb")
        try:
            self.proc = spawn_gnubg(program, SCRIPT, self.home, self.err)
        except OSError as e:
            self.close()
            raise EngineError("cannot start gnubg (%s): %s" % (program, e)) from None
        self.buf = b""

    def send(self, obj):
        try:
            self.proc.stdin.write((json.dumps(obj) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass  # it died: the next read says so

    def read(self, timeout):
        """The next JSON line, or None (it ended, or said nothing in time)."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.startswith(b"{"):
                    try:
                        return json.loads(line)
                    except ValueError:
                        pass
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return None
            self.buf += chunk

    def why(self):
        """How it ended, in words."""
        try:
            code = self.proc.wait(2)
        except subprocess.TimeoutExpired:
            return "it stopped answering"
        if code < 0:
            return "killed by signal %d" % -code
        return "it exited with status %d" % code

    def close(self):
        proc = getattr(self, "proc", None)
        if proc is not None:
            stop_gnubg(proc)
        self.err.close()
        shutil.rmtree(self.home, ignore_errors=True)


def run_gnubg(path, on_progress=None, program=None, on_start=None):
    """gnubg's analysis of the match in `path` (its records cut as gnubg_analyse.py says).
    on_progress(game, games, plays) before each game; on_start(pid) once gnubg runs."""
    kind = kind_of(path)
    try:
        with open(path, encoding="utf-8", errors="strict") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise BadMatchFile("%s: not a match file (not text)" % path) from None
    except OSError as e:
        raise BadMatchFile("%s: %s" % (path, e.strerror or e)) from None
    written = rolls_in_file(text, kind)
    if not written:
        raise BadMatchFile("%s: no game in it (not a .%s match file)" % (path, kind))
    program = program or find_gnubg()
    p = _Process(program)
    try:
        if on_start is not None:
            on_start(p.proc.pid)
        ready = p.read(START_S)
        if ready is None or "ready" not in ready:
            raise AnalysisError("gnubg did not start its analysis script (%s)" % p.why())
        p.send({"file": os.path.abspath(path), "kind": kind})
        while True:
            msg = p.read(GAME_S)
            if msg is None:
                raise AnalysisError("gnubg died during the analysis of %s (%s)"
                                    % (path, p.why()))
            if "error" in msg:
                if msg.get("bad_file") and "game" in msg:
                    raise BadMatchFile(_not_a_play(path, msg))
                if msg.get("bad_file"):
                    raise BadMatchFile("%s: gnubg cannot read it: %s" % (path, msg["error"]))
                raise AnalysisError("gnubg failed on %s: %s" % (path, msg["error"]))
            if "imported" in msg:
                _check_read(path, written, msg["imported"])
            elif "progress" in msg:
                if on_progress is not None:
                    pr = msg["progress"]
                    on_progress(pr["game"], pr["games"], pr["plays"])
            elif "done" in msg:
                done = msg["done"]
                got = [sum(1 for r in g["records"] if r.get("action") == "move")
                       for g in done["games"]]
                if got != written:
                    raise BadMatchFile(_partly(path, written, got))
                return done
    finally:
        p.close()


def _check_read(path, written, imported):
    # gnubg reads a match file up to a play it cannot make or parse and drops the rest of
    # that game without an error: the rolls it read must be the rolls written.
    if len(imported["rolls"]) != len(written):
        raise BadMatchFile("%s: damaged: it holds %d game(s), gnubg read %d"
                           % (path, len(written), len(imported["rolls"])))
    if imported["rolls"] != written:
        raise BadMatchFile(_partly(path, written, imported["rolls"]))


def _not_a_play(path, msg):
    # A file cut in the middle of a play (`53: 24/21`): gnubg takes the part as the play,
    # which is none of the roll's; what came before it is what it read.
    game, roll = msg["game"], msg["roll"]
    play = msg.get("play") or {}
    dice = "".join(str(d) for d in play.get("dice") or ())
    return ("%s: damaged (cut short?): roll %d of game %d (%s%s) is not a whole legal play; "
            "gnubg read %d whole game(s) and %d roll(s) of game %d before it"
            % (path, roll, game, dice or "?",
               ": %s" % _step_words(play.get("move")) if play.get("move") else "",
               game - 1, roll - 1, game))


def _step_words(move):
    # gnubg's (from, to) steps, numbered as the .mat writes them (25 the bar, 0 off)
    return " ".join("%d/%d" % (a, b) for a, b in move)


def _partly(path, written, got):
    for i, (w, g) in enumerate(zip(written, got)):
        if w != g:
            return ("%s: damaged: gnubg read %d of the %d rolls of game %d (a play it cannot "
                    "make or read ends the game there)" % (path, g, w, i + 1))
    return "%s: damaged" % path


# --- the summary ----------------------------------------------------------------------------


def _ratio(a, b):
    return a / b if b else 0.0


def player_stats(stats, name):
    """One player's figures from gnubg's statistics (its `stats` dict for X or O)."""
    moves, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    unforced = moves["unforced-moves"]
    total_moves = moves["total-moves"]
    checker = moves["error-skill"]
    # gnubg's Python gives the cube's "error-skill" per decision: the total is its parts'.
    cube_total = sum(cube["err-%s-skill" % k] for k in CUBE_ERRORS)
    close = cube["close-cube"]
    marked = moves["marked"]
    luck = dice["luck"]
    return {
        "name": name,
        "moves": total_moves,
        "unforced_moves": unforced,
        "checker": {"error_total": round(checker, 6),
                    "error_rate_memg": round(1000 * _ratio(checker, unforced), 3),
                    "doubtful": marked.get("doubtful", 0), "bad": marked.get("bad", 0),
                    "very_bad": marked.get("very bad", 0),
                    "rating": rating(_ratio(checker, unforced)) if unforced else "n/a"},
        "cube": {"decisions": cube["total-cube"], "close": close,
                 "doubles": cube["n-doubles"], "takes": cube["n-takes"],
                 "drops": cube["n-drops"],
                 "errors": sum(cube[k] for k in CUBE_ERRORS),
                 "error_total": round(cube_total, 6),
                 "error_rate_memg": round(1000 * _ratio(cube_total, close), 3),
                 "rating": rating(_ratio(cube_total, close)) if close else "n/a"},
        "overall": {"error_total": round(checker + cube_total, 6),
                    "error_rate_memg": round(1000 * _ratio(checker + cube_total,
                                                           unforced + close), 3),
                    "rating": (rating(_ratio(checker + cube_total, unforced + close))
                               if unforced + close else "n/a")},
        "luck": {"total": round(luck, 6),
                 "rate_memg": round(1000 * _ratio(luck, total_moves), 3),
                 "rating": luck_rating(_ratio(luck, total_moves)) if total_moves else "n/a"},
    }


def _play_words(board, dice, move):
    # Our .mat notation for gnubg's (from, to) steps, checked by bgcore.
    from bgcore import notation

    if not move:
        return "(no play)"
    steps = _turn_steps(board, dice, move)
    if steps is None:
        return " ".join("%d/%d" % (int(a), int(b)) for a, b in move)
    return notation(steps)


def _steps(board, dice, move):
    """gnubg's (from, to) checker steps of a play, in the mover's numbering (25 the bar, 0
    off), as bgcore makes them (the same play from a .mat and an .sgf pairs its dice the
    same way); none for a roll with no play."""
    if not move:
        return []
    steps = _turn_steps(board, dice, move)
    if steps is None:
        return [[int(a), int(b)] for a, b in move if int(a) >= 1]
    return [[s.src, s.dst] for s in steps]


def _turn_steps(board, dice, move):
    # bgcore's steps of gnubg's play, or None. gnubg keeps the order the file wrote the
    # steps in: the same play reads the same whichever file it came from (the farthest
    # checker first, as gnubg writes a play).
    from bgboard.engine import turn_of
    from bgcore import Position

    steps = [(int(a), int(b)) for a, b in move if int(a) >= 1]
    for order in (sorted(steps, key=lambda s: (-s[0], -s[1])), steps):
        try:
            return turn_of(Position.from_id(board), tuple(dice), order).steps
        except ValueError:
            continue
    return None


def plays_of(done, names):
    """Every analysed checker play: dicts with game, move (the .mat's line number), player
    (0 left column, 1 right), dice, play, best, lost, skill, position_id, and the cube and
    score before it (for the picture)."""
    out = []
    length = done["info"].get("match-length", 0)
    for gi, game in enumerate(done["games"]):
        info = game["info"]
        score = [info.get("score-X", 0), info.get("score-O", 0)]
        slots = [r for r in game["records"] if r.get("action") in ("move", "double", "take",
                                                                 "drop")]
        offset = 1 if slots and slots[0].get("player") == "O" else 0
        cube, owner = 1, None
        for i, r in enumerate(slots):
            who = 0 if r.get("player") == "X" else 1
            if r["action"] == "take":
                cube, owner = cube * 2, who
            if r["action"] != "move" or "best_score" not in r:
                continue
            lost = r["best_score"] - r["score"]
            out.append({"game": gi + 1, "move": (i + offset) // 2 + 1, "player": who,
                        "name": names[who], "dice": list(r.get("dice", ())),
                        "play": _play_words(r["board"], r["dice"], r.get("move")),
                        "best": _play_words(r["board"], r["dice"], r.get("best")),
                        "play_steps": _steps(r["board"], r["dice"], r.get("move")),
                        "best_steps": _steps(r["board"], r["dice"], r.get("best")),
                        "lost": round(lost, 6), "skill": r.get("skill", ""),
                        "position_id": r["board"], "cube": cube, "cube_owner": owner,
                        "score": list(score), "length": length})
    return out


def summarise(done, source, worst=WORST):
    """The analysis as a JSON-ready dict (what NAME.analysis.json holds)."""
    info = done["info"]
    names = (info["X"]["name"], info["O"]["name"])
    plays = plays_of(done, names)
    players = []
    for who, key in enumerate(("X", "O")):
        p = player_stats(done["stats"][key], names[who])
        mine = [x for x in plays if x["player"] == who and x["lost"] > 0]
        mine.sort(key=lambda x: (-x["lost"], x["game"], x["move"]))
        p["worst"] = [dict(x, lost=round(x["lost"], 4)) for x in mine[:worst]]
        players.append(p)
    return {"source": os.path.basename(source),
            "match_length": info.get("match-length", 0),
            "games": len(done["games"]),
            "result": [g["info"].get("winner") and
                       {"winner": 0 if g["info"]["winner"] == "X" else 1,
                        "points": g["info"].get("points-won")} for g in done["games"]],
            "analysed_by": "GNU Backgammon: `analyse game` with its default analysis "
                           "settings (cubeful); figures from gnubg.match(statistics=1)",
            "units": "EMG: equity lost (normalised, in points per game of cube 1); "
                     "mEMG: thousandths of it per move (checker: per unforced move; cube: "
                     "per close or actual decision; luck: per move)",
            "players": players}


# --- the page -------------------------------------------------------------------------------


def _picture(w, names):
    from bgboard.view.drawing import board_svg, scene_from_ids

    who = w["player"]
    scene = scene_from_ids(w["position_id"], view_of=who, names=names, on_roll=who,
                           dice=tuple(w["dice"]), cube=w["cube"], cube_owner=w["cube_owner"],
                           score=w["score"], length=w["length"] or None,
                           status="%s to play %d-%d" % (names[who], w["dice"][0], w["dice"][1]),
                           arrows=[("made", who, a, b) for a, b in w.get("play_steps", ())] +
                           [("best", who, a, b) for a, b in w.get("best_steps", ())])
    svg = board_svg(scene)
    return svg.replace('class="bgboard"', 'class="bgboard position" data-position-id="%s"'
                       % html.escape(w["position_id"]), 1)


ROWS = (("Checker play", None),
        ("Moves (unforced)", lambda p: "%d (%d)" % (p["moves"], p["unforced_moves"])),
        ("Error rate (mEMG)", lambda p: "%.1f" % p["checker"]["error_rate_memg"]),
        ("Equity lost (EMG)", lambda p: "%.3f" % p["checker"]["error_total"]),
        ("Doubtful / bad / very bad", lambda p: "%d / %d / %d" % (
            p["checker"]["doubtful"], p["checker"]["bad"], p["checker"]["very_bad"])),
        ("Checker play rating", lambda p: p["checker"]["rating"]),
        ("Cube", None),
        ("Decisions (close or actual)", lambda p: "%d (%d)" % (p["cube"]["decisions"],
                                                               p["cube"]["close"])),
        ("Doubles / takes / drops", lambda p: "%d / %d / %d" % (
            p["cube"]["doubles"], p["cube"]["takes"], p["cube"]["drops"])),
        ("Cube errors", lambda p: "%d" % p["cube"]["errors"]),
        ("Error rate (mEMG)", lambda p: "%.1f" % p["cube"]["error_rate_memg"]),
        ("Equity lost (EMG)", lambda p: "%.3f" % p["cube"]["error_total"]),
        ("Cube rating", lambda p: p["cube"]["rating"]),
        ("Overall", None),
        ("Error rate (mEMG)", lambda p: "%.1f" % p["overall"]["error_rate_memg"]),
        ("Equity lost (EMG)", lambda p: "%.3f" % p["overall"]["error_total"]),
        ("Overall rating", lambda p: p["overall"]["rating"]),
        ("Luck rate (mEMG)", lambda p: "%+.1f" % p["luck"]["rate_memg"]),
        ("Luck (EMG)", lambda p: "%+.3f" % p["luck"]["total"]),
        ("Luck rating", lambda p: p["luck"]["rating"]))

CSS = """
body { font-family: DejaVu Sans, Verdana, sans-serif; background: #f4f1ea; color: #222;
       margin: 1.5em auto; max-width: 1000px; padding: 0 1em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table.stats { border-collapse: collapse; margin: 1em 0; }
table.stats td, table.stats th { border: 1px solid #c9c1ad; padding: 0.3em 0.7em; }
table.stats th { background: #e6dfcd; text-align: left; }
table.stats td.v { text-align: right; font-variant-numeric: tabular-nums; }
table.stats tr.section th { background: #5b3a1e; color: #f4f1ea; }
.worst { margin: 1em 0 2em; padding: 0.8em; background: #fff; border: 1px solid #d8d0bd; }
.worst p { margin: 0.3em 0; }
.worst svg { width: 100%; max-width: 700px; height: auto; display: block; }
.lost { font-weight: bold; color: #8e3b26; }
.note { color: #555; font-size: 0.9em; }
"""


def html_page(summary):
    """NAME.analysis.html: the tables and the worst plays with their positions, with
    nothing from outside (the pictures are inline SVG)."""
    players = summary["players"]
    names = (players[0]["name"], players[1]["name"])
    e = html.escape
    length = summary["match_length"]
    title = "Analysis of %s" % summary["source"]
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>%s</title>" % e(title), "<style>%s</style></head><body>" % CSS,
           "<h1>%s</h1>" % e(title),
           '<p>%s: %s against %s, %d game(s). Analysed by GNU Backgammon.</p>' % (
               "%d-point match" % length if length else "Money session", e(names[0]),
               e(names[1]), summary["games"]),
           '<table class="stats" id="stats"><tr><th></th>%s</tr>' % "".join(
               '<th class="player" data-player="%d">%s</th>' % (i, e(n))
               for i, n in enumerate(names))]
    for label, get in ROWS:
        if get is None:
            out.append('<tr class="section"><th colspan="3">%s</th></tr>' % e(label))
            continue
        out.append("<tr><th>%s</th>%s</tr>" % (e(label), "".join(
            '<td class="v" data-player="%d">%s</td>' % (i, e(get(p)))
            for i, p in enumerate(players))))
    out.append("</table>")
    out.append('<p class="note">%s</p>' % e(summary["units"]))
    for i, p in enumerate(players):
        out.append('<section class="player-worst" data-player="%d"><h2>%s: the worst '
                   'checker plays</h2>' % (i, e(p["name"])))
        if not p["worst"]:
            out.append("<p>No checker play lost equity.</p>")
        for w in p["worst"]:
            out.append('<div class="worst" data-game="%d" data-move="%d">' % (w["game"],
                                                                            w["move"]))
            out.append("<p>Game %d, move %d: %d-%d played <b>%s</b> (red arrows); gnubg "
                       "plays <b>%s</b> (green, dashed)."
                       ' <span class="lost">%.3f lost</span>%s</p>' % (
                           w["game"], w["move"], w["dice"][0], w["dice"][1], e(w["play"]),
                           e(w["best"]), w["lost"],
                           " (%s)" % e(w["skill"]) if w["skill"] else ""))
            out.append('<p class="note">Position ID %s</p>' % e(w["position_id"]))
            out.append(_picture(w, names))
            out.append("</div>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# --- the whole ------------------------------------------------------------------------------


def base_of(path):
    return os.path.splitext(os.path.basename(path))[0]


def analyse_file(path, out_dir=None, on_progress=None, program=None, worst=WORST,
                 on_start=None):
    """Analyse the match in `path`; write NAME.analysis.json and NAME.analysis.html into
    `out_dir` (default: beside the file). (summary, json path, html path)."""
    from bgboard.recorder import write_atomic

    done = run_gnubg(path, on_progress, program, on_start)
    summary = summarise(done, path, worst)
    out_dir = out_dir or os.path.dirname(os.path.abspath(path))
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, base_of(path) + ".analysis")
    write_atomic(base + ".json", json.dumps(summary, indent=1) + "\n", fsync=False)
    write_atomic(base + ".html", html_page(summary), fsync=False)
    return summary, base + ".json", base + ".html"
