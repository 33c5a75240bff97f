"""`bgboard engine`: GNU Backgammon plays one side on the board, on a fresh virtual board with
the simulated hands for the person (--sim --autoplay), on a board behind its port (--port),
or there with the browser view and its coach (--view). The player is
bgboard.engine_driver.EngineDriver (the engine's turns, its cube, the guide on the LEDs),
with its coach (bgboard.engine_coach) and the analysis after a match
(bgboard.engine_analysis).
"""

import os
import shutil
import tempfile

import click

from bgboard.cli_common import (LinkFailure, check_name, check_port, connect, match_length,
                                open_link, port_option, say, stop_on_sigterm)
from bgboard.engine import COACH_LEVEL, DEFAULT_LEVEL, LEVELS, Engine, EngineError
from bgboard.engine_analysis import MATCHES_DIR, analyse_logged
from bgboard.engine_driver import EngineDriver

POLL_S = 0.05  # the link is read this often


def engine_name(level):
    return "gnubg %s" % level


@click.command()
@click.option("--sim", is_flag=True, help="On the virtual board: with --view you play on the "
              "page (its flash kept); with --autoplay a fresh one, the simulated hands play.")
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
@click.option("--match", "length", callback=match_length, default=None, metavar="N",
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
@click.option("--dice", type=click.Choice(["board", "physical"]), default="board",
              show_default=True,
              help="On a board: physical dice for the engine's throws: it asks, the person "
                   "throws for it and types them here (5 2) or on the page (--view), as any "
                   "throw of the person's own; `board`: the board's electronic dice.")
def engine(sim, autoplay, port, side, level, seed, length, games, log_dir, analysis, grace,
           wrong_pct, name, hint_level, flash_blunders, view, http_port, dice):
    """Play against GNU Backgammon on the board: it plays one side, the board shows its
    plays on the LEDs and the person moves its checkers. With --sim --view on the virtual
    board (its flash kept, as `bgboard sim`'s), played on the page; with --sim --autoplay a
    whole match (or --games K: a money session) on a fresh virtual board, the simulated
    hands for the person."""
    if autoplay and not sim:
        raise click.UsageError("--autoplay goes with --sim")
    if sim and not (autoplay or view):
        raise click.UsageError("--sim goes with --view (you play on the page) or --autoplay "
                               "(the simulated hands play)")
    if sim and port:
        raise click.UsageError("--sim or --port, not both")
    if not autoplay and (wrong_pct or games):
        raise click.UsageError("--games and --wrong-pct go with --autoplay")
    if length and games:
        raise click.UsageError("--match N or --games K, not both")
    if view and autoplay:
        raise click.UsageError("--view is for a person to play (on the page); --autoplay "
                               "lets the simulated hands play")
    if dice == "physical" and autoplay:
        raise click.UsageError("--dice physical goes with a board (--port): the person types "
                               "the engine's throws in the terminal or on the page (--view)")
    engine_side = 0 if side == "white" else 1
    names = ["White", "Black"]
    if name:
        names[1 - engine_side] = check_name(name, "--name")
    names[engine_side] = engine_name(level)
    if not sim:  # a port missing, busy or no serial port: said before gnubg starts
        port = check_port(port)
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
            if sim:
                _on_virtual_board(eng, engine_side, 1.5 if grace is None else grace, length,
                                  hint_level, flash_blunders, http_port, tuple(names),
                                  folder, dice == "physical")
            elif view:
                _with_view(eng, engine_side, port, 1.5 if grace is None else grace, length,
                           hint_level, flash_blunders, http_port, tuple(names), folder,
                           dice == "physical")
            else:
                _on_board(eng, engine_side, port, 1.5 if grace is None else grace, length,
                          hint_level, flash_blunders, folder, tuple(names),
                          dice == "physical")
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


def _on_board(eng, side, port, grace, length, hint_level=COACH_LEVEL, flash_blunders=False,
              folder=None, names=None, physical_dice=False):
    from bgboard.engine_coach import CoachError
    from bgboard.link import LinkError, Refused

    # sync: the board's journal is read at connect (and after a gap), as the view's link
    # does: a match begun before the engine connected is followed from its first event, so
    # its .mat is written when it ends and the person's plays are rated from the position.
    link = open_link(port, reconnect=True, sync=True,
                     on_problem=lambda t: say("warning: %s" % t))
    driver = EngineDriver(eng, side, link, grace=grace, coach=True, hint_level=hint_level,
                          flash_blunders=flash_blunders, analysis_dir=folder, names=names,
                          physical_dice=physical_dice)
    link.on_event = driver.event
    typed = TypedLines(click.get_text_stream("stdin")) if physical_dice else None
    stop_on_sigterm()  # `kill` stops it as Ctrl-C does: the tallies are said
    try:
        connect(link)  # a port missing, busy or no serial port: one line, exit 2
        if length:
            try:
                link.command("new", kind="match", length=length)
            except Refused as e:
                raise click.ClickException(str(e)) from None
        say("gnubg (%s) plays %s; Ctrl-C stops" % (eng.level, ("white", "black")[side]))
        if typed is not None:
            say("physical dice: type each throw as two numbers (5 2; the opening throw "
                "white's die first)")
        while True:
            link.poll(POLL_S)
            for line in typed.lines() if typed is not None else ():
                try:
                    driver.enter_dice(parse_dice(line))
                except (ValueError, CoachError, Refused) as e:
                    say("dice %r: %s" % (line, e))
            driver.step()
    except KeyboardInterrupt:
        say("stopped")
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()
        click.echo(driver.summary())
        click.echo(driver.rated())


def parse_dice(text):
    """Two dice from what a person types: "5 2", "5-2", "5,2" or "52"; ValueError."""
    digits = [c for c in text if not c.isspace() and c not in "-,/"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise ValueError("two dice of 1 to 6, as 5 2")
    return [int(digits[0]), int(digits[1])]


class TypedLines:
    """Lines typed on `stream` (stdin), taken without waiting: lines() gives those complete
    so far. An ended stream gives none."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.buf = b""
        self.ended = False

    def lines(self):
        import select

        while not self.ended and select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 4096)
            if not data:
                self.ended = True
            self.buf += data
        *done, self.buf = self.buf.split(b"\n")
        return [d.decode("utf-8", "replace").strip() for d in done if d.strip()]


def _on_virtual_board(eng, side, grace, length, hint_level, flash_blunders, http_port, names,
                      folder, physical_dice):
    """The virtual board on its kept flash (as `bgboard sim` starts it), the page on it."""
    from bgboard.sim_cmd import default_flash
    from bgboard.unixport import UnixPortBoard, UnixPortError

    from bgboard.flashlock import FlashBusy

    board = UnixPortBoard(default_flash(), ["--seed", "1", "--speed", "1"])
    try:
        port = board.start()
    except FlashBusy as e:  # a `bgboard sim` on the same flash: one board per flash
        raise click.UsageError(str(e)) from None
    except (OSError, UnixPortError) as e:
        raise click.ClickException("cannot start the virtual board: %s" % e) from None
    say("the virtual board: port %s, flash %s" % (port, board.flash))
    try:
        _with_view(eng, side, port, grace, length, hint_level, flash_blunders, http_port,
                   names, folder, physical_dice)
    finally:
        board.stop()


def _with_view(eng, side, port, grace, length, hint_level, flash_blunders, http_port, names,
               folder=None, physical_dice=False):
    # The view's worker holds the link; the driver plays on it from the worker's thread.
    from bgboard.view import serve

    path = port  # checked by engine()
    drivers = []
    started = []

    def coach(link, note, changed):
        def tell(text):  # on the page and in the terminal, as without --view
            note(text)
            say(text)

        d = EngineDriver(eng, side, link, say=tell, grace=grace, coach=True,
                         hint_level=hint_level, flash_blunders=flash_blunders,
                         on_coach=changed, analysis_dir=folder, names=names,
                         physical_dice=physical_dice)
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
    say("gnubg (%s) plays %s; Ctrl-C stops" % (eng.level, ("white", "black")[side]))
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
