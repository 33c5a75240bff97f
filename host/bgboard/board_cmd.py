"""The commands that talk to the board or work on its journal: ports, monitor, log, export,
send, calibrate. Errors are one line on stderr: exit status 2 for bad input (including a
command the board refuses), 1 when the board cannot be reached or the link fails."""

import contextlib
import json
import os
import sys
import time

import click

from bgboard.events import build_matches, read_journal
from bgboard.link import Link, LinkError, Refused, VersionError
from bgboard.matfile import DEFAULT_NAMES, mat_text
from bgboard.sgf import sgf_text
from bgboard.transport import SerialTransport

PICO_VID = 0x2E8A


class LinkFailure(click.ClickException):
    """The board could not be reached or the link failed: exit status 1."""

    exit_code = 1


def _err(text):
    click.echo("bgboard: %s" % text, err=True)


# --- ports -----------------------------------------------------------------------------------


def list_ports():
    """[(device, description, is_pico)] of the serial ports pyserial sees."""
    from serial.tools import list_ports as lp

    out = []
    for p in sorted(lp.comports(), key=lambda p: p.device):
        vid = getattr(p, "vid", None)
        desc = p.description or ""
        if vid is not None:
            desc = "%04X:%04X %s" % (vid, getattr(p, "pid", 0) or 0, desc)
        out.append((p.device, desc.strip(), vid == PICO_VID))
    return out


def choose_port(port):
    """The port to use: `port` if given, else the one Pico-like board found (said on
    stderr)."""
    if port:
        return port
    picos = [p for p in list_ports() if p[2]]
    if not picos:
        raise LinkFailure("no board found (no USB serial port with vendor ID 2E8A): plug it "
                          "in or give --port (`bgboard ports` lists the ports)")
    if len(picos) > 1:
        raise click.UsageError("several boards found (%s): choose one with --port"
                               % ", ".join(p[0] for p in picos))
    _err("using port %s (%s)" % (picos[0][0], picos[0][1]))
    return picos[0][0]


def port_option(f):
    return click.option("--port", "-p", envvar="BGBOARD_PORT", metavar="PORT",
                        callback=lambda c, p, v: _port_url(v),
                        help="Serial port, PTY or socket://host:port URL; default: the one "
                             "board found (USB vendor ID 2E8A), or $BGBOARD_PORT.")(f)


def _named_port_exists(port):
    # For the commands that wait for a board (log, monitor): a port named but absent at the
    # start is a typo more often than a board about to be plugged in; they reconnect only
    # once they have had it.
    if port and "://" not in port and not os.path.exists(port):
        raise click.BadParameter("%s does not exist: is the board plugged in? (`bgboard "
                                 "ports` lists the ports)" % port, param_hint="--port")


def _port_url(value):
    # A socket:// URL pyserial cannot parse gets a reason of its own, not pyserial's.
    if value and value.startswith("socket://"):
        host, _, port = value[len("socket://"):].partition("/")[0].rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise click.BadParameter("%s: a socket URL is socket://HOST:PORT, the port "
                                     "1-65535" % value)
    return value


def names_options(f):
    f = click.option("--black", default=DEFAULT_NAMES[1], show_default=True,
                     help="Name of player 1 (black, the right column of a .mat).")(f)
    f = click.option("--white", default=DEFAULT_NAMES[0], show_default=True,
                     help="Name of player 0 (white, the left column of a .mat).")(f)
    return f


def _check_name(name, which):
    if ":" in name or "\n" in name or len(name) > 31 or not name.strip():
        raise click.BadParameter("a name of 1 to 31 characters without ':'", param_hint=which)
    return name.strip()


def open_link(port, timeout=5.0, reconnect=False, sync=False, **callbacks):
    url = choose_port(port)

    def opener():
        target = url
        if not port:  # auto-detected: after a replug the board may come back elsewhere
            picos = [p for p in list_ports() if p[2]]
            if len(picos) == 1:
                target = picos[0][0]
        return SerialTransport(target)

    return Link(opener, url, timeout=timeout, reconnect=reconnect, sync=sync, **callbacks)


def _quiet_retries(say):
    """A status callback that tells the first reconnection attempts and then one in 20."""
    import re

    def status(text):
        m = re.search(r"\(attempt (\d+)\)$", text)
        if m is None or int(m.group(1)) <= 3 or int(m.group(1)) % 20 == 0:
            say(text)

    return status


def _connect(link, wait=False):
    try:
        link.connect(wait=wait)
    except LinkError as e:
        link.close()
        raise LinkFailure(str(e))


@click.command()
def ports():
    """List serial ports; boards that look like a Pico running MicroPython (USB vendor ID
    2E8A) are marked with *."""
    found = list_ports()
    if not found:
        click.echo("no serial ports found")
        return
    for device, desc, pico in found:
        click.echo("%s %-20s %s%s" % ("*" if pico else " ", device, desc,
                                      "  [Pico/MicroPython]" if pico else ""))


# --- send --------------------------------------------------------------------------------------


def _run(port, cmd, **args):
    ctx = click.get_current_context(silent=True)
    timeout = 5.0
    while ctx is not None:
        if ctx.params.get("timeout") is not None:
            timeout = ctx.params["timeout"]
        ctx = ctx.parent
    with _session(port, timeout) as link:
        return link.command(cmd, **args)


@contextlib.contextmanager
def _session(port, timeout=5.0):
    """A connected link for one command line: the board's refusal and a lost link are one
    line and exit 2."""
    link = open_link(port, timeout=timeout)
    _connect(link)
    try:
        yield link
    except Refused as e:
        raise click.UsageError(str(e)) from None
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()


def _print_reply(reply):
    out = {k: v for k, v in reply.items() if k not in ("id", "ok")}
    click.echo(json.dumps(out) if out else "ok")


@click.group()
@click.option("--timeout", type=click.FloatRange(0.1, 600), default=5.0, show_default=True,
              metavar="SECONDS", help="How long to wait for the board's answer.")
def send(timeout):
    """Send one command to the board and print its answer (JSON)."""


def _simple(name, doc):
    @send.command(name=name, help=doc)
    @port_option
    def command(port):
        _print_reply(_run(port, name))

    return command


for _name, _doc in (
    ("beaver", "Beaver the double on offer, or the double just taken (money play with "
               "beavers)."),
    ("raccoon", "Raccoon the beaver just made (the doubler; money play with raccoons)."),
    ("accept", "Accept the resignation on offer (after a demand: the resigner agrees)."),
    ("reject", "Reject the resignation on offer (after a demand: the resigner plays on)."),
    ("undo", "Take back the last checker moved this turn."),
    ("void", "The opponent voids the play of the roll (the dice were picked up before it was "
             "finished): the checkers go back, the same player throws again."),
    ("verify", "Compare every slot with the position: prints the missing and extra places."),
    ("state", "Print the board's whole state."),
    ("hello", "Print the board's hello (firmware and protocol versions)."),
    ("dump", "Print the sensor readings (raw, codes, offsets, faulty, confidence)."),
    ("ledtest", "Light every LED in turn."),
):
    _simple(_name, _doc)


@send.command()
@click.argument("dice", nargs=-1, type=int)
@port_option
def roll(dice, port):
    """Throw for the player on roll: `send roll 5 2` with physical dice, `send roll` for the
    board's. In the opening throw the two dice are player 0's then player 1's."""
    if len(dice) not in (0, 2):
        raise click.UsageError("give two dice (e.g. `send roll 5 2`) or none")
    for d in dice:
        if not 1 <= d <= 6:
            raise click.UsageError("a die shows 1 to 6, got %d" % d)
    args = {"dice": list(dice)} if dice else {}
    _print_reply(_run(port, "roll", **args))


@send.command()
@click.argument("dice", nargs=2, type=click.IntRange(1, 6))
@port_option
def rethrow(dice, port):
    """The thrower's dice came to rest cocked: DICE (two numbers) are the throw again, before
    any checker is moved."""
    _print_reply(_run(port, "rethrow", dice=list(dice)))


def _cube(name, doc):
    @send.command(name=name, help=doc)
    @click.option("--member", "-m", metavar="NAME", default=None,
                  help="Chouette: whose stake (see above); default: the only one it can be.")
    @port_option
    def command(member, port):
        args = {"member": _check_name(member, "--member")} if member is not None else {}
        _print_reply(_run(port, name, **args))

    return command


_cube("double", "Offer a double (the player on roll, before rolling). Chouette: with a single "
                "cube the box doubles the whole team, the captain doubles for the team; with "
                "multiple cubes the box doubles --member's cube (none named: every cube it "
                "may double) and a member doubles the box on their own cube (--member).")
_cube("take", "Take the double on offer. Chouette: --member names the member who takes the "
              "box's double, or (multiple cubes) whose double the box takes.")
_cube("drop", "Drop (pass) the double on offer. Chouette: --member as for take.")


@send.command()
@click.argument("name")
@port_option
def partner(name, port):
    """Chouette, before a game: the box takes NAME (a team member) as its partner for that
    game; they share the box's results half and half (needs --partner-from). NAME '*': the
    board draws one by lot among the members other than the captain."""
    _print_reply(_run(port, "partner", member=_check_name(name, "NAME")))


@send.command()
@click.argument("name")
@port_option
def join(name, port):
    """Chouette: NAME joins at the bottom of the rotation (during a game: after it)."""
    _print_reply(_run(port, "join", name=_check_name(name, "NAME")))


@send.command()
@click.argument("name")
@port_option
def leave(name, port):
    """Chouette: NAME leaves; during a game NAME settles as a drop of the present cube (the
    box leaving ends the game: the captain becomes the box); three players stay."""
    _print_reply(_run(port, "leave", name=_check_name(name, "NAME")))


LEVEL_WORDS = {"1": 1, "2": 2, "3": 3, "single": 1, "gammon": 2, "backgammon": 3}


def _level(name, level):
    value = LEVEL_WORDS.get(level.lower())
    if value is None:
        raise click.UsageError("%s 1 (single), 2 (gammon) or 3 (backgammon), got %r"
                               % (name, level))
    return value


@send.command()
@click.argument("level", default="1")
@port_option
def resign(level, port):
    """Offer to resign (the player on roll): 1 or single, 2 or gammon, 3 or backgammon."""
    _print_reply(_run(port, "resign", level=_level("resign", level)))


@send.command()
@click.argument("level", default="2")
@port_option
def demand(level, port):
    """Instead of accepting a resignation, require a higher forfeit (2 or gammon, 3 or
    backgammon); the resigner then accepts (agrees) or rejects (plays on)."""
    _print_reply(_run(port, "demand", level=_level("demand", level)))


def rules_options(f):
    opts = [
        click.option("--opening-rethrow", is_flag=True, default=None,
                     help="Old rule: the first player may throw both dice again."),
        click.option("--shut-out-pass", is_flag=True, default=None,
                     help="A player on the bar against a closed board passes without "
                          "throwing (default: throws, and the roll has no play)."),
        click.option("--dead-cube", is_flag=True, default=None,
                     help="Match: no double once a win on the cube gives the doubler the "
                          "match (gnubg's play; by default only a cube that gives both "
                          "sides the match is dead)."),
        click.option("--holland", is_flag=True, default=None,
                     help="Match: post-Crawford, the trailer doubles only after two rolls "
                          "each."),
        click.option("--crawford/--no-crawford", default=None,
                     help="Match: the Crawford rule (default on)."),
        click.option("--cube-cap", type=int, default=None, metavar="N",
                     help="Highest cube value allowed (a power of 2)."),
        click.option("--automatic-doubles", type=int, default=None, metavar="N",
                     help="Money: opening ties turn the cube, at most N times."),
        click.option("--raccoons", is_flag=True, default=None,
                     help="Money: the doubler may redouble a beaver at once."),
        click.option("--beavers", is_flag=True, default=None,
                     help="Money: the taker may redouble at once and keep the cube."),
        click.option("--jacoby/--no-jacoby", default=None,
                     help="Money: gammons count single while the cube is centred."),
    ]
    for o in opts:
        f = o(f)
    return f


def _rules(kind, opts):
    from bgcore import Rules

    given = {k: v for k, v in opts.items() if v is not None}
    try:
        rules = Rules(**given)
        if kind == "match":
            rules.check_match()
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return given


@send.group(name="new")
def new():
    """Start a new match, money session or chouette (the board then asks for the starting
    position)."""


@new.command(name="match")
@click.argument("length", type=int)
@rules_options
@port_option
def new_match(length, port, **opts):
    """A match to LENGTH points."""
    if not 1 <= length <= 32767:
        raise click.UsageError("a match is played to 1 to 32767 points, got %d" % length)
    options = _rules("match", opts)
    _print_reply(_run(port, "new", kind="match", length=length, options=options))


@new.command(name="money")
@click.option("--games", type=click.IntRange(1, 255), default=None, metavar="N",
              help="A match over N games decided by the total points (match play's rules: "
                   "no Jacoby, beavers or automatic doubles).")
@rules_options
@port_option
def new_money(port, games, **opts):
    """A money session (games scored one by one, no match length), or with --games a match
    over that many games, decided by the total."""
    options = _rules("match" if games else "money", opts)
    extra = {"games": games} if games else {}
    _print_reply(_run(port, "new", kind="money", options=options, **extra))


@new.command(name="chouette")
@click.option("--players", required=True, metavar="A,B,C,...",
              help="Three or more names, comma-separated, highest rank first: the first is "
                   "the box, the second the captain.")
@click.option("--single-cube", is_flag=True,
              help="One cube for the team (each member takes or drops the box's double); "
                   "default: multiple cubes, one per member.")
@click.option("--partner-from", type=int, default=None, metavar="N",
              help="With N (6 or 8) or more players the box may take a partner (`send "
                   "partner NAME`).")
@click.option("--partner-by", type=click.Choice(["rotation", "lot", "beaten"]), default=None,
              help="How the box's partner is chosen: offered in rotation from the captain "
                   "(default; `send partner '*'` draws by lot when nobody accepts), by lot "
                   "among the members other than the captain, or the player just beaten.")
@click.option("--consult", type=click.Choice(["free", "none", "cube"]), default=None,
              help="May the team consult on the play: freely (default), never, or once the "
                   "cube is turned (`state` says whether it may now).")
@rules_options
@port_option
def new_chouette(players, single_cube, partner_from, partner_by, consult, port, **opts):
    """A chouette: the box (white) against a team whose captain plays black's checkers;
    every member answers the box's doubles on their own. Results are settled per member
    and the line-up rotates after each game."""
    from bgcore import Chouette, Rules

    names = [_check_name(n, "--players") for n in players.split(",")]
    options = _rules("money", opts)
    try:
        Chouette(names, Rules(**options), not single_cube, partner_from, consult or "free",
                 partner_by or "rotation")
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    options["multiple_cubes"] = not single_cube
    if partner_from is not None:
        options["partner_from"] = partner_from
    for k, v in (("consult", consult), ("partner_by", partner_by)):
        if v is not None:
            options[k] = v
    _print_reply(_run(port, "new", kind="chouette", players=names, options=options))


# --- calibrate --------------------------------------------------------------------------------


def _ask(step, prompt, yes):
    """Say what to do; wait for Enter unless --yes."""
    click.echo(step)
    if not yes:
        click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")


@click.command()
@port_option
@click.option("--yes", "-y", is_flag=True, help="Do not wait for Enter: the board is ready.")
@click.option("--no-save", is_flag=True, help="Measure and report, but do not store.")
def calibrate(port, yes, no_save):
    """Calibrate the sensors: with the board empty, measure every slot's zero level and
    report slots that look faulty; with the starting position set up, measure the
    sensitivity of the slots holding a checker; store the result on the board."""
    progress = {"last": None}

    def on_live(msg):
        if msg.get("live") in ("calibrate", "calibration", "progress"):
            pct = msg.get("progress", msg.get("percent"))
            if pct is not None and pct != progress["last"]:
                progress["last"] = pct
                click.echo("  measuring... %s%%" % pct, err=True)

    link = open_link(port, timeout=60.0, on_live=on_live)
    _connect(link)
    try:
        _ask("Step 1 of 4: take every checker off the board (the tray too) and keep "
             "magnets and phones away.", "Press Enter when the board is empty", yes)
        click.echo("Measuring the empty board...")
        reply = link.command("calibrate", step="empty")
        faulty = [f[0] if isinstance(f, list) else f for f in reply.get("faulty") or []]
        if faulty:
            click.echo("Slots that look faulty: %s (check their sensors and wiring)"
                       % ", ".join(str(s) for s in faulty))
        else:
            click.echo("Every slot reads as expected.")
        click.echo("Step 2 of 4: checking what the board now sees...")
        dump = link.command("dump")
        codes = dump.get("codes") or []
        seen = [i for i, c in enumerate(codes) if c]
        if seen:
            click.echo("The board still senses something on slots %s: clear them and "
                       "calibrate again" % ", ".join(str(i) for i in seen[:32]))
        else:
            click.echo("The empty board reads as empty.")
        _ask("Step 3 of 4: set up the starting position, one checker per slot from the edge "
             "of each point (2, 3 or 5 checkers in a row).",
             "Press Enter when the checkers stand", yes)
        click.echo("Measuring one checker on each of 30 slots...")
        reply = link.command("calibrate", step="checkers")
        suspect = reply.get("suspect") or []
        for slot, why in suspect:
            click.echo("Slot %s: %s (check the magnet, the sensor's height, its wiring)"
                       % (slot, why))
        click.echo("%d slots measured, %d suspect." % (reply.get("measured", 0), len(suspect)))
        if no_save:
            click.echo("Step 4 of 4: not stored (--no-save).")
            return
        click.echo("Step 4 of 4: storing the calibration on the board...")
        link.command("calibrate", step="save")
        click.echo("Calibration stored.%s" % (" Faulty slots: %s."
                                               % ", ".join(str(s) for s in faulty)
                                               if faulty else ""))
    except Refused as e:
        raise click.UsageError(str(e)) from None
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()


# --- export ----------------------------------------------------------------------------------


@click.command(name="export")
@click.argument("journal", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["mat", "sgf"]), default=None,
              help="mat: Jellyfish .mat text (gnubg `import mat`); sgf: SGF GM[6] (gnubg "
                   "`load match`).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: standard output).")
@click.option("--match", "which", type=int, default=None, metavar="N",
              help="Which match or session of the journal (1 the first; default the last).")
@names_options
def export(journal, fmt, output, which, white, black):
    """Rebuild the .mat or SGF file of a match from a journal (`bgboard log`'s
    journal.jsonl, or any file of event lines)."""
    if fmt is None:
        raise click.UsageError("say which file to build: --format mat or --format sgf")
    names = (_check_name(white, "--white"), _check_name(black, "--black"))
    problems = []
    try:
        with open(journal, encoding="utf-8", errors="replace") as f:  # a damaged line: skipped
            events = read_journal(f, problems)
    except (OSError, UnicodeDecodeError) as e:
        raise click.UsageError("cannot read %s: %s" % (journal, e)) from None
    matches = [m for m in build_matches(events, problems) if m.games]
    if not matches:
        raise click.UsageError("%s holds no game%s" % (
            journal, " (%d problem(s): %s)" % (len(problems), problems[0]) if problems else ""))
    for p in problems:
        _err("warning: %s" % p)
    if which is None:
        if len(matches) > 1:
            _err("%s holds %d matches or sessions: exporting the last (choose with --match N)"
                 % (journal, len(matches)))
        match = matches[-1]
    else:
        if not 1 <= which <= len(matches):
            raise click.UsageError("--match %d: %s holds %d match(es) or session(s)"
                                   % (which, journal, len(matches)))
        match = matches[which - 1]
    text = mat_text(match, names) if fmt == "mat" else sgf_text(match, names)
    if output:
        from bgboard.recorder import write_atomic

        try:
            write_atomic(output, text)
        except OSError as e:
            raise click.BadParameter("cannot write %s: %s" % (output, e.strerror or e),
                                     param_hint="--output") from None
    else:
        click.echo(text, nl=False)


# --- log ---------------------------------------------------------------------------------------


@click.command(name="log")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder for journal.jsonl and the .mat and .sgf files.")
@port_option
@names_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the events.")
def log(out_dir, port, white, black, quiet):
    """Record everything the board commits into a folder: the raw event journal (JSON
    lines) and one .mat and .sgf per match, rewritten as games progress. Reconnects by
    itself when the link drops; started again on the same folder, it goes on where it
    stopped. Stop it with Ctrl-C."""
    from bgboard.monitor import View
    from bgboard.recorder import Recorder

    _named_port_exists(port)
    names = (_check_name(white, "--white"), _check_name(black, "--black"))
    view = View(names)
    try:
        rec = Recorder(out_dir, names, on_problem=lambda t: _err("warning: %s" % t))
    except OSError as e:
        raise click.UsageError("cannot record into %s: %s" % (out_dir, e)) from None

    def on_event(ev):
        rec.on_event(ev)
        view.apply(ev)
        if not quiet:
            click.echo("%6d  %s" % (ev["seq"], view.last[-1]))

    link = open_link(port, reconnect=True, sync=True,
                     on_status=_quiet_retries(_err),
                     on_problem=lambda t: _err("warning: %s" % t))
    rec.attach(link)
    link.on_event = on_event
    _err("recording into %s (from seq %d)" % (out_dir, rec.last_seq))
    try:
        _connect(link, wait=True)
        while True:
            try:
                link.poll(1.0)
            except LinkError as e:
                if isinstance(e, VersionError):
                    raise
                _err("warning: %s" % e)
                time.sleep(0.5)
    except KeyboardInterrupt:
        _err("stopped; recorded up to seq %d" % rec.last_seq)
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()
        rec.close()


# --- monitor --------------------------------------------------------------------------------


@click.command()
@port_option
@names_options
@click.option("--once", is_flag=True, help="Print the view once (after reading the board's "
                                          "journal) and exit.")
@click.option("--events", "keep", type=int, default=8, show_default=True,
              help="How many of the last events to show.")
def monitor(port, white, black, once, keep):
    """Show the board live: position, dice, cube, score, the last events and sensor
    problems, redrawn as events arrive. Ctrl-C to quit."""
    from bgboard.monitor import View

    _named_port_exists(port)
    names = (_check_name(white, "--white"), _check_name(black, "--black"))
    view = View(names, keep=keep)
    changed = {"yes": True}

    def on_event(ev):
        view.apply(ev)
        changed["yes"] = True

    def on_live(msg):
        view.apply_live(msg)
        changed["yes"] = True

    def on_status(text):
        view.status = text
        changed["yes"] = True
        if not sys.stdout.isatty():
            _err(text)

    link = open_link(port, reconnect=not once, sync=True, on_event=on_event, on_live=on_live,
                     on_status=_quiet_retries(on_status),
                     on_problem=lambda t: view.problems.append(t))
    tty = sys.stdout.isatty() and not once
    try:
        _connect(link, wait=not once)
        try:
            view.board_state = link.command("state")
        except (Refused, LinkError):
            pass  # the events alone still make the view
        if once:
            click.echo(view.render())
            return
        while True:
            if changed["yes"]:
                changed["yes"] = False
                text = view.render()
                if tty:
                    click.echo("\x1b[H\x1b[2J" + text)
                else:
                    click.echo(text + "\n")
            try:
                link.poll(0.25)
            except LinkError as e:
                if isinstance(e, VersionError):
                    raise
                view.status = str(e)
                changed["yes"] = True
    except KeyboardInterrupt:
        pass
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()


@click.command()
@port_option
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Folder to save them in.")
def kept(port, out_dir):
    """Download the journals the board has kept aside (damaged, or no longer replayable
    after a firmware update: its hello names them) into a folder. `bgboard export` reads
    them."""
    import base64

    with _session(port) as link:
        files = link.command("kept")["files"]
        if not files:
            click.echo("the board keeps no journal aside")
            return
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise click.BadParameter("cannot make %s: %s" % (out_dir, e.strerror),
                                     param_hint="--output") from None
        for name, size in files:
            data = bytearray()
            while len(data) < size:
                page = base64.b64decode(link.command("kept", name=name,
                                                     offset=len(data))["data"])
                if not page:
                    break  # it shrank under us: what there was
                data += page
                _err("%s: %d of %d bytes" % (name, len(data), size))
            path = os.path.join(out_dir, name)
            try:
                with open(path + ".tmp", "wb") as f:  # the bytes as they are: damage too
                    f.write(data)
                os.replace(path + ".tmp", path)
            except OSError as e:
                raise click.BadParameter("cannot write %s: %s" % (path, e.strerror),
                                         param_hint="--output") from None
            click.echo("%s (%d bytes)" % (path, len(data)))


COMMANDS = [ports, monitor, log, export, send, calibrate, kept]
