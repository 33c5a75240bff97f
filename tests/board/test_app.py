# The application layer: the host's commands over the serial protocol, on simulated hardware.
import gc
import json
from array import array

from bgcore import Position
from board.app import CALIBRATION, JOURNAL_PAGE, App, Hardware
from board.layout import heights_from_counts
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from sim.faults import fault
from sim.hw import LineLink, SimButtons, SimLeds
from sim.rng import Rng
from sim.sensor_model import SensorModel, SimClock


def load_pinmap():
    # The application reads only the LED section (the drivers take the rest, at start-up).
    with open("hardware/pinmap.json") as f:
        return {"leds": json.load(f)["leds"]}


class Rig:
    def __init__(self, path, pinmap):
        clock = SimClock()
        self.model = SensorModel(clock, seed=3)
        self.link = LineLink()
        self.leds = SimLeds(pinmap["leds"]["count"])
        self.buttons = SimButtons()
        self.hw = Hardware(self.model, clock, Rng(5), FlashStorage(path), self.link, self.leds,
                           self.buttons, pinmap)
        self.app = App(self.hw, array("H", bytes(256)))
        self.app.start()
        self.hello = json.loads(self.link.sent.pop(0).decode())

    def ask(self, msg):
        self.link.feed(json.dumps(msg).encode())
        self.app.step()
        replies = [json.loads(b.decode()) for b in self.link.sent]
        self.link.sent = []
        return replies


def with_rig(test):
    def run():
        path = tmpdir("bgboard-app")
        try:
            test(Rig(path, load_pinmap()), path)
        finally:
            rmtree(path)
    return run


@with_rig
def test_hello_at_start_names_the_journal(rig, path):
    assert rig.hello["hello"] == "bgboard"
    hello = rig.ask({"cmd": "hello"})[0]
    assert hello["hello"] == "bgboard" and hello["protocol"] == 1
    assert hello["seq"] == 0 and hello["journal"] == rig.app.journal.id


@with_rig
def test_a_new_match_is_an_event_and_the_state_says_so(rig, path):
    replies = rig.ask({"cmd": "new", "kind": "match", "length": 5, "id": 1})
    assert replies[0]["ev"] == "match" and replies[0]["seq"] == 1
    assert replies[-1] == {"ok": True, "id": 1}
    state = rig.ask({"cmd": "state"})[0]
    assert state["phase"] == "setup" and state["match"]["length"] == 5 and state["seq"] == 1


@with_rig
def test_bad_settings_are_refused_and_change_nothing(rig, path):
    for msg in ({"cmd": "new", "kind": "match"}, {"cmd": "new", "kind": "chess"},
                {"cmd": "new", "kind": "money", "options": {"wobble": True}},
                {"cmd": "new", "kind": "match", "length": 5, "options": {"jacoby": True}}):
        reply = rig.ask(msg)
        assert len(reply) == 1 and "error" in reply[0], (msg, reply)
    # gnubg plays, imports and analyses matches of 64 points at most (bgcore.match)
    reply = rig.ask({"cmd": "new", "kind": "match", "length": 65})
    assert reply[0]["error"] == "a match is played to 1 to 64 points, got 65", reply
    assert rig.app.journal.last_seq == 0


@with_rig
def test_journal_is_read_in_pages_and_a_lost_past_says_resync(rig, path):
    for _ in range(JOURNAL_PAGE + 2):
        rig.ask({"cmd": "new", "kind": "money"})
    page = rig.ask({"cmd": "journal", "since": 0})[0]
    assert [e["seq"] for e in page["events"]] == list(range(1, JOURNAL_PAGE + 1))
    assert page["more"] is True
    rest = rig.ask({"cmd": "journal", "since": JOURNAL_PAGE})[0]
    assert [e["seq"] for e in rest["events"]] == [JOURNAL_PAGE + 1, JOURNAL_PAGE + 2]
    assert rest["more"] is False
    ahead = rig.ask({"cmd": "journal", "since": 999})[0]
    assert ahead["error"] == "resync" and ahead["last"] == JOURNAL_PAGE + 2
    # The host's ack frees only the archive, and only of this journal's events it can have.
    ident = rig.app.journal.id
    other = rig.ask({"cmd": "ack", "journal": ident + 1, "seq": 1})[0]
    assert other["error"] == "ack: the board's journal is %d, not %d" % (ident, ident + 1)
    beyond = rig.ask({"cmd": "ack", "journal": ident, "seq": 999})[0]
    assert beyond["error"] == "ack: the journal ends at %d" % (JOURNAL_PAGE + 2)
    negative = rig.ask({"cmd": "ack", "journal": ident, "seq": -1})[0]
    assert negative["error"] == "ack: seq is 0 or more, got -1"
    assert rig.ask({"cmd": "ack", "journal": ident, "seq": 3})[0]["first"] == 1


@with_rig
def test_calibration_is_measured_saved_and_loaded_at_power_up(rig, path):
    assert "error" in rig.ask({"cmd": "calibrate", "step": "save"})[0]
    fault(rig.model, 17, "high")
    measured = rig.ask({"cmd": "calibrate", "step": "empty"})[0]
    assert [s for s, _ in measured["faulty"]] == [17]
    assert rig.ask({"cmd": "calibrate", "step": "save"})[0]["saved"] == 128
    offset_3 = rig.app.offsets[3]
    rig.app = None  # power off
    gc.collect()
    again = App(rig.hw, array("H", bytes(256)))
    assert again.faulty == [17]
    assert again.offsets[3] == offset_3
    assert FlashStorage(path).read(CALIBRATION)


@with_rig
def test_dump_shows_raw_and_classified_sensors(rig, path):
    rig.model.set_slot(3, 2)  # a stack of two: 30 counts from the 2/3 boundary
    for _ in range(30):
        rig.hw.clock.advance(10)
        rig.app.scan()
    dump = rig.ask({"cmd": "dump"})[0]
    assert len(dump["raw"]) == 128 and len(dump["codes"]) == 128 and len(dump["offsets"]) == 128
    assert 1800 < dump["raw"][0] < 2300  # an empty slot near mid-scale
    # A digit per slot, 8 counts each: an empty slot is far from any boundary, the stack
    # near one.
    conf = dump["confidence"]
    assert len(conf) == 128 and conf[3] < "9" and conf[:3] + conf[4:] == "9" * 127
    m = rig.app.sensor_loop.sensing.margin(3, dump["raw"][3]) // 8
    assert conf[3] == str(min(m, 9))
    assert dump["learned"] == rig.app.sensor_loop.sensing.learned()  # as calibration.json keeps it


class _Supply:
    plugged = False

    def external(self):
        return self.plugged


@with_rig
def test_led_test_lights_everything_within_the_current_cap(rig, path):
    reply = rig.ask({"cmd": "ledtest"})[0]
    assert reply["leds"] == 152 and reply["ma"] <= 300
    # The cap follows the supply (GP22 on the Pico, board.hw.Supply): 300 mA on USB, 2500
    # mA on the board's own 5 V supply (hardware/pinmap.json), from the next step on.
    supply = _Supply()
    rig.hw.supply = supply
    supply.plugged = True
    rig.app.step()
    ma = rig.ask({"cmd": "ledtest"})[0]["ma"]
    assert 300 < ma <= 2500
    supply.plugged = False  # unplugged while lit: back under the USB cap
    rig.app.step()
    assert rig.ask({"cmd": "ledtest"})[0]["ma"] <= 300


@with_rig
def test_checkers_on_known_slots_measure_each_sensors_sensitivity(rig, path):
    rig.ask({"cmd": "calibrate", "step": "empty"})
    start = Position.initial()
    heights = heights_from_counts(start.mover, start.opponent)
    singles = [s for s in range(128) if heights[s] in (1, -1)]
    weak, strong = singles[0], singles[1]
    rig.model.gains[weak] = 4096 * 35 // 100  # reads a third: no longer sees its checker
    rig.model.gains[strong] = 4096 * 112 // 100
    assert "error" in rig.ask({"cmd": "calibrate", "step": "checkers"})[0]  # board empty
    rig.model.set_counts(start.mover, start.opponent)
    for _ in range(20):
        rig.hw.clock.advance(20)
        rig.app.scan()
    reply = rig.ask({"cmd": "calibrate", "step": "checkers"})[0]
    assert reply["measured"] == 30
    assert [s for s, _ in reply["suspect"]] == [weak]
    gain = rig.app.gains[strong] / 4096
    assert 1.07 < gain < 1.17, gain  # 1.12, give or take noise and neighbours
    assert rig.ask({"cmd": "calibrate", "step": "save"})[0]["saved"] == 128
    assert json.loads(FlashStorage(path).read(CALIBRATION))["gains"][strong] == rig.app.gains[strong]


@with_rig
def test_the_device_loop_runs_scanning_serial_and_leds_as_tasks(rig, path):
    # App.run as main.py runs it: a command is answered by the serial task, the LED frame
    # the new session asks for (where the checkers go) is sent by the LED task and reported
    # to the host, while the scan task reads the sensors.
    import asyncio

    clock = rig.hw.clock
    frames = rig.leds.frames
    reads = [0]  # the scans that read the sensors
    read_into = rig.model.read_into

    def counting(buf):
        reads[0] += 1
        return read_into(buf)

    rig.model.read_into = counting  # the scan task reads rig.hw.scanner, this model
    rig.link.feed(json.dumps({"cmd": "new", "kind": "money", "id": 7}).encode())

    async def time_passes():
        while True:
            clock.advance(10)
            await asyncio.sleep(0.01)

    async def main():
        asyncio.create_task(time_passes())
        try:
            await asyncio.wait_for(rig.app.run(), 0.5)
        except asyncio.TimeoutError:
            pass

    asyncio.run(main())
    replies = [json.loads(b.decode()) for b in rig.link.sent]
    assert [r for r in replies if r.get("id") == 7 and r.get("ok")]
    assert rig.app.renderer.deferred and not rig.app.renderer.pending
    assert rig.leds.frames > frames
    lit = [r["lit"] for r in replies if r.get("live") == "leds"]
    assert lit and sum(len(v) for v in lit[-1].values()) >= 5 * 8  # 8 points to fill
    # 0.5 s of scans every SCAN_MS (10 ms): dozens, not one or two
    assert reads[0] >= 20, reads[0]


@with_rig
def test_a_new_session_shows_at_once_where_the_checkers_go(rig, path):
    # The board is empty and nothing moves: the LEDs still ask for the starting position
    # as soon as the session starts (the board has had its first look at the sensors).
    clock = rig.hw.clock
    for _ in range(30):
        clock.advance(10)
        rig.app.scan()
    assert not any(rig.leds.shown)
    rig.ask({"cmd": "new", "kind": "money"})
    points = load_pinmap()["leds"]["points"]
    lit = [p + 1 for p in range(24) if any(rig.leds.pixel(i) != (0, 0, 0) for i in points[p])]
    assert lit == [1, 6, 8, 12, 13, 17, 19, 24]


@with_rig
def test_a_chouette_is_started_and_answered_by_command(rig, path):
    for msg in ({"cmd": "new", "kind": "chouette"},
                {"cmd": "new", "kind": "chouette", "players": [1, 2, 3]},
                {"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob"]},
                {"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"], "length": 5},
                {"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"],
                 "options": {"multiple_cubes": 1}},
                {"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"],
                 "options": {"beavers": True}},
                {"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"],
                 "options": {"wobble": True}}):
        reply = rig.ask(msg)
        assert len(reply) == 1 and "error" in reply[0], (msg, reply)
    assert rig.app.journal.last_seq == 0
    replies = rig.ask({"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"],
                       "options": {"multiple_cubes": False, "jacoby": True}, "id": 3})
    assert replies[0]["ev"] == "match" and replies[0]["players"] == ["Ann", "Bob", "Cy"]
    assert replies[0]["multiple_cubes"] is False and replies[0]["rules"]["jacoby"] == 1
    assert replies[-1] == {"ok": True, "id": 3}
    state = rig.ask({"cmd": "state"})[0]
    assert state["settings"]["kind"] == "chouette" and state["chouette"]["box"] == "Ann"
    reply = rig.ask({"cmd": "take", "member": "Bob"})[0]
    assert "no double" in reply["error"]
    assert "opening" in rig.ask({"cmd": "double"})[0]["error"]
    assert "partner_from" in rig.ask({"cmd": "partner", "member": "Cy"})[0]["error"]
    assert "member" in rig.ask({"cmd": "drop", "member": 7})[0]["error"]
    assert rig.app.journal.last_seq == 1


@with_rig
def test_mem_tells_the_free_heap_the_least_seen_and_the_largest_block(rig, path):
    (mem,) = rig.ask({"cmd": "mem"})
    if not hasattr(gc, "mem_free"):  # CPython has no such figures
        assert mem["free"] is None and mem["largest"] is None
        return
    assert 0 < mem["largest"] <= mem["free"]
    assert 0 < mem["least_free"] <= mem["free"]  # the least seen counts this moment too
    # The block is there to be had, and nothing much larger is.
    gc.collect()
    hold = bytearray(mem["largest"] - 256)
    del hold
    gc.collect()
    try:
        bytearray(mem["largest"] + 8192)
    except MemoryError:
        pass
    else:
        raise AssertionError("a block larger than %d bytes was free" % mem["largest"])
