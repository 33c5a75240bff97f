r"""The virtual board behind a serial line: the firmware application (board.app.App) on
simulated hardware (sim.virtual_board.VirtualBoard), speaking docs/protocol.md over this
process's stdin/stdout as a Pico speaks it over USB serial. Runs on the MicroPython unix
port and on CPython:

  MICROPYPATH=build/bytecode micropython -X heapsize=256K firmware/sim/main_unix.py \
      --flash DIR [--seed N] [--speed X] [--autoplay LENGTH [--matches N] | --games K]

--flash DIR: the board's flash (created if missing: journal, calibration). --seed: sensors,
dice and hands. --speed: simulated time runs X times real time (default 1; 0: as fast as
the machine goes while the players play, real time when they are done). --autoplay LENGTH:
simulated players (sim.autoplay) play N matches of LENGTH points on the board (default 1
match; --games K: a money session of K games instead; --double-pct, --take-pct as
sim.autoplay.Autoplay takes them) while the host
watches (--engine-side S: the host's engine plays side S, the players only the other and
carry out the plays the board guides; --wrong-pct: how often they first make another
play with the engine's checkers, as sim.engine_autoplay says); a {"live": "autoplay", ...}
line reports after each game and at the end (and autoplay.json in the flash folder).
--journal-bytes: the journal's budget on flash. The host may send commands at any time.

Ctrl-C works as on a Pico: SIGINT, or the byte 0x03 on the line, raises KeyboardInterrupt
(the REPL's interrupt character is never disabled). The process ends when its stdin ends
(the other side of the line is gone for good)."""

import io
import json
import sys
import time

from board.app import CALIBRATION, JOURNAL_BYTES, App, Hardware
from board.controller import IDLE
from board.storage import FlashStorage
from bgwire import MAX_LINE
from bgwire.lines import LineReader
from bgwire.sim import is_sim
from sim.control import SimControl
from sim.hw import SimButtons, SimLeds
from sim.virtual_board import VirtualBoard
from sim.world import World

CTRL_C = 3
AUTOPLAY = "autoplay.json"  # the simulated players' figures, in the flash folder
PHYSICAL = "sim-board.json"  # which simulated physical board the flash folder belongs to
CHUNK = 256


class Gone(BaseException):
    """The line's other side closed it for good (stdin ended). Not an Exception: like a
    Pico's KeyboardInterrupt it ends the loop, which survives every fault."""


def _ticks():
    # Real milliseconds: time.ticks_ms on MicroPython, time.monotonic on CPython.
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()  # type: ignore[attr-defined]
    return int(time.monotonic() * 1000)  # type: ignore[attr-defined]


def _since(t0):
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(time.ticks_ms(), t0)  # type: ignore[attr-defined]
    return _ticks() - t0


class StdioLink(io.IOBase):
    """board.hw.SerialLink over stdin/stdout. Reads what has arrived without blocking (poll)
    into lines with the contract's reader (bgwire.lines: bounded, as drivers/usb_link.py on
    a Pico). Writes go out a line at a time."""

    def __init__(self, stdin=None, stdout=None):
        import select

        self._in = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
        self._out = stdout if stdout is not None else getattr(sys.stdout, "buffer", sys.stdout)
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._read1 = None  # CPython: os.read, one read that never waits (nothing buffered)
        try:
            import os
            read = getattr(os, "read", None)
            if read is not None:
                fd = self._in.fileno()  # type: ignore[attr-defined]
                self._read1 = lambda n: read(fd, n)
        except (AttributeError, OSError, ValueError):
            pass
        self._reader = LineReader()
        self._ready = []  # complete lines not yet taken
        self._outbuf = bytearray()
        self._eof = False
        # sim lines (sim.control) go to the simulated hardware, never to the firmware
        self.sim = None  # type: SimControl | None

    def wait(self, ms):
        """Sleep up to ms, waking as soon as something arrives."""
        if not self._ready:
            self._poll.poll(max(0, int(ms)))

    def _fill(self):
        # Take what has arrived (CPython: a chunk at a time; MicroPython: a byte at a time, as
        # drivers/usb_link.py does on the Pico) into complete lines.
        while len(self._ready) < 4 and self._poll.poll(0):
            try:
                if self._read1 is not None:
                    data = self._read1(CHUNK)
                    n = len(data)
                else:  # MicroPython: a read waits until it has all it asked for
                    data = self._in.read(1)
                    n = len(data)
            except OSError:
                n = 0  # a PTY whose other side is closed: EIO
            if not n:
                self._eof = True
                return
            self._take(data, n)

    def _take(self, data, n):
        take = self._reader.take
        for i in range(n):
            c = data[i]
            if c == CTRL_C:
                raise KeyboardInterrupt  # as MicroPython's USB serial does on a Pico
            line = take(c)
            if line is not None:
                self._ready.append(line)

    def readline(self):
        if not self._ready and not self._eof:
            self._fill()
        while self._ready:
            line = self._ready.pop(0)
            if self.sim is None or not is_sim(line):
                return line
            self.sim.handle(line)
        if self._eof:
            raise Gone()
        return None

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        buf = self._outbuf
        buf.extend(data)
        if b"\n" in data or len(buf) > 2 * MAX_LINE:
            self._out.write(bytes(buf))
            flush = getattr(self._out, "flush", None)
            if flush is not None:
                flush()
            self._outbuf = bytearray()
        return len(data)


class SerialBoard(VirtualBoard):
    """A virtual board whose scans keep pace with real time (x speed; 0: unpaced)."""

    def __init__(self, link, speed=1.0, **kw):
        self.link = link
        self.speed = speed
        self._t0 = _ticks()
        self._sim_ms = 0
        VirtualBoard.__init__(self, **kw)

    def scan(self):
        VirtualBoard.scan(self)
        if not self.speed:
            return
        self._sim_ms += self.scan_ms
        ahead = self._sim_ms / self.speed - _since(self._t0)
        if ahead > 0:
            self.link.wait(ahead)
        elif ahead < -500:  # too far behind (a slow machine): do not rush to catch up
            self._t0 = _ticks()
            self._sim_ms = 0

    def pace(self, speed):
        self.speed = speed
        self._t0 = _ticks()
        self._sim_ms = 0


def _pinmap_leds(path):
    with open(path) as f:
        return {"leds": json.load(f)["leds"]}


def _default_pinmap():
    here = __file__ if "__file__" in globals() else ""
    parts = here.replace("\\", "/").split("/")
    root = "/".join(parts[:-3]) if len(parts) > 3 else "."
    return (root or ".") + "/hardware/pinmap.json"


def app_factory(storage, link, pinmap, journal_bytes=JOURNAL_BYTES):
    """VirtualBoard's app factory: the firmware App on the virtual board's clock, sensors and
    dice, with the factory calibration (the virtual board's) on flash at first start."""
    def make(vb):
        if storage.read(CALIBRATION) is None:
            storage.write(CALIBRATION, json.dumps(
                {"offsets": list(vb.offsets), "faulty": [s for s, _ in vb.faulty]}).encode())
        leds = SimLeds(pinmap["leds"]["count"])
        hw = Hardware(vb.model, vb.clock, vb.dice, storage, link, leds, SimButtons(), pinmap)
        return App(hw, vb.buf, journal_bytes)
    return make


class Options:
    def __init__(self):
        self.flash = None
        self.seed = 1
        self.speed = 1.0
        self.autoplay = 0
        self.matches = 1
        self.games = 0
        self.double_pct = 8
        self.take_pct = 70
        self.clumsy = 20
        self.engine_side = -1  # the host's engine plays this side (sim.engine_autoplay)
        self.wrong_pct = 0
        self.journal_bytes = JOURNAL_BYTES
        self.pinmap = None


_NUMBERS = {"--seed": int, "--speed": float, "--autoplay": int, "--matches": int, "--games": int,
            "--double-pct": int, "--take-pct": int, "--clumsy": int, "--journal-bytes": int,
            "--engine-side": int, "--wrong-pct": int}


def parse_args(argv):
    """Options from the command line (argv without the program); ValueError if wrong."""
    o = Options()
    i = 0
    while i < len(argv):
        key = argv[i]
        if i + 1 >= len(argv):
            raise ValueError("%s needs a value" % key)
        value = argv[i + 1]
        i += 2
        if key == "--flash":
            o.flash = value
        elif key == "--pinmap":
            o.pinmap = value
        elif key in _NUMBERS:
            setattr(o, key[2:].replace("-", "_"), _NUMBERS[key](value))
        else:
            raise ValueError("unknown option %s" % key)
    if o.flash is None:
        raise ValueError("--flash DIR is required")
    if o.speed < 0 or o.autoplay < 0 or o.matches < 0 or o.games < 0:
        raise ValueError("--speed, --autoplay, --matches and --games are not negative")
    if o.autoplay and o.games:
        raise ValueError("--autoplay LENGTH plays matches, --games K a money session: one")
    return o


def autoplay(vb, o):
    """Simulated players play o.matches matches of o.autoplay points (or a money session
    of o.games games), then stop."""
    if o.engine_side >= 0:  # one side is the host's engine: the person plays the other
        from sim.engine_autoplay import EngineAutoplay

        ap = EngineAutoplay(vb, o.engine_side, o.wrong_pct, seed=o.seed,
                            double_pct=o.double_pct, take_pct=o.take_pct)
    else:
        from sim.autoplay import Autoplay

        ap = Autoplay(vb, seed=o.seed, double_pct=o.double_pct, take_pct=o.take_pct)
    games = 0
    if o.games:
        if not _begin(vb, ap, 0, 0):
            return
        while ap.games < o.games:
            ap.step()
            if ap.games != games:
                games = ap.games
                _report(vb, ap, 0, ap.games >= o.games)
        return
    for m in range(o.matches):
        if not _begin(vb, ap, o.autoplay, m):
            return
        while vb.board.phase != IDLE:
            ap.step()
            if ap.games != games:
                games = ap.games
                _report(vb, ap, m + 1, False)
    _report(vb, ap, o.matches, True)


def _begin(vb, ap, length, played):
    # A new match, or the board's refusal (the archive full: no host has stored the past
    # matches) reported as the players' end, so that the host stops with it.
    from board.controller import NotCommitted

    try:
        vb.board.new_match(length)
    except NotCommitted as e:
        _report(vb, ap, played, True, "the board refused match %d: %s" % (played + 1, e))
        return False
    return True


def _report(vb, ap, matches, done, error=None):
    # To the host as a live line, and beside the flash's files (the sim's, not the board's)
    # for whoever runs the simulation: a host that connects late misses the line.
    msg = {"live": "autoplay", "done": done, "matches": matches, "games": ap.games,
           "plays": ap.plays, "mismatches": len(ap.mismatches), "stuck": ap.stuck}
    if error:  # the board refused (it runs on): the host logs what it has, then stops
        msg["error"] = error
        msg["refused"] = True
    if hasattr(ap, "guided"):  # against the host's engine
        msg.update(guided=ap.guided, lit=ap.lit, unlit=ap.unlit, wrong=ap.wrong,
                   wrong_shown=ap.wrong_shown, wrong_refused=ap.wrong_refused)
    vb.app.hw.storage.write(AUTOPLAY, json.dumps(msg).encode())
    vb.app.protocol.send(msg)


def run(o, link=None):
    link = link if link is not None else StdioLink()
    storage = FlashStorage(o.flash)
    pinmap = _pinmap_leds(o.pinmap or _default_pinmap())
    vb = SerialBoard(link, speed=o.speed, seed=o.seed, clumsy=o.clumsy,
                     app=app_factory(storage, link, pinmap, o.journal_bytes),
                     world=World(_physical_seed(storage, o.seed)))
    del pinmap
    app = vb.app
    if app is None:
        raise RuntimeError("the virtual board has no firmware application")
    link.sim = SimControl(vb.table, app.hw.buttons, app.protocol.send)
    try:
        if o.autoplay or o.games:
            autoplay(vb, o)
        vb.pace(o.speed or 1.0)  # the players are done: real time, no busy loop
        while True:
            vb.scan()
    except Gone:
        return 0


def _physical_seed(storage, seed):
    # A flash belongs to one physical board: its sensors stay those of the first start (its
    # calibration on flash was measured on them); a later --seed changes the dice and hands.
    data = storage.read(PHYSICAL)
    try:
        return json.loads(data)["seed"]
    except (TypeError, ValueError, KeyError):  # none yet, or not ours
        storage.write(PHYSICAL, json.dumps({"seed": seed}).encode())
        return seed


def main(argv=None):
    try:
        o = parse_args(sys.argv[1:] if argv is None else argv)
    except ValueError as e:
        sys.stderr.write("main_unix: %s\n" % e)
        return 2
    return run(o)


if __name__ == "__main__":
    sys.exit(main())
