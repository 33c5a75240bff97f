"""What the `bgboard` commands share: finding the board's serial port (`list_ports`,
`choose_port`, the `--port` option), opening and connecting a link to it (`open_link`,
`connect`, `session`), the players' names (`--white`/`--black`, `check_name`), and how errors
are told: one line on stderr (`say`), exit status 2 for bad input (click's UsageError and
BadParameter, a command the board refuses, a port that is missing, busy or no serial port:
`PortError`, worded by bgboard.transport), 1 when the board does not answer or the link fails
(`LinkFailure`). Commands live in the *_cmd modules; bgboard.cli assembles them."""

import contextlib
import signal

import click

from bgboard.link import Link, LinkError, Refused
from bgboard.matfile import DEFAULT_NAMES
from bgboard.transport import SerialTransport, TransportError

PICO_VID = 0x2E8A


class LinkFailure(click.ClickException):
    """The board does not answer or the link failed: exit status 1."""

    exit_code = 1


class PortError(click.ClickException):
    """The port cannot be opened at the start (missing, busy, not a serial port, no board
    found): bad input, exit status 2, in the same words for every command."""

    exit_code = 2


def say(text):
    """One line on stderr, as `bgboard: text` (errors, warnings and what a command is doing)."""
    click.echo("bgboard: %s" % text, err=True)


# --- ports, the link ------------------------------------------------------------------------


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
        raise PortError("no board found (no USB serial port with vendor ID 2E8A): plug it "
                        "in or give --port (`bgboard ports` lists the ports; `bgboard sim` "
                        "runs a virtual board and prints its port)")
    if len(picos) > 1:
        raise click.UsageError("several boards found (%s): choose one with --port"
                               % ", ".join(p[0] for p in picos))
    say("using port %s (%s)" % (picos[0][0], picos[0][1]))
    return picos[0][0]


def port_option(f):
    """The --port option (-p, $BGBOARD_PORT); None means: auto-detect with choose_port."""
    return click.option("--port", "-p", envvar="BGBOARD_PORT", metavar="PORT",
                        callback=lambda c, p, v: _port_url(v),
                        help="Serial port, PTY or socket://host:port URL; default: the one "
                             "board found (USB vendor ID 2E8A), or $BGBOARD_PORT.")(f)


def check_port(port):
    """The port to use (choose_port's), once opened and closed: a port that is missing, busy
    or no serial port is a PortError (exit 2) before the command does anything else."""
    url = choose_port(port)
    try:
        SerialTransport(url).close()
    except TransportError as e:
        raise PortError(str(e)) from None
    return url


def _port_url(value):
    # A socket:// URL pyserial cannot parse gets a reason of its own, not pyserial's.
    if value and value.startswith("socket://"):
        host, _, port = value[len("socket://"):].partition("/")[0].rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise click.BadParameter("%s: a socket URL is socket://HOST:PORT, the port "
                                     "1-65535" % value)
    return value


def match_length(ctx, param, value):
    """A click callback: a new match's length, checked as the board checks it
    (bgcore.match.check_new_length: one limit, in the same words, everywhere); None stays
    None."""
    from bgcore import RuleError
    from bgcore.match import check_new_length

    if value is None:
        return None
    try:
        value = int(value)
    except ValueError:
        pass  # refused below, in the same words
    try:
        check_new_length(value)
    except RuleError as e:
        raise click.BadParameter(str(e)) from None
    return value


def names_options(f):
    """The --white and --black options: the players' names in the files and views."""
    f = click.option("--black", default=DEFAULT_NAMES[1], show_default=True,
                     help="Name of player 1 (black, the right column of a .mat).")(f)
    f = click.option("--white", default=DEFAULT_NAMES[0], show_default=True,
                     help="Name of player 0 (white, the left column of a .mat).")(f)
    return f


def check_name(name, which):
    """A player's name as the board and the .mat files take it (`which`: the option, for the
    error)."""
    if ":" in name or "\n" in name or len(name) > 31 or not name.strip():
        raise click.BadParameter("a name of 1 to 31 characters without ':'", param_hint=which)
    return name.strip()


def open_link(port, timeout=5.0, reconnect=False, sync=False, **callbacks):
    """A bgboard.link.Link to the board on `port` (chosen by choose_port), not yet connected;
    an auto-detected board is looked for again at each reconnection."""
    url = choose_port(port)

    def opener():
        target = url
        if not port:  # auto-detected: after a replug the board may come back elsewhere
            picos = [p for p in list_ports() if p[2]]
            if len(picos) == 1:
                target = picos[0][0]
        return SerialTransport(target)

    return Link(opener, url, timeout=timeout, reconnect=reconnect, sync=sync, **callbacks)


def quiet_retries(say):
    """A status callback that tells the first reconnection attempts and then one in 20."""
    import re

    def status(text):
        m = re.search(r"\(attempt (\d+)\)$", text)
        if m is None or int(m.group(1)) <= 3 or int(m.group(1)) % 20 == 0:
            say(text)

    return status


def open_port(link):
    """Open `link`'s port now: one that is missing, busy (another bgboard, a serial terminal)
    or no serial port is a PortError (exit 2), never waited for. Only a port the link has had
    is waited for once it goes away (its reconnect)."""
    try:
        link.open()
    except TransportError as e:
        raise PortError(str(e)) from None


def connect(link):
    """Open `link`'s port (open_port) and connect: hello and the journal; a failure then
    closes it and is a LinkFailure (exit status 1)."""
    open_port(link)
    try:
        link.connect()
    except LinkError as e:
        link.close()
        raise LinkFailure(str(e))


@contextlib.contextmanager
def session(port, timeout=5.0, **callbacks):
    """A connected link for one command line: the board's refusal is one line and exit 2,
    a lost link one line and exit 1 (LinkFailure). callbacks: open_link's (on_live...)."""
    link = open_link(port, timeout=timeout, **callbacks)
    connect(link)
    try:
        yield link
    except Refused as e:
        raise click.UsageError(str(e)) from None
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()


def stop_on_sigterm():
    """From now on `kill` (SIGTERM) stops the command as Ctrl-C does (KeyboardInterrupt)."""
    signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame):
    raise KeyboardInterrupt
