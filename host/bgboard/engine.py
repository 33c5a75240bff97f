"""GNU Backgammon as an opponent: one long-running gnubg process per session.

    engine = Engine("expert")                 # EngineMissing if gnubg is not installed
    engine.play(position, (3, 1), Context())  # [(8, 5), (6, 5)]: gnubg's play, one step a die
    engine.cube(position, Context())          # CubeAdvice: double? take? (gnubg's cubeful eval)
    engine.close()

Why this interface: gnubg 1.07 (Debian's) embeds Python, and a script it runs
(`gnubg -t -q -p bgboard/gnubg_server.py`) has `import gnubg`: findbestmove, cfevaluate and
friends return numbers and tuples. The script answers JSON lines on a pipe, so a request
(position, dice, cube and score, strength) gets structured data back, with nothing to scrape
from gnubg's text output (which changes with its settings and translations) and no FIBS
board lines to format. Every request carries the whole state it needs, so the process holds
no game: when it dies it is started again and the same request is asked again (`restarts`
counts them); the game goes on from the board's state.

Strength levels are gnubg's own predefined settings (eval.c's aecSettings): beginner,
casual, intermediate and advanced are 0-ply with noise (0.060, 0.050, 0.040, 0.015),
expert 0-ply without, world class 2-ply with gnubg's normal move filter; all with gnubg's
deterministic noise (the same position gets the same play).
"""

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections import namedtuple

from bgcore import Position, Turn

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gnubg_server.py")
DEBIAN_GNUBG = "/usr/games/gnubg"
INSTALL = ("GNU Backgammon (gnubg) is not installed: install it with `sudo apt-get install "
           "gnubg` (Debian, Ubuntu), or set BGBOARD_GNUBG to its path")

# gnubg's predefined settings: (plies, noise); deterministic noise and pruning throughout.
LEVELS = {
    "beginner": (0, 0.060),
    "casual": (0, 0.050),
    "intermediate": (0, 0.040),
    "advanced": (0, 0.015),
    "expert": (0, 0.0),
    "worldclass": (2, 0.0),
}
DEFAULT_LEVEL = "expert"
COACH_LEVEL = "worldclass"  # rates the person's plays
# gnubg's default thresholds for marking a checker play (equity lost, cubeful): its labels.
# gnubg 1.07's own (analysis.c's arSkillLevel; `show analysis` prints them: "-0.030
# doubtful", "-0.060 bad", "-0.120 very bad"); an error is marked when it is beyond one.
MARKS = ((0.120, "very bad"), (0.060, "bad"), (0.030, "doubtful"))
START_S = 30.0  # gnubg loads its networks and tables at start: a second or two here
ANSWER_S = 120.0  # world class answers in well under a second; a machine may be busy


class EngineError(Exception):
    """The engine failed (did not start, or gave no answer twice in a row)."""


class EngineMissing(EngineError):
    """gnubg is not installed (or BGBOARD_GNUBG names no program)."""


class LevelError(ValueError):
    pass


class Context(namedtuple("Context", ("player", "length", "score", "crawford", "cube", "owner",
                                     "jacoby", "beavers"))):
    """The cube and score around a decision. player: who is on roll (the mover of the
    position; for a cube decision, who would double), 0 or 1. owner: None (centred), 0 or 1.
    length 0: money (jacoby, beavers: its rules)."""

    __slots__ = ()

    def __new__(cls, player=0, length=0, score=(0, 0), crawford=False, cube=1, owner=None,
                jacoby=False, beavers=False):
        return super().__new__(cls, player, length, tuple(score), bool(crawford), cube, owner,
                               bool(jacoby), bool(beavers))

    def to_json(self):
        return {"player": self.player, "length": self.length, "score": list(self.score),
                "crawford": self.crawford, "cube": self.cube,
                "owner": -1 if self.owner is None else self.owner,
                "jacoby": self.jacoby and not self.length,
                "beavers": self.beavers and not self.length}


# gnubg's cube decision: `beaver` when gnubg's own computer player would beaver the double
# (its cube decision one of the beaver ones), `code` that decision (eval.h's cubedecision),
# `text` gnubg's words for it ("No double, beaver").
CubeAdvice = namedtuple("CubeAdvice", ("double", "take", "beaver", "equities", "text", "code"))
# gnubg's decisions that double or redouble (eval.h: DOUBLE_TAKE, DOUBLE_PASS, TOOGOOD_TAKE,
# TOOGOOD_PASS, REDOUBLE_TAKE, REDOUBLE_PASS, TOOGOODRE_TAKE, TOOGOODRE_PASS and the four
# OPTIONAL_ ones): after a beaver of its double, gnubg's computer player raccoons on these
# (play.c, ComputerTurn: the beaver is weighed as "a normal double by me", the cube on its
# own side; "Opponent out of his right mind: Raccoon if possible").
RACCOON_CODES = frozenset((0, 1, 3, 4, 7, 8, 10, 11, 16, 17, 19, 20))
RESIGN_LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}
# A play rated: `lost` equity against gnubg's `best` play ((from, to) steps), `mark` gnubg's
# label ("", "doubtful", "bad", "very bad"), and both plays' cubeful equities.
Rating = namedtuple("Rating", ("lost", "mark", "best", "equity", "best_equity"))
# One play of gnubg's hint: `words` as gnubg writes it ("24/18(2) 13/7*(2)"), `steps` one
# (from, to) a die as the board's guide takes them, `equity` (cubeful, for the mover), `diff`
# behind the best (0 or less), `probs` (win, win gammon, win bg, lose gammon, lose bg), `plies`.
HintPlay = namedtuple("HintPlay", ("words", "steps", "equity", "diff", "probs", "plies"))
HINT_COUNT = 5


def mark(lost):
    """gnubg's label for a checker play that loses `lost` equity ("" for none)."""
    for threshold, name in MARKS:
        if lost > threshold:
            return name
    return ""


def spawn_gnubg(program, script, home, err):
    """gnubg without its GUI running `script` (its embedded Python), in `home` as its own
    settings folder (not the user's ~/.gnubg), stderr to the file `err`; OSError if it
    cannot start."""
    return subprocess.Popen([program, "-t", "-q", "-p", script],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                            cwd=home, env=dict(os.environ, HOME=home),
                            start_new_session=True)


def stop_gnubg(proc):
    """Kill a gnubg started by spawn_gnubg (if it still runs) and close its pipes."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    for f in (proc.stdin, proc.stdout):
        try:
            f.close()
        except OSError:
            pass


def find_gnubg():
    """The gnubg program: BGBOARD_GNUBG, else gnubg on PATH, else Debian's /usr/games/gnubg.
    EngineMissing if none."""
    named = os.environ.get("BGBOARD_GNUBG")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named
        raise EngineMissing("%s (BGBOARD_GNUBG=%s is no program)" % (INSTALL, named))
    found = shutil.which("gnubg")
    if found:
        return found
    if os.access(DEBIAN_GNUBG, os.X_OK):
        return DEBIAN_GNUBG
    raise EngineMissing(INSTALL)


def level_settings(level):
    """gnubg's evaluation context for a level name; LevelError for another name."""
    if level not in LEVELS:
        raise LevelError("unknown level %r: one of %s" % (level, ", ".join(LEVELS)))
    plies, noise = LEVELS[level]
    return {"plies": plies, "noise": noise, "deterministic": 1, "prune": 1}


class Engine:
    """A gnubg process playing at `level` (a LEVELS name). Started at the first request (or
    start()); restarted when it dies."""

    def __init__(self, level=DEFAULT_LEVEL, program=None):
        self.level = level
        self._settings = level_settings(level)
        self.program = program
        self.proc = None
        self.restarts = 0
        self.requests = 0
        self._home = None
        self._buf = b""

    # --- the process --------------------------------------------------------------------------

    def start(self):
        if self.proc is not None and self.proc.poll() is None:
            return
        program = self.program or find_gnubg()
        if self._home is None:  # its own settings folder: not the user's ~/.gnubg
            self._home = tempfile.mkdtemp(prefix="bgboard-gnubg-")
        self._err = open(os.path.join(self._home, "stderr.txt"), "ab")
        try:
            self.proc = spawn_gnubg(program, SERVER, self._home, self._err)
        except OSError as e:
            raise EngineMissing("%s (%s: %s)" % (INSTALL, program, e)) from None
        self._buf = b""
        # gnubg prints its banner on stdout before it runs the script: skip to our line.
        deadline = time.monotonic() + START_S
        while True:
            line = self._readline(deadline)
            if line is None:
                why = self._stderr_tail()
                self._kill()
                raise EngineError("gnubg did not start the engine script: %s"
                                  % (why or "no answer"))
            if line.startswith(b'{"ready"'):
                return

    @property
    def pid(self):
        return self.proc.pid if self.proc is not None else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def close(self):
        self._kill()
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def _kill(self):
        proc, self.proc = self.proc, None
        if proc is not None:
            stop_gnubg(proc)
        err = getattr(self, "_err", None)
        if err is not None:
            err.close()
            self._err = None

    def _stderr_tail(self):
        try:
            with open(os.path.join(self._home, "stderr.txt"), "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except (OSError, TypeError):
            return ""
        lines = [ln for ln in text.strip().splitlines() if ln.strip()]
        return lines[-1].strip() if lines else ""

    def _readline(self, deadline):
        # A line from gnubg's stdout, or None (it ended, or nothing by the deadline).
        out = self.proc.stdout
        fd = out.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def ask(self, request):
        """One request (a dict) answered (a dict). A process that died (or dies before it
        answers, or stops answering) is started again and asked again, once."""
        for attempt in (0, 1):
            if not self.alive():
                if self.proc is not None or attempt:
                    self.restarts += 1
                self._kill()
                self.start()
            try:
                self.proc.stdin.write((json.dumps(request) + "\n").encode())
                self.proc.stdin.flush()
                line = self._readline(time.monotonic() + ANSWER_S)
            except (BrokenPipeError, OSError):
                line = None
            if line is not None:
                self.requests += 1
                answer = json.loads(line)
                if "error" in answer:
                    raise EngineError("gnubg could not answer %s: %s" % (request.get("op"),
                                                                         answer["error"]))
                return answer
            self._kill()  # dead or hung: the next attempt starts a new one
        raise EngineError("gnubg died twice on one request (%s)" % request.get("op"))

    # --- questions ----------------------------------------------------------------------------

    def play(self, position, dice, ctx, level=None):
        """gnubg's play for `position` (a bgcore Position, the player on roll moving) with
        `dice`: [(from, to), ...], one step a die, in the mover's numbering (25 the bar, 0
        off); [] when nothing can be played. level: another than the engine's."""
        answer = self.ask({"op": "play", "position": position.to_id(),
                           "dice": [int(dice[0]), int(dice[1])], "ctx": ctx.to_json(),
                           "level": level_settings(level) if level else self._settings})
        return [(int(a), int(b)) for a, b in answer["moves"]]

    def hint(self, position, dice, ctx, level=None, count=HINT_COUNT):
        """gnubg's own hint for the mover of `position` (ctx.player) with `dice`: its best
        `count` plays, best first, as HintPlay; [] when the dice cannot be played. The
        position and the cube and score are set in gnubg's game and its `hint` asked (the
        list its `hint` command prints), at `level` (default: the engine's)."""
        from bgcore import legal_plays
        from bgcore.matchid import encode

        if not legal_plays(position, dice):
            return []
        mid = encode({"cube": ctx.cube, "cube_owner": ctx.owner, "on_roll": ctx.player,
                      "crawford": ctx.crawford, "game_state": "playing", "turn": ctx.player,
                      "double_offered": False, "resignation": 0, "dice": [],
                      "match_length": ctx.length, "score": list(ctx.score),
                      "jacoby": ctx.jacoby and not ctx.length})
        answer = self.ask({"op": "hint", "position": position.to_id(), "match_id": mid,
                           "dice": [int(dice[0]), int(dice[1])], "ctx": ctx.to_json(),
                           "level": level_settings(level) if level else self._settings,
                           "count": int(count)})
        plays = []
        for p in answer["plays"]:
            turn = Turn(position, dice)
            for src, dst in p["steps"]:  # a chain hits nothing on the way unless gnubg
                turn.move(int(src), int(dst))  # names the point (then it is two steps)
            if not turn.can_end():
                raise EngineError("gnubg's hint %s leaves dice unplayed" % p["move"])
            plays.append(HintPlay(p["move"], [(s.src, s.dst) for s in turn.steps],
                                  float(p["equity"]), float(p["diff"]),
                                  tuple(p["probs"]), int(p["plies"])))
        return plays

    def cube(self, position, ctx, level=None):
        """gnubg's cube decision in `position` before the roll of the player on roll (the
        mover; ctx.player): whether to double, and whether the opponent should take (or
        beaver)."""
        answer = self.ask({"op": "cube", "position": position.to_id(), "ctx": ctx.to_json(),
                           "level": level_settings(level) if level else self._settings})
        return CubeAdvice(bool(answer["double"]), bool(answer["take"]), bool(answer["beaver"]),
                          answer["equities"], answer["text"], int(answer["code"]))

    def raccoon(self, position, ctx):
        """Whether the engine, whose double the opponent beavered, raccoons: `position` with
        the engine (ctx.player) on roll. gnubg's computer player weighs a beaver as a double
        of its own with the cube on its side, and raccoons when that double is right."""
        own = ctx._replace(owner=ctx.player)
        return self.cube(position, own).code in RACCOON_CODES

    def resignation(self, position, ctx):
        """The level (1 single, 2 gammon, 3 backgammon) at which the mover of `position`
        (ctx.player) should resign now, 0 to play on: gnubg's own rule for its computer
        player (in a race or bear-off only, a 0-ply evaluation that leaves no better
        result; gnubg_server.resign)."""
        answer = self.ask({"op": "resign", "position": position.to_id(), "ctx": ctx.to_json()})
        return int(answer["level"])

    def evaluate(self, position, ctx):
        """gnubg's cubeless evaluation for the mover: (probabilities (win, win gammon, win
        backgammon, lose gammon, lose backgammon), equity in points a cube)."""
        answer = self.ask({"op": "evaluate", "position": position.to_id(), "ctx": ctx.to_json(),
                           "level": self._settings})
        return tuple(answer["probabilities"]), float(answer["equity"])

    def equity_after(self, after, ctx, level=COACH_LEVEL):
        """The cubeful equity, for the player who just moved, of `after` (a Position, that
        player still the mover; ctx.player that player): the opponent is on roll, with its
        cube decision."""
        if after.mover[0] == 15:  # the game is won: single, gammon or backgammon
            from bgcore.game import win_level

            return float(win_level(after))
        opponent = ctx._replace(player=1 - ctx.player)
        return -self.cube(after.swapped(), opponent, level).equities["optimal"]

    def rate(self, start, dice, after, ctx, level=COACH_LEVEL):
        """Rate a play: from `start` with `dice` the mover (ctx.player) reached `after`.
        A Rating against gnubg's best play at `level`."""
        best = self.play(start, dice, ctx, level)
        best_after = turn_of(start, dice, best).position
        if best_after == after:
            return Rating(0.0, "", best, None, None)
        best_eq = self.equity_after(best_after, ctx, level)
        eq = self.equity_after(after, ctx, level)
        lost = max(0.0, best_eq - eq)
        return Rating(lost, mark(lost), best, eq, best_eq)

    def accepts(self, position, level, ctx):
        """Whether the engine accepts a resignation of `level` (1 single, 2 gammon, 3
        backgammon) offered by the mover of `position`: when it gives at least what playing
        on is worth to the engine (gnubg's cubeless equity)."""
        _, equity = self.evaluate(position, ctx)
        return level >= -equity


def turn_of(position, dice, steps):
    """A bgcore Turn from `position` with `dice` with `steps` ((from, to) per die, as
    Engine.play gives them) made: it checks them (IllegalMoveError, a ValueError, when they
    are not a legal, complete play)."""
    from bgcore import IllegalMoveError

    turn = Turn(position, dice)
    if not _make(turn, list(steps), 0):
        raise IllegalMoveError("%s is not a play of %d-%d from %s"
                               % (steps, dice[0], dice[1], position.to_id()))
    if not turn.can_end():
        raise IllegalMoveError("%s leaves dice unplayed" % (steps,))
    return turn


def _make(turn, steps, i):
    # One die a step; a bear-off may take either of two dice: find the way that plays all.
    if i == len(steps):
        return True
    src, dst = steps[i]
    for die in sorted(set(r[0].die for r in turn.paths(src, dst) if len(r) == 1)):
        turn.move(src, dst, None, die)
        if _make(turn, steps, i + 1):
            return True
        turn.undo()
    return False


def position_of(white_view_id, player):
    """The position as `player` (0 or 1) sees it, from the board's state (a Position ID
    from player 0's side)."""
    p = Position.from_id(white_view_id)
    return p if player == 0 else p.swapped()
