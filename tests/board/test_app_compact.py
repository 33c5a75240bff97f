# The board's loop compacts its journal a step a turn (App.step, and App.run on the device;
# board.compaction) once it passes 5/8 of its budget: no turn does the whole, and a failure
# is told to the host once as a "compact" fault and tried again after the next event.
import json
from array import array

from board.app import App, Hardware
from board.compaction import STEP_LINES
from board.journal import STEPWISE
from board.journal_codec import CHUNK
from board_support import rmtree, tmpdir
from sim.hw import LineLink, SimButtons, SimLeds
from sim.rng import Rng
from sim.sensor_model import SensorModel, SimClock

from faulty_storage import Metered
from test_fault_guard import Watchdog, _faults, _run

BYTES = 4096  # the journal's budget here (the board's is 32 KB)


def _app(storage):
    with open("hardware/pinmap.json") as f:
        leds = json.load(f)["leds"]
    clock = SimClock()
    hw = Hardware(SensorModel(clock, seed=3), clock, Rng(5), storage, LineLink(),
                  SimLeds(leds["count"]), SimButtons(), {"leds": leds}, watchdog=Watchdog())
    app = App(hw, array("H", bytes(256)), journal_bytes=BYTES, archive_bytes=65536)
    app.start()
    return app


def _new(app):
    # A new session by command: one event committed in this turn of the loop.
    app.hw.link.feed(b'{"cmd": "new", "kind": "money"}')
    app.step()


def _past_five_eighths(app):
    j = app.journal
    while j.size * 8 <= BYTES * STEPWISE:
        assert not j.compacting
        _new(app)
    assert j.compacting  # the turn that passed it began one
    return j


def test_the_loop_compacts_the_journal_over_its_turns():
    path = tmpdir("bgboard-app")
    try:
        st = Metered(path)
        app = _app(st)
        j = _past_five_eighths(app)
        last = j.last_seq
        longest = st.longest("journal")
        turns = 1
        most = read = 0
        while j.compacting:
            st.reset()
            app.step()
            turns += 1
            most = max(most, st.bytes_read)
            read += st.bytes_read
        assert j.base_seq == last and j.compact_error is None and j.size <= BYTES // 2
        # A few lines a turn (each read twice at most: board.journal_codec.Lines), and no
        # turn did a quarter of the whole.
        assert most <= STEP_LINES * (2 * longest + CHUNK) + CHUNK, (most, longest)
        assert turns >= 8 and most * 4 < read, (turns, most, read)
        assert [e["seq"] for e in j.since(0)] == list(range(1, last + 1))  # the archive's too
        assert _faults(app.hw.link) == []
    finally:
        rmtree(path)


class _Slow(Metered):
    """A flash whose every file opened takes 2 ms of the board's clock."""

    clock = None

    def open(self, name, mode="rb"):
        if self.clock is not None:
            self.clock.advance(2)
        return Metered.open(self, name, mode)


def test_the_device_loop_compacts_the_journal_over_its_turns():
    # ...and mem tells the longest step, which the loop waited for.
    path = tmpdir("bgboard-app")
    try:
        storage = _Slow(path)
        app = _app(storage)
        clock = storage.clock = app.hw.clock
        j = app.journal
        while (j.size + 300) * 8 <= BYTES * STEPWISE:  # a few events short of 5/8
            _new(app)
        going = [0, 0]
        longest = [0]
        step = j.step

        def counted():  # the turns of App.run that advanced it, and the others
            t = clock.ticks_ms()
            on = step()
            longest[0] = max(longest[0], clock.ticks_diff(clock.ticks_ms(), t))
            going[on] += 1
            return on

        j.step = counted
        for _ in range(4):  # passed during the loop: it compacts then
            app.hw.link.feed(b'{"cmd": "new", "kind": "money"}')
        before = j.last_seq
        _run(app, 200)
        assert j.last_seq == before + 4 and before < j.base_seq <= j.last_seq
        assert j.compact_error is None and not j.compacting and going[1] >= 8, going
        assert [e["seq"] for e in j.since(0)] == list(range(1, j.last_seq + 1))
        assert longest[0] >= 2 and app.command("mem", {})["compact_step_ms"] == longest[0]
    finally:
        rmtree(path)


class _NoRoomForNew(Metered):
    """A flash with no room for journal.new, the next `fail` times it is made."""

    fail = 0

    def open(self, name, mode="rb"):
        if name == "journal.new" and self.fail:
            self.fail -= 1
            raise OSError(28, "no room for journal.new")
        return Metered.open(self, name, mode)


def test_a_failed_compaction_is_told_once_and_tried_again_after_the_next_event():
    path = tmpdir("bgboard-app")
    try:
        st = _NoRoomForNew(path)
        app = _app(st)
        st.fail = 1
        j = _past_five_eighths(app)
        last = j.last_seq
        while j.compacting:
            app.step()
        assert isinstance(j.compact_error, OSError) and j.base_seq < last
        for _ in range(300):  # three seconds: told once, not tried again meanwhile
            app.hw.clock.advance(10)
            app.step()
            assert not j.compacting
        faults = _faults(app.hw.link)
        assert [f["task"] for f in faults] == ["compact"] and "no room" in faults[0]["error"]
        _new(app)  # the next event: it begins again
        while j.compacting:
            app.step()
        assert j.compact_error is None and j.base_seq == last + 1
        assert [e["seq"] for e in j.since(0)] == list(range(1, last + 2))
    finally:
        rmtree(path)


def test_a_fault_in_the_compaction_step_is_told_and_the_loop_goes_on():
    path = tmpdir("bgboard-app")
    try:
        app = _app(Metered(path))

        def broken():
            raise RuntimeError("compaction step")

        app.journal.step = broken
        app.step()  # the virtual board's turn
        _run(app, 150)  # the device's loop, seconds long: told once a second
        faults = _faults(app.hw.link)
        assert len(faults) >= 2 and set(f["task"] for f in faults) == {"compact"}, faults
        assert faults[0]["n"] == 1 and faults[0]["error"] == "RuntimeError: compaction step"
        assert app.faults == 151 and app.hw.watchdog.feeds == 150  # every turn went on
    finally:
        rmtree(path)
