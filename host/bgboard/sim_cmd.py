"""`bgboard sim`: the virtual board (the firmware on the MicroPython unix port, run by
bgboard.unixport) or with --pico an emulated Pico (bgboard.pico), behind a serial port; with
--autoplay the simulated hands play on it and follow_players follows them from the host's
side (`bgboard engine --sim` uses it too). `bgboard flash` is bgboard.flash_cmd."""

import json
import math
import os
import re
import shutil
import tempfile

import click

from bgboard.cli_common import (LinkFailure, check_name, match_length, names_options, open_link,
                                say, stop_on_sigterm)


def _state_dir():
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".local", "state")
    return os.path.join(state, "bgboard")


def default_flash():
    return os.path.join(_state_dir(), "sim-flash")


def default_image():
    return os.path.join(_state_dir(), "pico-flash.img")


# --- sim ---------------------------------------------------------------------------------------


@click.command()
@click.option("--flash", "flash_dir", type=click.Path(file_okay=False), default=None,
              help="The virtual board's flash folder (kept between runs; the firmware is "
                   "installed into it when it has none). Default: %s; with --autoplay a "
                   "new one each run." % default_flash())
@click.option("--seed", type=int, default=1, show_default=True,
              help="Sensors, dice and simulated hands.")
@click.option("--speed", type=click.FloatRange(0), default=None,
              callback=lambda c, p, v: _speed(v),
              help="Simulated time against real time (0: as fast as it goes). Default 1, "
                   "or 0 with --autoplay.")
@click.option("--heap", default="448K", show_default=True, callback=lambda c, p, v: _heap(v),
              help="MicroPython heap (-X heapsize): bytes, or with K or M.")
@click.option("--autoplay", is_flag=True,
              help="Simulated hands play (clumsily: slides, knocks, wrong points corrected); "
                   "exit 0 when done and logged.")
@click.option("--match", "length", callback=match_length, default=None, metavar="N",
              help="With --autoplay: one N-point match (default 5).")
@click.option("--matches", type=click.IntRange(1, 1000), default=1, show_default=True,
              metavar="M", help="With --autoplay: M matches one after another (a day of play; "
                                "not with --pico).")
@click.option("--games", type=click.IntRange(1, 10000), default=None, metavar="K",
              help="With --autoplay: a money session of K games instead.")
@click.option("--log", "log_dir", type=click.Path(file_okay=False), default=None,
              help="With --autoplay: record the journal, .mat and .sgf into this folder.")
@click.option("--hands", type=click.Choice(["white", "black"]), default=None,
              help="With --autoplay: the hands play this side only; the other side is "
                   "played over the port (`bgboard engine --port PORT`), its checkers moved "
                   "by the hands as the board lights them. The port is left free; the "
                   "hands' figures are said when they are done, then the board runs on "
                   "until Ctrl-C.")
@click.option("--wrong-pct", type=click.IntRange(0, 100), default=0, show_default=True,
              help="With --hands: how often the hands first move the other side's "
                   "checkers wrongly (the board must refuse it), then as lit.")
@click.option("--play", "play_here", is_flag=True,
              help="Play on it from this terminal (as `bgboard play`).")
@click.option("--view", is_flag=True,
              help="Serve the browser view of the virtual board (play with the mouse).")
@click.option("--http-port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="With --view: its HTTP port (0: any free one).")
@click.option("--pico", is_flag=True,
              help="An emulated Raspberry Pi Pico (RP2040) running stock MicroPython and "
                   "this firmware, flashed by `bgboard flash` as a real one is.")
@click.option("--image", type=click.Path(dir_okay=False), default=None,
              help="With --pico: its flash image file (kept between runs; a new one gets "
                   "the firmware flashed). Default: %s; with --autoplay a new one each run."
                   % default_image())
@click.option("--uf2", type=click.Path(exists=True, dir_okay=False), default=None,
              envvar="BGBOARD_PICO_UF2",
              help="With --pico: the MicroPython firmware for the Pico (RPI_PICO .uf2; "
                   "env BGBOARD_PICO_UF2).")
@names_options
def sim(flash_dir, seed, speed, heap, autoplay, length, matches, games, log_dir, hands,
        wrong_pct, play_here, view, http_port, pico, image, uf2, white, black):
    """Run the virtual board: the firmware on the MicroPython unix port with simulated
    sensors, LEDs and buttons, behind a serial port (a PTY) that bgboard, mpremote and
    `bgboard flash` use as they would a Pico's. With --pico, the firmware runs on an
    emulated RP2040 instead, drivers and all. The first line printed is `port: PATH`.
    Runs until interrupted (Ctrl-C), or with --autoplay until the game is played."""
    from bgboard.flashlock import FlashBusy
    from bgboard.unixport import UnixPortBoard, UnixPortError

    if not autoplay and (length or games or log_dir or matches > 1):
        raise click.UsageError("--match, --matches, --games and --log go with --autoplay")
    if (length or matches > 1) and games:
        raise click.UsageError("--match N (--matches M) or --games K, not both")
    if pico and matches > 1:
        raise click.UsageError("--matches goes with the virtual board, not --pico")
    if autoplay + play_here + view > 1:
        raise click.UsageError("one of --autoplay, --play and --view")
    if not pico and (image or uf2):
        raise click.UsageError("--image and --uf2 go with --pico")
    if pico and flash_dir:
        raise click.UsageError("--pico keeps its flash in --image FILE, not --flash DIR")
    if hands and not autoplay:
        raise click.UsageError("--hands goes with --autoplay")
    if wrong_pct and not hands:
        raise click.UsageError("--wrong-pct goes with --hands")
    if hands and (log_dir or pico):
        raise click.UsageError("--hands leaves the port to the other side's player: --log "
                               "is that player's (`bgboard engine --port PORT --log DIR`), "
                               "and the emulated Pico's hands play both sides")
    names = (check_name(white, "--white"), check_name(black, "--black"))
    if pico:
        return _sim_pico(image, uf2, seed, speed, autoplay, length, games, log_dir,
                         play_here, view, http_port, names)
    options = ["--seed", str(seed)]
    scratch = None
    if autoplay:
        options += ["--games", str(games)] if games else ["--autoplay", str(length or 5),
                                                          "--matches", str(matches)]
        if hands:  # the board's simulated players leave the other side to the port
            options += ["--engine-side", "1" if hands == "white" else "0",
                        "--wrong-pct", str(wrong_pct)]
        if flash_dir is None:
            flash_dir = scratch = tempfile.mkdtemp(prefix="bgboard-autoplay-")
    options += ["--speed", str(speed if speed is not None else (0 if autoplay else 1))]
    flash_dir = flash_dir or default_flash()
    board = UnixPortBoard(flash_dir, options, heap=heap,
                         on_restart=lambda raw: say("soft reset" + (" (raw REPL)" if raw
                                                                      else "")))
    status = os.path.join(board.flash, "autoplay.json")  # sim/main_unix.py writes it
    try:
        if autoplay and os.path.exists(status):
            os.remove(status)  # an earlier run's figures, "done" before this one starts
        port = board.start()
    except FlashBusy as e:
        raise FlashInUse(str(e)) from None
    except (OSError, UnixPortError) as e:
        raise click.ClickException("cannot start the virtual board: %s" % e) from None
    click.echo("port: %s" % port)
    click.echo("flash: %s" % board.flash, err=True)
    stop_on_sigterm()  # `kill` stops it as Ctrl-C does
    if hands:  # the hands play one side; the port is the other side's player's
        play = lambda: hands_only(board, hands, lambda: autoplay_result(status))  # noqa: E731
    else:
        play = lambda: follow_players(board, port, length or 5, games, log_dir,  # noqa: E731
                                      names, lambda: autoplay_result(status), matches=matches)
    try:
        _run(board, port, autoplay, play_here, view, http_port, names, play)
    finally:
        board.stop()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def _run(board, port, autoplay, play_here, view, http_port, names, play):
    """What `bgboard sim` does once its board runs, until Ctrl-C or the players are done."""
    try:
        if autoplay:
            play()
        elif play_here:
            from bgboard.play_cmd import play_on

            play_on(port)
        elif view:
            from bgboard.view import serve

            serve(port, http_port=http_port, names=names,
                  on_ready=lambda url: click.echo("view: %s (the board in a browser; Ctrl-C "
                                                  "stops it)" % url))
        else:
            say("the board runs; Ctrl-C stops it")
            code = board.wait()
            raise click.ClickException("the board stopped (exit status %s): %s"
                                       % (code, board.stderr()[-500:].strip()))
    except KeyboardInterrupt:
        say("stopped")


def _speed(value):
    # FloatRange lets nan and inf through: neither is a speed a clock can run at.
    if value is not None and not math.isfinite(value):
        raise click.BadParameter("%s is not a speed: a number, 0 or more (0: as fast as it "
                                 "goes)" % value)
    return value


def _heap(value):
    # Checked here: MicroPython's own refusal is three lines and a stopped board.
    if not re.fullmatch(r"[1-9][0-9]*[KkMm]?", value or ""):
        raise click.BadParameter("%r is not a heap size (e.g. 256K, 1M, 300000)" % value)
    return value


# The emulated Pico runs slower than a real one (see the README's figures) and boots the
# firmware from its flash after a flash: its answers may take this long.
PICO_ANSWER_S = 30.0
PICO_BOOT_S = 60.0  # ...and its firmware's first answer after a start, as fast as it goes


class FlashInUse(click.ClickException):
    """Another `bgboard sim` runs on this flash: exit status 2."""

    exit_code = 2


def _sim_pico(image, uf2, seed, speed, autoplay, length, games, log_dir, play_here, view,
              http_port, names):
    from bgboard.flashlock import FlashBusy, FlashLock
    from bgboard.pico import PicoBoard, PicoError

    scratch = None
    if autoplay and image is None:
        scratch = tempfile.mkdtemp(prefix="bgboard-pico-")
        image = os.path.join(scratch, "flash.img")
    image = os.path.abspath(image or default_image())
    os.makedirs(os.path.dirname(image), exist_ok=True)
    try:
        lock = FlashLock(image)
    except FlashBusy as e:
        raise FlashInUse(str(e)) from None
    speed = speed if speed is not None else (0 if autoplay else 1)
    # A new Pico is flashed on emulated time (as fast as it goes: at real time, mpremote's
    # waits run out on a loaded machine) into PARTIAL, renamed to the image once the flash
    # is complete: an image that exists is a flashed one. A run stopped mid-flash leaves
    # only PARTIAL, which the next run flashes again from the start.
    new = not os.path.exists(image)
    partial = image + ".partial"
    board = None
    try:
        if new and os.path.exists(partial):
            os.remove(partial)
        try:
            # The autoplayers' hands are brisk (here only: the emulator is slow): a play
            # takes about half the emulated time.
            board = PicoBoard(partial if new else image, seed=seed, uf2=uf2, brisk=autoplay,
                              speed=0)
            port = board.start()
        except (OSError, PicoError) as e:
            raise click.ClickException("cannot start the emulated Pico: %s" % e) from None
        if board.note:
            say("note: %s" % board.note)
        stop_on_sigterm()
        if new:
            _flash_new_pico(board, port, image)
        # Up to the firmware's first answer as fast as the emulator goes, then at the
        # user's speed: a script that connects as soon as it reads the port finds it free
        # and the firmware answering.
        if not _answers_hello(board):
            say("the firmware on %s does not answer hello: flash it (`bgboard flash --port "
                "%s`), or delete the image and a new one is flashed" % (image, port))
        board.set_speed(speed)
        say("flash image: %s" % board.image)
        click.echo("port: %s" % port)
        players = None
        if autoplay:
            players = _pico_players(board, seed, length or 5, games)
        _run(board, port, autoplay, play_here, view, http_port, names,
             lambda: follow_players(board, port, length or 5, games, log_dir, names,
                                    players.result, timeout=PICO_ANSWER_S))
        if board.memory_errors:
            raise click.ClickException("the Pico ran out of memory (MemoryError)")
    finally:
        if board is not None:
            board.stop()
        if new and os.path.exists(partial):
            os.remove(partial)  # an unfinished flash is never kept
        lock.release()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def _answers_hello(board, timeout=PICO_BOOT_S):
    """Whether the firmware on the emulated Pico answers hello (a line of the harness's own,
    kept from the port) within `timeout` s, trying as it boots."""
    import time

    from bgboard.pico import PicoError, PowerCut

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if board.command({"cmd": "hello"}, timeout=5).get("hello") == "bgboard":
                return True
        except PicoError:
            pass
        except PowerCut:
            return False  # the emulator stopped: the run says why
    return False


def _flash_new_pico(board, port, image):
    """Flash the firmware onto a new emulated Pico (running as fast as it goes) through its
    port, as `bgboard flash` would; then keep its image."""
    from bgboard.flash_cmd import flash_firmware

    say("a new Pico (%s): flashing the firmware first, as fast as the emulator goes; the "
        "port is printed when it is free" % image)
    try:
        flash_firmware(port, None, False, False, summary_err=True)
    except KeyboardInterrupt:
        say("stopped during the first flash: nothing kept, the next run flashes again")
        raise
    except click.ClickException as e:
        e.message += " (nothing kept: the next run flashes a new image again)"
        raise
    os.replace(board.image, image)  # the emulator writes on through its open file
    board.image = image


def _pico_players(board, seed, length, games):
    """The simulated players, in a thread of their own, on the emulated Pico."""
    import threading

    from bgboard.pico import PowerCut
    from bgboard.pico.players import Players

    players = Players(board, seed=seed)
    board.on_line = players.on_line
    done = {}

    def play():
        try:
            board.command({"cmd": "new", "kind": "money"} if games else
                          {"cmd": "new", "kind": "match", "length": length})
            while players.step() and not (games and players.games >= games):
                pass
            done.update(done=True, games=players.games, plays=players.plays,
                        mismatches=len(players.mismatches), stuck=players.stuck)
        except PowerCut:
            done.update(done=True, error="the emulated Pico stopped")
        except Exception as e:  # shown by the follower, not lost in a thread
            done.update(done=True, error="the players failed: %r" % e)

    threading.Thread(target=play, name="pico-players", daemon=True).start()
    players.result = lambda: done or None
    return players


def follow_players(board, port, length, games, log_dir, names, finished, timeout=5.0,
                   matches=1, driver=None):
    """Follow the simulated players through the port (and log), with a progress bar, until
    finished() gives their figures (returned). timeout: for each answer of the board.
    driver(link), if given, makes a player on the host's side (bgboard.engine_driver's
    EngineDriver): its event() sees each event, its step() runs between polls."""
    from bgboard.link import LinkError
    from bgboard.monitor import View

    rec = None
    if log_dir:
        from bgboard.recorder import Recorder

        rec = Recorder(log_dir, names, on_problem=lambda t: say("warning: %s" % t))
    view = View(names)
    link = open_link(port, timeout=timeout, reconnect=True, sync=True,
                     on_problem=lambda t: say("warning: %s" % t))
    if rec is not None:
        rec.attach(link)
    record = link.on_event

    started = [0]  # matches begun: the view shows the last

    player = driver(link) if driver is not None else None

    def on_event(ev):
        if record is not None:
            record(ev)
        view.apply(ev)
        started[0] += ev["ev"] == "match"
        if player is not None:
            player.event(ev)

    link.on_event = on_event
    total = games or length * matches
    label = ("%d money games" % games if games else "%d-point match" % length if matches == 1
             else "%d %d-point matches" % (matches, length))
    try:
        link.connect(wait=True)
        with click.progressbar(length=total, label=label, file=click.get_text_stream("stderr"),
                               show_pos=True) as bar:
            shown = 0
            done = None
            while done is None:
                link.poll(0.5 if player is None else 0.02)
                if player is not None:
                    player.step()
                now = _progress(view, games) + max(started[0] - 1, 0) * length
                if now > shown:
                    bar.update(min(now, total) - shown)
                    shown = min(now, total)
                done = finished()
                if done and done.get("error"):
                    if not done.get("refused"):
                        raise click.ClickException(done["error"])
                    break  # the board refused a new match: what it committed is logged
                    # first, then the refusal said (below)
                if board.wait(0) is not None:
                    raise click.ClickException("the virtual board stopped: %s"
                                               % board.stderr()[-500:].strip())
            if not done.get("error"):
                bar.update(total - shown)
        # everything the board committed, logged: hello says its last seq (`state` would
        # build the whole game, match id included, in a heap a whole match has cut up)
        last = link.command("hello")["seq"]
        while link.last_seq < last:
            link.poll(0.5)
        if done.get("error"):
            raise click.ClickException(done["error"])
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()
        if rec is not None:
            rec.close()
    if rec is not None:
        done["files"] = list(rec.files)  # the .mat and .sgf written
    click.echo("played: %d game(s), %d plays, %d mismatch(es), %d stuck; %d events"
               % (done["games"], done["plays"], done["mismatches"], done["stuck"], last))
    if log_dir:
        click.echo("log: %s" % ", ".join(sorted(os.listdir(log_dir))))
    check_players(done)
    return done


def hands_only(board, side, finished):
    """--hands: the board's simulated hands play `side`, a player on the port the other.
    Their figures are said once finished() gives them (exit 1 when the board committed
    another play than theirs or than the one it lit, or let a wrong one through); the board
    then runs on for the port's player (its last events, a look at the board) until
    Ctrl-C."""
    say("the hands play %s; the other side is played over the port" % side)
    done = None
    while done is None:
        if board.wait(0.2) is not None:
            raise click.ClickException("the virtual board stopped: %s"
                                       % board.stderr()[-500:].strip())
        done = finished()
    click.echo("played: %d game(s), %d plays, %d mismatch(es), %d stuck"
               % (done["games"], done["plays"], done["mismatches"], done["stuck"]))
    click.echo(guided_line(done))
    check_players(done)
    check_guided(done)
    say("the hands are done; the board runs on (Ctrl-C stops it)")
    code = board.wait()
    raise click.ClickException("the board stopped (exit status %s): %s"
                               % (code, board.stderr()[-500:].strip()))


def check_players(done):
    """The simulated players' figures (autoplay.json): exit 1 when the board committed a
    play other than the hands made, or read something else than their play."""
    if done["mismatches"]:
        raise click.ClickException("the board committed %d play(s) the hands did not make"
                                   % done["mismatches"])
    if done["stuck"]:
        raise click.ClickException("the board read something other than the hands' play %d "
                                   "time(s): the checkers were put back as it asked"
                                   % done["stuck"])


def guided_line(done):
    """The hands' figures for the plays the board guided (a player on the host's side)."""
    return ("guided: %d engine play(s) made by the hands as lit (%d checker(s) lit first, "
            "%d not); %d wrong play(s) made on purpose: %d shown as wrong, %d refused" % (
                done.get("guided", 0), done.get("lit", 0), done.get("unlit", 0),
                done.get("wrong", 0), done.get("wrong_shown", 0),
                done.get("wrong_refused", 0)))


def check_guided(done):
    """Exit 1 when a checker of a guided play was moved before the LEDs showed it, or a wrong
    move of the guided side's checkers was not shown as wrong or was committed."""
    if done.get("unlit", 0):
        raise click.ClickException("the LEDs did not show %d of the engine's checkers before "
                                   "they were moved" % done["unlit"])
    if done.get("wrong_shown", 0) != done.get("wrong", 0) or \
            done.get("wrong_refused", 0) != done.get("wrong", 0):
        raise click.ClickException("a wrong move of the engine's checkers was not shown or "
                                   "was committed")


def _progress(view, games):
    # Games finished (money), or the leader's points (a match).
    m = view.match
    if m is None:
        return 0
    if games:
        return sum(1 for g in m.games if g.result is not None)
    return max(m.score)


def autoplay_result(path):
    """The figures the virtual board's simulated players wrote into `path` (its flash's
    autoplay.json) once they are done; None until then."""
    try:
        with open(path) as f:
            msg = json.load(f)
    except (OSError, ValueError):
        return None
    return msg if msg.get("done") else None


COMMANDS = [sim]
