"""`bgboard engine`: GNU Backgammon plays one side on the board (bgboard.engine).

The host watches the board's state. On the engine's turn it asks gnubg whether to double
(then sends `double`) or throws (`roll`); when the engine has thrown, it asks for gnubg's
play and sends it to the board as a `guide` (docs/protocol.md): the board lights it one
checker at a time, the person moves the engine's checkers, and the board commits nothing
else. A double offered to the engine is taken, dropped or beavered as gnubg says, a beaver
of its double raccooned when gnubg would double, and the engine resigns where gnubg's own
player does (bgboard.engine: raccoon, resignation). The state is asked
again after every answer: a gnubg process that died is started again and asked the same
(bgboard.engine), and a board put back to its journal is guided again.
"""

import os
import shutil
import tempfile
import time

import click

from bgboard.cli_common import (LinkFailure, check_name, choose_port, open_link, port_option,
                                say, stop_on_sigterm)
from bgboard.engine import (COACH_LEVEL, DEFAULT_LEVEL, LEVELS, Context, Engine, EngineError,
                            position_of, turn_of)

# The engine's side asks the board's state when the board said something (an event, a
# checker moved, a refusal), and at least this often: `state` costs a Pico some milliseconds.
LOOK_S = 1.0
WAIT_S = 0.2  # ... or this often while the person's finished play stands (--wait)
POLL_S = 0.05  # the link is read this often
ENGINE_RETRIES = 3  # a decision gnubg fails on this many times in a row ends the command
SHOWN_RATINGS = 12  # the page lists the person's last plays rated
# On a board, each match played against the engine is written here when it ends (its .mat,
# .sgf and gnubg's analysis of it), unless --log names another folder.
MATCHES_DIR = os.path.join(os.path.expanduser("~"), ".local", "state", "bgboard", "matches")


class CoachError(Exception):
    """A hint that cannot be given now (nobody on roll, no dice...): words for the person."""


class EngineDriver:
    """Plays `side` (0 white, 1 black) on the board behind `link` (bgboard.link.Link) with
    `engine`. step() once in a while; event(ev) for each committed event. grace: seconds the
    person's finished play must stand before the engine throws (a person may still take a
    checker back; the simulated hands need none)."""

    def __init__(self, engine, side, link, say=say, grace=0.0, coach=False,
                 hint_level=COACH_LEVEL, flash_blunders=False, on_coach=None,
                 analysis_dir=None, names=None):
        self.engine = engine
        self.side = side
        self.link = link
        self.say = say
        self.grace = grace
        self.plays = 0  # the engine's plays committed as gnubg chose them
        self.mismatches = []  # ... committed otherwise
        self.doubles = self.takes = self.drops = 0
        self.beavers = self.raccoons = 0
        self.accepted = self.rejected = 0  # resignations offered to the engine
        self.resigned = 0  # resignations the engine offered
        self.engine_errors = 0  # gnubg's failures in a row
        self._offered = 0  # the level of the engine's resignation on offer
        self._declined = 0  # the highest the person rejected in this game
        self.coach = coach  # say each rating as it comes
        self.ratings = []  # (player's play in .mat words, bgboard.engine.Rating)
        self.hint_level = hint_level  # gnubg's level for hints (its `hint`)
        self.hints = 0
        self.last_hint = None  # the hint for the roll being played (a dict, for the page)
        self.flash_blunders = flash_blunders  # the board flashes a very bad play
        self.flashes = 0
        self.on_coach = on_coach  # called when the coach's page data changed
        self._rated = []  # the page's list of the person's rated plays (dicts)
        self._hint_wanted = False  # the board's Menu button asked for one
        # A match played here that ends: its .mat and .sgf are written into analysis_dir
        # and gnubg analyses it there (in a gnubg and a thread of their own: the engine's
        # process goes on answering). `analysis` is what the page shows of it.
        self.analysis_dir = analysis_dir
        self.names = names
        self.analysis = None  # {"state": "running"/"ready"/"failed", "name", "text", ...}
        self._match_events = []  # of the match in progress, from its `match` event
        self._played_here = False  # the engine acted in it (not a match replayed at connect)
        self._analysis_news = False  # the analysis thread changed `analysis`
        self._analyser = None
        self.start_match = None  # a match of this length to start first (--match)
        self._game = None  # bgboard.events.GameLog of the game being played (its position)
        self._st = None  # the last state seen
        self.guides = 0
        self._guided = None  # (start Position, dice, target Position) of the last guide
        self._next = 0.0  # when to look at the state again
        self._ready_since = None  # when the engine's throw became due (grace)
        self._ready_key = None
        shown = link.on_live

        def on_live(msg):
            if msg.get("live") in ("board", "refused", "autoplay"):
                self._next = 0.0  # something happened: look
            elif msg.get("live") == "hint":
                self._hint_wanted = True  # answered from step(): not inside the link's poll
            if shown is not None:
                shown(msg)

        link.on_live = on_live

    # --- the board's events -----------------------------------------------------------------

    def event(self, ev):
        self._next = 0.0
        if self.analysis_dir is not None:
            self._keep(ev)
        if self.last_hint is not None:  # a hint holds for its roll only: what the board
            self.last_hint = None  # commits next ends it
            self._changed()
        self._follow(ev)
        if ev["ev"] != "play" or ev["player"] != self.side or self._guided is None:
            return
        start, dice, target = self._guided
        self._guided = None
        if tuple(sorted(ev["dice"], reverse=True)) != tuple(sorted(dice, reverse=True)):
            return
        try:
            got = turn_of(start, dice, [(m[0], m[1]) for m in ev["moves"]]).position
        except ValueError:
            got = None
        if got == target:
            self.plays += 1
        else:
            self.mismatches.append((start.to_id(), list(dice), ev["moves"]))

    def _follow(self, ev):
        # The game's position from its events; the person's plays rated on the way.
        from bgboard.events import EventError, GameLog

        kind = ev["ev"]
        if kind == "game":
            self._game = GameLog(ev["number"], ev["score"], ev["crawford"], ev["seq"])
            self._offered = self._declined = 0
            return
        game = self._game
        if game is None or game.over:
            return
        if kind == "play" and ev["player"] != self.side and ev["moves"] \
                and self._st is not None and "match" in self._st:
            self._rate(game.position(ev["player"]), ev)
        try:
            game.apply(ev)
        except EventError:
            self._game = None  # not followed any more (a log's problem, not a player's)

    def _rate(self, start, ev):
        from bgcore import notation

        player = ev["player"]
        dice = tuple(ev["dice"])
        try:
            turn = turn_of(start, dice, [(m[0], m[1]) for m in ev["moves"]])
        except ValueError:
            return
        st = self._st
        ctx = self._context(st, player)
        rating = self.engine.rate(start, dice, turn.position, ctx)
        words = notation(turn.steps)
        self.ratings.append((words, rating))
        best = notation(turn_of(start, dice, rating.best).steps)
        if self.coach and rating.mark:
            self.say("%d-%d %s: %s (%.3f lost; gnubg plays %s)" % (
                dice[0], dice[1], words, rating.mark, rating.lost, best))
        self._rated.append({"dice": list(dice), "play": words, "mark": rating.mark,
                            "lost": round(rating.lost, 3), "best": best,
                            "start": start.to_id()})
        del self._rated[:-SHOWN_RATINGS]
        if self.flash_blunders and rating.mark == "very bad":
            self._flash_due = True
        self._changed()

    def _changed(self):
        if self.on_coach is not None:
            self.on_coach()

    # --- the analysis after a match -------------------------------------------------------------

    def _keep(self, ev):
        kind = ev["ev"]
        if kind == "match":
            self._match_events = [ev]
            self._played_here = False
            return
        if not self._match_events:
            return
        self._match_events.append(ev)
        if kind == "match_over" and self._played_here:
            events, self._match_events = self._match_events, []
            self._analyse(events)

    def _analyse(self, events):
        """Write the finished match's .mat and .sgf and start gnubg's analysis of it."""
        import threading

        from bgboard.events import build_matches
        from bgboard.matfile import DEFAULT_NAMES, mat_text
        from bgboard.recorder import write_atomic
        from bgboard.sgf import sgf_text

        names = self.names or DEFAULT_NAMES
        matches = build_matches(events)
        if not matches:
            return
        match = matches[-1]
        kind = "money" if match.length == 0 else "match"
        journal = getattr(self.link, "journal", None) or "0"
        base = "%s-%s-%06d" % (kind, journal, match.first_seq)
        try:
            os.makedirs(self.analysis_dir, exist_ok=True)
            path = os.path.join(self.analysis_dir, base + ".mat")
            write_atomic(path, mat_text(match, names))
            write_atomic(os.path.join(self.analysis_dir, base + ".sgf"),
                         sgf_text(match, names))
        except OSError as e:
            self.say("analysis: cannot write the match into %s: %s" % (self.analysis_dir, e))
            return
        self.analysis = {"state": "running", "name": base, "mat": base + ".mat",
                         "text": "gnubg is analysing the match"}
        self._changed()
        self._analyser = threading.Thread(target=self._run_analysis, args=(path, base),
                                          name="bgboard-analysis", daemon=True)
        self._analyser.start()

    def _run_analysis(self, path, base):
        # The analysis thread: `analysis` is replaced whole, step() tells the page.
        from bgboard.analysis import analyse_file

        def progress(game, games, plays):
            self.analysis = dict(self.analysis, game=game, games=games,
                                 text="gnubg is analysing game %d of %d" % (game, games))
            self._analysis_news = True

        try:
            summary, _, html_path = analyse_file(path, self.analysis_dir, progress)
        except Exception as e:  # noqa: B902 - said; the match's files are written already
            self.analysis = {"state": "failed", "name": base, "mat": base + ".mat",
                             "text": "the analysis failed: %s" % e}
        else:
            self.analysis = {"state": "ready", "name": base, "mat": base + ".mat",
                             "html": os.path.basename(html_path),
                             "json": base + ".analysis.json",
                             "text": "; ".join(
                                 "%s %.1f mEMG (%s)" % (p["name"], p["overall"]["error_rate_memg"],
                                                       p["overall"]["rating"])
                                 for p in summary["players"])}
        self._analysis_news = True

    def analysis_view(self):
        return dict(self.analysis) if self.analysis is not None else None

    # --- the coach ----------------------------------------------------------------------------

    def hint(self):
        """gnubg's hint for the person on roll: the board lights its best play (a `guide`
        hint: the person may play anything) and the page lists the top plays. The hint as a
        dict; CoachError when there is no roll of the person's to hint."""
        st = self.link.command("state")
        if st.get("phase") != "playing" or "game" not in st:
            raise CoachError("no game is being played")
        g = st["game"]
        if "match" not in st:
            raise CoachError("no match or session is being played")
        if g["player"] == self.side:
            raise CoachError("gnubg is on roll, not the person")
        if not g["dice"]:
            raise CoachError("throw first: a hint is for the dice thrown")
        info = self.link.command("guide")
        if info["player"] == self.side:
            raise CoachError("gnubg is on roll, not the person")
        start = position_of(info["start"], 0)  # the mover's own
        dice = tuple(info["dice"])
        plays = self.engine.hint(start, dice, self._context(st, info["player"]),
                                 level=self.hint_level)
        hint = {"dice": list(dice), "start": info["start"], "level": self.hint_level,
                "plays": [{"play": p.words, "equity": round(p.equity, 3),
                           "diff": round(p.diff, 3), "plies": p.plies,
                           "win": round(p.probs[0], 3)} for p in plays]}
        if plays:
            self.link.command("guide", moves=" ".join("%d/%d" % s for s in plays[0].steps),
                              start=info["start"], hint=True)
        self.hints += 1
        self.last_hint = hint
        self._changed()
        return hint

    def coach_view(self):
        """What the page shows of the coach: the hint for the roll being played, the
        person's last plays rated, the tally."""
        marks = [r.mark for _, r in self.ratings]
        return {"level": self.hint_level, "hint": self.last_hint, "ratings": list(self._rated),
                "tally": {"plays": len(self.ratings), "doubtful": marks.count("doubtful"),
                          "bad": marks.count("bad"), "very bad": marks.count("very bad"),
                          "lost": round(sum(r.lost for _, r in self.ratings), 3)},
                "analysis": self.analysis_view()}

    # --- acting -------------------------------------------------------------------------------

    _flash_due = False

    def step(self):
        from bgboard.link import Refused

        if self.start_match:
            length, self.start_match = self.start_match, None
            try:
                self.link.command("new", kind="match", length=length)
            except Refused as e:
                self.say("new match %d: %s" % (length, e))
        if self._flash_due:
            self._flash_due = False
            try:
                self.link.command("guide", flash=True)
                self.flashes += 1
            except Refused:
                pass  # a board without it: the rating is said all the same
        if self._analysis_news:
            self._analysis_news = False
            a = self.analysis
            if a is not None and a["state"] != "running":
                self.say("analysis of %s: %s" % (a["mat"], a["text"]))
            self._changed()
        if self._hint_wanted:
            self._hint_wanted = False
            try:
                self.hint()
            except (CoachError, Refused) as e:
                self.say("hint: %s" % e)
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + LOOK_S
        try:
            self._act(self.link.command("state"), now)
        except Refused:
            self._next = now + WAIT_S  # the board moved on meanwhile, or the checkers are
            # not right yet: again soon
        except EngineError as e:
            # gnubg refused an answer (or died twice on it): nothing was sent to the board,
            # so the decision is asked again from the board's state, a few times.
            self.engine_errors += 1
            if self.engine_errors > ENGINE_RETRIES:
                raise
            self.say("gnubg: %s; asking again" % e)
            self._next = now + LOOK_S
        else:
            self.engine_errors = 0

    def _context(self, st, player):
        m = st["match"]
        g = st["game"]
        rules = st.get("settings", {}).get("rules", {})
        return Context(player=player, length=m["length"], score=m["score"],
                       crawford=m["crawford"], cube=g["cube"], owner=g["cube_owner"],
                       jacoby=rules.get("jacoby", False), beavers=rules.get("beavers", False))

    def _act(self, st, now):
        if st.get("phase") != "playing" or "game" not in st:
            return
        self._st = st
        self._played_here = True  # the match being played is followed live
        g = st["game"]
        allowed = g["allowed"]
        on_roll = g["player"]
        side = self.side
        if "take" in allowed:  # a double stands: the doubler is on roll
            if on_roll != side:
                advice = self.engine.cube(position_of(g["position_id"], on_roll),
                                          self._context(st, on_roll))
                if advice.beaver and "beaver" in allowed:  # gnubg's own: "No double, beaver"
                    self.beavers += 1
                    self.link.command("beaver")
                elif advice.take:
                    self.takes += 1
                    self.link.command("take")
                else:
                    self.drops += 1
                    self.link.command("drop")
            return
        if "accept_resignation" in allowed:  # a resignation stands: the resigner is on roll
            from bgcore.matchid import decode

            level = decode(g["match_id"])["resignation"]
            if on_roll != side:
                if self.engine.accepts(position_of(g["position_id"], on_roll), level,
                                       self._context(st, on_roll)):
                    self.accepted += 1
                    self.link.command("accept")
                else:
                    self.rejected += 1
                    self.link.command("reject")
            elif self._offered and level > self._offered:
                # The person demands more than the engine offered: it agrees when gnubg
                # would resign that much itself, else it plays on.
                agreed = self.engine.resignation(position_of(g["position_id"], side),
                                                 self._context(st, side)) >= level
                self._declined = max(self._declined, self._offered)
                self._offered = 0
                self.link.command("accept" if agreed else "reject")
            return
        if self._offered and on_roll == side:  # the engine's resignation was rejected: it
            self._declined = max(self._declined, self._offered)  # offers only more later
            self._offered = 0  # (gnubg's own rule: ms.fResignationDeclined)
        if on_roll != side:
            self._ready_since = self._ready_key = None  # the next throw waits afresh (two
            return  # rolls with no play in a row leave the position as it was)
        if g["dice"]:
            self._guide(st)
            return
        if "roll" not in allowed:
            return
        # The person's play as it now stands: the engine throws once it has stood `grace`.
        key = (g["position_id"], tuple(tuple(m) for m in g.get("moves", [])))
        if key != self._ready_key or self._ready_since is None:
            self._ready_key = key
            self._ready_since = now
        if now - self._ready_since < self.grace:
            self._next = min(self._next, now + WAIT_S)
            return
        mine = position_of(g["position_id"], side)
        if "raccoon" in allowed and self.engine.raccoon(mine, self._context(st, side)):
            self.raccoons += 1  # the person beavered the engine's double
            self.link.command("raccoon")
            return
        if "resign" in allowed:
            level = self.engine.resignation(mine, self._context(st, side))
            if level > self._declined:
                self.resigned += 1
                self._offered = level
                self.link.command("resign", level=level)
                return
        if "double" in allowed:
            advice = self.engine.cube(mine, self._context(st, side))
            if advice.double:
                self.doubles += 1
                self.link.command("double")
                return
        self.link.command("roll")

    def _guide(self, st):
        info = self.link.command("guide")
        if info.get("moves") is not None or info["player"] != self.side:
            return
        start = position_of(info["start"], 0)  # the ID is the mover's own
        dice = tuple(info["dice"])
        steps = self.engine.play(start, dice, self._context(st, self.side))
        try:
            target = turn_of(start, dice, steps).position  # gnubg's play, checked by bgcore
        except ValueError as e:
            raise EngineError("gnubg's play %s is not legal here: %s" % (steps, e)) from None
        self.link.command("guide", moves=" ".join("%d/%d" % s for s in steps),
                          start=info["start"])
        self.guides += 1
        self._guided = (start, dice, target)

    def rated(self):
        marks = [r.mark for _, r in self.ratings]
        return ("person: %d play(s) rated by gnubg (world class): %d doubtful, %d bad, %d very "
                "bad; %.3f equity lost in all" % (
                    len(self.ratings), marks.count("doubtful"), marks.count("bad"),
                    marks.count("very bad"), sum(r.lost for _, r in self.ratings)))

    def summary(self):
        return ("engine: %d play(s) as gnubg chose them, %d otherwise; %d double(s), %d "
                "take(s), %d drop(s), %d beaver(s), %d raccoon(s); %d resignation(s) offered; "
                "%d resignation(s) accepted, %d rejected; gnubg restarted %d time(s)" % (
                    self.plays, len(self.mismatches), self.doubles, self.takes, self.drops,
                    self.beavers, self.raccoons, self.resigned, self.accepted, self.rejected,
                    self.engine.restarts))


def engine_name(level):
    return "gnubg %s" % level


@click.command()
@click.option("--sim", is_flag=True, help="On a fresh virtual board (with --autoplay).")
@click.option("--autoplay", is_flag=True,
              help="With --sim: simulated hands play the person's side and move the "
                   "engine's checkers as the board guides them; exit 0 when done.")
@port_option
@click.option("--side", type=click.Choice(["white", "black"]), default="black",
              show_default=True, help="The engine's side.")
@click.option("--level", type=click.Choice(list(LEVELS)), default=DEFAULT_LEVEL,
              show_default=True, help="gnubg's strength (its predefined settings).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="With --sim: sensors, dice and the simulated hands.")
@click.option("--match", "length", type=click.IntRange(1, 64), default=None, metavar="N",
              help="An N-point match (with --autoplay: default 3; on a board: started "
                   "now, else the engine plays the match or session in progress).")
@click.option("--games", type=click.IntRange(1, 10000), default=None, metavar="K",
              help="With --autoplay: a money session of K games instead of a match.")
@click.option("--log", "log_dir", type=click.Path(file_okay=False), default=None,
              help="With --autoplay: record the journal, .mat and .sgf into this folder. "
                   "On a board: where each match played here goes when it ends (.mat, .sgf "
                   "and gnubg's analysis; default %s)." % MATCHES_DIR.replace(
                       os.path.expanduser("~"), "~"))
@click.option("--analysis/--no-analysis", default=True, show_default=True,
              help="gnubg analyses each match when it ends (NAME.analysis.json and .html "
                   "beside its .mat; on a board the page links to it).")
@click.option("--wait", "grace", type=click.FloatRange(0), default=None,
              help="Seconds the person's finished play stands before the engine throws "
                   "(default 1.5 on a board, 0 with --autoplay).")
@click.option("--wrong-pct", type=click.IntRange(0, 100), default=0, show_default=True,
              help="With --autoplay: how often the hands first move the engine's checkers "
                   "wrongly (the board must refuse it), then right.")
@click.option("--name", default=None, help="The person's name (default White or Black).")
@click.option("--hint-level", type=click.Choice(list(LEVELS)), default=COACH_LEVEL,
              show_default=True, help="gnubg's strength for the person's hints.")
@click.option("--flash-blunders", is_flag=True,
              help="The board flashes (as for a refusal) when the person's play is very bad.")
@click.option("--view", is_flag=True,
              help="On a board: serve the browser view too, with the coach (a Hint button, "
                   "the top plays, the person's plays rated).")
@click.option("--http-port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="With --view: the web server's port (0: any free one).")
def engine(sim, autoplay, port, side, level, seed, length, games, log_dir, analysis, grace,
           wrong_pct, name, hint_level, flash_blunders, view, http_port):
    """Play against GNU Backgammon on the board: it plays one side, the board shows its
    plays on the LEDs and the person moves its checkers. With --sim --autoplay a whole
    match (or --games K: a money session) on a fresh virtual board, the simulated hands for
    the person."""
    if autoplay and not sim:
        raise click.UsageError("--autoplay goes with --sim")
    if sim and not autoplay:
        raise click.UsageError("--sim plays with --autoplay (or run `bgboard sim --view` "
                               "and `bgboard engine --port` on its port)")
    if sim and port:
        raise click.UsageError("--sim or --port, not both")
    if not autoplay and (wrong_pct or games):
        raise click.UsageError("--games and --wrong-pct go with --autoplay")
    if length and games:
        raise click.UsageError("--match N or --games K, not both")
    if view and autoplay:
        raise click.UsageError("--view goes with a board (--port): `bgboard sim`, then "
                               "`bgboard engine --port PORT --view` plays the virtual one")
    engine_side = 0 if side == "white" else 1
    names = ["White", "Black"]
    if name:
        names[1 - engine_side] = check_name(name, "--name")
    names[engine_side] = engine_name(level)
    eng = Engine(level)
    try:
        eng.start()  # a missing gnubg is said before anything else starts
    except EngineError as e:
        raise click.UsageError(str(e)) from None  # one line, exit 2
    try:
        if autoplay:
            _autoplay(eng, engine_side, seed, length or 3, games, log_dir, tuple(names),
                      wrong_pct, grace or 0.0, flash_blunders, analysis)
        else:
            folder = (log_dir or MATCHES_DIR) if analysis else None
            if view:
                _with_view(eng, engine_side, port, 1.5 if grace is None else grace, length,
                           hint_level, flash_blunders, http_port, tuple(names), folder)
            else:
                _on_board(eng, engine_side, port, 1.5 if grace is None else grace, length,
                          hint_level, flash_blunders, folder, tuple(names))
    except EngineError as e:
        raise click.ClickException(str(e)) from None
    finally:
        eng.close()


def _autoplay(eng, side, seed, length, games, log_dir, names, wrong_pct, grace,
              flash_blunders=False, analysis=True):
    from bgboard.sim_cmd import autoplay_result, check_guided, follow_players, guided_line
    from bgboard.unixport import UnixPortBoard, UnixPortError

    flash = tempfile.mkdtemp(prefix="bgboard-engine-")
    what = ["--games", str(games)] if games else ["--autoplay", str(length)]
    board = UnixPortBoard(flash, ["--seed", str(seed)] + what +
                         ["--engine-side", str(side), "--wrong-pct", str(wrong_pct),
                          "--speed", "0"])
    status = os.path.join(board.flash, "autoplay.json")
    try:
        port = board.start()
    except (OSError, UnixPortError) as e:
        shutil.rmtree(flash, ignore_errors=True)
        raise click.ClickException("cannot start the virtual board: %s" % e) from None
    click.echo("port: %s" % port)
    stop_on_sigterm()
    drivers = []

    def attach(link):
        drivers.append(EngineDriver(eng, side, link, grace=grace,
                                    flash_blunders=flash_blunders))
        return drivers[0]

    try:
        done = follow_players(board, port, length, games, log_dir, names,
                              lambda: autoplay_result(status), driver=attach)
    except KeyboardInterrupt:
        say("stopped")
        return
    finally:
        board.stop()
        shutil.rmtree(flash, ignore_errors=True)
    d = drivers[0]
    click.echo(d.summary())
    click.echo(d.rated())
    if flash_blunders:
        click.echo("flashed: %d very bad play(s)" % d.flashes)
    click.echo(guided_line(done))
    if d.mismatches:
        raise click.ClickException("the board committed %d engine play(s) other than gnubg's"
                                   % len(d.mismatches))
    check_guided(done)
    if analysis and log_dir:
        for path in done.get("files", []):
            if path.endswith(".mat"):
                analyse_logged(path)


def analyse_logged(path):
    """gnubg's analysis of a logged match, after the logs are closed: its progress and its
    result said; a failure is said in one line and changes nothing else (the logs never
    need it)."""
    from bgboard.analyse_cmd import progress_printer, summary_lines
    from bgboard.analysis import analyse_file

    try:
        summary, json_path, html_path = analyse_file(path, on_progress=progress_printer())
    except Exception as e:  # noqa: B902 - the match is played and logged all the same
        say("warning: no analysis of %s: %s" % (os.path.basename(path), e))
        return False
    for line in summary_lines(summary):
        click.echo(line)
    click.echo("analysis: %s, %s" % (json_path, html_path))
    return True


def _on_board(eng, side, port, grace, length, hint_level=COACH_LEVEL, flash_blunders=False,
              folder=None, names=None):
    from bgboard.link import LinkError

    # sync: the board's journal is read at connect (and after a gap), as the view's link
    # does: a match begun before the engine connected is followed from its first event, so
    # its .mat is written when it ends and the person's plays are rated from the position.
    link = open_link(port, reconnect=True, sync=True,
                     on_problem=lambda t: say("warning: %s" % t))
    driver = EngineDriver(eng, side, link, grace=grace, coach=True, hint_level=hint_level,
                          flash_blunders=flash_blunders, analysis_dir=folder, names=names)
    link.on_event = driver.event
    stop_on_sigterm()  # `kill` stops it as Ctrl-C does: the tallies are said
    try:
        link.connect(wait=True)
        if length:
            from bgboard.link import Refused

            try:
                link.command("new", kind="match", length=length)
            except Refused as e:
                raise click.ClickException(str(e)) from None
        say("gnubg (%s) plays %s; Ctrl-C stops" % (eng.level, ("white", "black")[side]))
        while True:
            link.poll(POLL_S)
            driver.step()
    except KeyboardInterrupt:
        say("stopped")
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()
        click.echo(driver.summary())
        click.echo(driver.rated())


def _with_view(eng, side, port, grace, length, hint_level, flash_blunders, http_port, names,
               folder=None):
    # The view's worker holds the link; the driver plays on it from the worker's thread.
    from bgboard.view import serve

    path = choose_port(port)
    drivers = []
    started = []

    def coach(link, note, changed):
        d = EngineDriver(eng, side, link, say=note, grace=grace, coach=True,
                         hint_level=hint_level, flash_blunders=flash_blunders,
                         on_coach=changed, analysis_dir=folder, names=names)
        if drivers:  # a new link (reconnected): the same tallies go on
            old = drivers[-1]
            d.ratings, d._rated, d.hints = old.ratings, old._rated, old.hints
            d.analysis = old.analysis
        drivers.append(d)
        if length and not started:
            started.append(True)
            d.start_match = length
        return d

    stop_on_sigterm()
    try:
        serve(path, http_port=http_port, names=names, coach=coach, analysis_dir=folder,
              on_ready=lambda url: click.echo("view: %s" % url))
    except KeyboardInterrupt:
        say("stopped")
    finally:
        if drivers:
            click.echo(drivers[-1].summary())
            click.echo(drivers[-1].rated())


COMMANDS = [engine]
