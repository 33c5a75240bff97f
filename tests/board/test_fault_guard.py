# No fault ends the device loop (issue #15, item 3): an exception in the sensors, the buttons,
# the board's logic, the serial line or the LEDs is told to the host as a numbered "fault" and
# the loop goes on; the watchdog is armed by the loop and fed on every scan.
import json
from array import array

from board.app import App, Hardware
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from sim.hw import LineLink, SimButtons, SimLeds
from sim.rng import Rng
from sim.sensor_model import SensorModel, SimClock


class Flaky:
    """Wraps a hardware object: its method `name` raises `error` on the calls listed."""

    def __init__(self, inner, name, error, calls):
        self.inner = inner
        self.name = name
        self.error = error
        self.calls = calls
        self.n = 0

    def __getattr__(self, attr):
        fn = getattr(self.inner, attr)
        if attr != self.name:
            return fn

        def flaky(*args):
            self.n += 1
            if self.n in self.calls:
                raise self.error
            return fn(*args)
        return flaky


class FlakyLink(LineLink):
    """A serial link whose readline raises `error` on the calls listed (a stream itself:
    MicroPython's json.dump writes only to one)."""

    def __init__(self, error, calls):
        super().__init__()
        self.error = error
        self.calls = calls
        self.n = 0

    def readline(self):
        self.n += 1
        if self.n in self.calls:
            raise self.error
        return LineLink.readline(self)


class Watchdog:
    def __init__(self):
        self.timeout = None
        self.feeds = 0

    def start(self, timeout_ms):
        self.timeout = timeout_ms

    def feed(self):
        self.feeds += 1

    def stop(self):
        self.timeout = None

    def caused_reset(self):
        return False


def _app(path, wrap, link=None):
    with open("hardware/pinmap.json") as f:
        leds = json.load(f)["leds"]
    clock = SimClock()
    link = link if link is not None else LineLink()
    hw = Hardware(SensorModel(clock, seed=3), clock, Rng(5), FlashStorage(path), link,
                  SimLeds(leds["count"]), SimButtons(), {"leds": leds}, watchdog=Watchdog())
    wrap(hw)
    app = App(hw, array("H", bytes(256)))
    app.start()
    return app, link


class Enough(BaseException):
    """Ends the loop, as a Ctrl-C would (a BaseException: no fault guard catches it)."""


def _run(app, scans):
    # The device's loop itself (App.run), its sleeps advancing the simulated clock; ended
    # once the watchdog has been fed `scans` more times (once a scan), by a BaseException,
    # as a Ctrl-C would end it.
    import asyncio

    clock = app.hw.clock
    wd = app.hw.watchdog
    until = wd.feeds + scans
    yield_now = asyncio.sleep
    live = [True]

    async def sleep_ms(ms):  # each task's sleep moves the clock on, and lets the others run
        if not live[0]:  # a task of an earlier run (MicroPython keeps them): it ends here
            raise asyncio.CancelledError()
        clock.advance(max(ms, 1))
        if wd.feeds >= until:
            raise Enough()
        await yield_now(0)

    asyncio.sleep_ms = sleep_ms  # what App.run awaits (MicroPython's asyncio has it)
    try:
        asyncio.run(app.run())
    except Enough:
        pass
    finally:
        live[0] = False


def _faults(link):
    out = []
    for line in link.sent:
        msg = json.loads(line.decode())
        if msg.get("live") == "fault":
            out.append(msg)
    return out


def test_every_task_survives_its_faults_and_tells_the_host():
    # (hardware, its method, what it raises, on which calls, the faults told: task and n).
    # Calls 3 and 4 fail one after the other: one report (the count says 2), then call
    # 200, seconds later, is reported again, numbered 3.
    again = [(3, 4, 200), [(1, 1), (3, 3)]]
    cases = (("scanner", "read_into", OSError(5), again),
             ("buttons", "pressed", OSError(5), again),
             ("link", "readline", OSError(5), again),
             ("leds", "show", OSError(5), [(1,), [(1, 1)]]),  # the first frame
             ("storage", "append", MemoryError(), [(3, 4, 200), []]))
    for attr, method, error, (calls, told) in cases:
        path = tmpdir("bgboard-faults")
        try:
            def wrap(hw):
                if attr != "link":
                    setattr(hw, attr, Flaky(getattr(hw, attr), method, error, calls))

            app, link = _app(path, wrap, FlakyLink(error, calls) if attr == "link" else None)
            if attr == "storage":  # a failed write while a command commits: refused
                link.feed(b'{"cmd": "new", "kind": "money", "id": 1}')
                link.feed(b'{"cmd": "new", "kind": "money", "id": 2}')
                link.feed(b'{"cmd": "new", "kind": "money", "id": 3}')
            _run(app, 300)  # the loop goes on: call 200 comes
            assert app.hw.watchdog.timeout == 8000  # armed by the loop
            faults = _faults(link)
            if attr == "storage":
                replies = [json.loads(s.decode()) for s in link.sent]
                answers = {r["id"]: r for r in replies if "id" in r}
                assert answers[1].get("ok") and "could not store" in answers[3]["error"]
                assert app.journal.last_seq == 2  # two matches stored, the third refused
                continue
            assert [(f["task"], f["n"]) for f in faults] == [(attr, n) for _, n in told]
            assert "OSError" in faults[0]["error"]
            assert app.faults == len(calls)
        finally:
            rmtree(path)


def test_a_fault_in_the_boards_logic_puts_it_back_to_its_journal():
    path = tmpdir("bgboard-faults")
    try:
        app, link = _app(path, lambda hw: None)
        link.feed(b'{"cmd": "new", "kind": "match", "length": 3, "id": 1}')
        _run(app, 5)
        board = app.board
        before = board.snapshot()
        board.match.game = None  # as a fault would leave it: half changed
        app.hw.buttons.press(2)  # double: raises AttributeError in the board's logic
        _run(app, 50)
        faults = _faults(link)
        assert faults and faults[0]["task"] == "board", faults
        assert app.board.snapshot() == before  # what the journal holds, and going on
        link.feed(b'{"cmd": "state", "id": 2}')  # and it answers
        _run(app, 10)
        assert json.loads(link.sent[-1].decode())["phase"] == "setup"
    finally:
        rmtree(path)
