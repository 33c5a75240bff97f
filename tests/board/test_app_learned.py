# What the sensing learns from play, kept on flash (issue 16: "never brick, never forget"):
# saved with the calibration when a game is over, loaded at power-up, a write that fails told
# and tried again, a damaged file harmless, a new calibration forgetting it. An interpreter
# of its own under MicroPython: the whole application under simulated hands.
import gc
import json
from array import array

from bgcore import Position
from board.app import CALIBRATION, KEEP_RETRY_MS, App, Hardware
from board.layout import SLOTS, heights_from_counts
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from sim.hw import LineLink, SimButtons, SimLeds
from sim.rng import Rng
from sim.sensor_model import SensorModel, SimClock

# Sensors +-10 % apart and a weak set of checkers (-25 %, +-5 % from one to the next), and
# thick ones: the second checker of a stack adds 140 counts, not the design's 177 (the
# level of two is 1000, not 1037).
WEAK = {"gain_spread": 0.10, "offset_spread": 150, "magnets": 0.75, "magnet_spread": 0.05,
        "steps": (860, 140, 50, 8)}
DEFAULT = {"gains": [4096] * SLOTS, "two": 1037 << 3, "coupling": 4096}


def _pinmap():
    with open("hardware/pinmap.json") as f:
        return {"leds": json.load(f)["leds"]}


class Flash(FlashStorage):
    """The flash, whose writes of the calibration fail (a full or worn flash) while `fail`;
    `tries` counts them, `phases` has the board's phase at each (`board`: the board)."""

    def __init__(self, root):
        FlashStorage.__init__(self, root)
        self.fail = False
        self.tries = 0
        self.board = None
        self.phases = []

    def write(self, name, data):
        if name == CALIBRATION:
            self.tries += 1
            if self.board is not None:
                self.phases.append(self.board.phase)
            if self.fail:
                raise OSError(28)  # ENOSPC
        FlashStorage.write(self, name, data)


class Link(LineLink):
    """Keeps only the fault lines (the rest would fill the heap over whole games)."""

    def write(self, data):
        n = LineLink.write(self, data)
        self.sent = [line for line in self.sent if b'"fault"' in line]
        return n


def _virtual_board(path, sensors, seed=3):
    # A board from the factory: calibrated on the empty board (a calibration.json without
    # "learned", as before the learning was kept), then the App on it, the virtual board's
    # simulated hands to play.
    from sim.virtual_board import VirtualBoard
    from sim.world import World

    world = World(seed, 3.0, sensors)
    flash = Flash(path)
    flash.write(CALIBRATION, json.dumps({"offsets": list(world.offsets),
                                         "faulty": [s for s, _ in world.faulty]}).encode())
    flash.tries = 0
    link = Link()
    pinmap = _pinmap()

    def make(vb):
        hw = Hardware(vb.model, vb.clock, vb.dice, flash, link, SimLeds(pinmap["leds"]["count"]),
                      SimButtons(), pinmap)
        return App(hw, vb.buf)

    return VirtualBoard(seed=seed, world=world, app=make), flash, link


def _kept(flash):
    return json.loads(flash.read(CALIBRATION)).get("learned")


def test_what_a_board_learned_in_play_is_there_after_a_power_cut():
    from board import learned as keeping
    from sim.autoplay import Autoplay

    path = tmpdir("bgboard-learned")
    try:
        vb, flash, _ = _virtual_board(path, WEAK)
        assert vb.app.sensor_loop.sensing.learned() == DEFAULT
        flash.board = vb.board
        assert Autoplay(vb, seed=3).play_games(3)
        vb.wait(1000)  # the board's loop keeps it within a second of a game's end
        # Kept as games ended (at most once a game, never during one), as the board now
        # has it.
        assert 1 <= flash.tries <= 3 and flash.phases == ["over"] * flash.tries, flash.phases
        kept = _kept(flash)
        assert not keeping.moved(vb.app.sensor_loop.sensing.learned(), kept)
        # The model's truth: each sensor's gain times the set's strength (0.75).
        truth = [g * 3 // 4 for g in vb.model.gains]
        gains = kept["gains"]
        assert abs(sum(gains) / sum(truth) - 1) < 0.02  # the set's strength
        flat = sum(gains) // SLOTS  # each sensor's own, beyond the set's
        miss = sum(abs(gains[s] - truth[s]) for s in range(SLOTS))
        assert miss < 0.8 * sum(abs(flat - truth[s]) for s in range(SLOTS)), miss
        assert abs(kept["two"] / 8 - 1000) < 20, kept["two"]  # the design's: 37 off
        assert kept["coupling"] == 4096  # this board's sensors see their neighbours as designed

        vb.power_up()  # a power cut: a new App on the same flash
        gc.collect()
        sensing = vb.app.sensor_loop.sensing
        assert sensing.learned() == kept
        assert sensing._lv[1] == kept["two"] >> 3
        # It reads the set-up at once, with what it knew: no strength of the set to learn.
        vb.board.new_match(0)
        start = Position.initial()
        vb.table.set_position(start.mover, start.opponent)
        vb.wait(400)
        assert vb.board.phase == "opening"
        assert sensing.learned()["gains"] == gains
        # A game resigned at once teaches nothing material: nothing is written at its end.
        tries = flash.tries
        vb.board.roll()
        vb.wait(400)
        vb.board.resign(1)
        vb.board.answer_resignation(True)
        vb.wait(400)
        assert vb.board.phase == "over" and vb.app._unsaved is False
        assert flash.tries == tries
    finally:
        rmtree(path)


def test_a_write_that_fails_is_told_and_tried_again_and_nothing_is_lost():
    from sim.autoplay import Autoplay

    path = tmpdir("bgboard-learned")
    try:
        vb, flash, link = _virtual_board(path, WEAK, seed=4)
        flash.fail = True
        assert Autoplay(vb, seed=4).play_games(1)  # the game is over: the board is quiet
        vb.wait(1000)  # the board's loop keeps it within a second of a game's end
        assert flash.tries == 1
        faults = [json.loads(line) for line in link.sent]
        assert [(f["task"], f["error"][:7]) for f in faults] == [("learned", "OSError")], faults
        assert _kept(flash) is None  # the file as it was
        learned = vb.app.sensor_loop.sensing.learned()
        vb.wait(KEEP_RETRY_MS - 2000)  # the board goes on; no write meanwhile
        assert flash.tries == 1 and vb.board.phase == "over"
        flash.fail = False
        vb.wait(3000)  # the loop tries once a second
        assert flash.tries == 2
        assert _kept(flash) == learned  # all it had learned
        assert vb.app.faults == 1
        vb.wait(KEEP_RETRY_MS + 1000)  # kept: nothing more to write
        assert flash.tries == 2
    finally:
        rmtree(path)


def _app(path, learned=None, text=None, counts=None):
    # An App on simulated sensors and this flash. Its calibration.json, if given: the
    # sensors' zero levels with `learned`, or `text`.
    clock = SimClock()
    model = SensorModel(clock, seed=3)
    if counts is not None:
        model.set_counts(counts[0], counts[1])
    flash = FlashStorage(path)
    if learned is not None:
        text = json.dumps({"offsets": list(model.zero), "faulty": [], "gains": None,
                           "learned": learned})
    if text is not None:
        flash.write(CALIBRATION, text.encode())
    link = LineLink()
    pinmap = _pinmap()
    hw = Hardware(model, clock, Rng(5), flash, link, SimLeds(pinmap["leds"]["count"]),
                  SimButtons(), pinmap)
    app = App(hw, array("H", bytes(256)))
    app.start()
    link.sent = []
    return app


def _ask(app, msg):
    link = app.hw.link
    link.feed(json.dumps(msg).encode())
    app.step()
    replies = [json.loads(b.decode()) for b in link.sent]
    link.sent = []
    return replies


def test_a_calibration_whose_learned_fields_are_damaged_boots_with_the_defaults():
    path = tmpdir("bgboard-learned")
    try:
        damaged = (
            {"gains": [5000] * (SLOTS - 1), "two": "8400", "coupling": 99999},
            {"gains": [5000] * (SLOTS - 1) + [True], "two": 8400.0, "coupling": -4096},
            {"gains": [5000] * (SLOTS - 1) + ["5000"], "two": [8400], "coupling": 4096.0},
            {"gains": [5000] * (SLOTS - 1) + [40000], "two": 1 << 40, "coupling": None},
            {"gains": {"0": 5000}, "two": 1037 << 5},
            [5000] * SLOTS, "learned", 8400, False,
        )
        for learned in damaged:
            app = _app(path, learned)
            assert app.offsets == list(app.hw.scanner.zero), learned
            assert app.sensor_loop.sensing.learned() == DEFAULT, learned
            app = None
            gc.collect()
        # Each part on its own: a damaged one takes none of the others with it.
        app = _app(path, {"gains": [5000] * SLOTS, "two": "8400", "coupling": 5000})
        assert app.sensor_loop.sensing.learned() == {"gains": [5000] * SLOTS, "two": DEFAULT["two"],
                                         "coupling": 5000}
        app = None
        gc.collect()
        app = _app(path, text="[1, 2, 3]")  # no calibration at all: a board as new
        assert app.offsets is None and app.sensor_loop.sensing.learned() == DEFAULT
    finally:
        rmtree(path)


def test_a_new_calibration_of_the_empty_board_forgets_what_was_learned():
    path = tmpdir("bgboard-learned")
    try:
        learned = {"gains": [3500] * SLOTS, "two": 1010 << 3, "coupling": 5000}
        app = _app(path, learned)
        assert app.sensor_loop.sensing.learned() == learned
        assert app.sensor_loop.sensing._lv[1] == 1010
        _ask(app, {"cmd": "calibrate", "step": "empty"})
        assert app.sensor_loop.sensing.learned() == DEFAULT
        assert app.sensor_loop.sensing._lv[1] == 1037
        assert _ask(app, {"cmd": "calibrate", "step": "save"})[0]["saved"] == SLOTS
        assert json.loads(FlashStorage(path).read(CALIBRATION))["learned"] == DEFAULT
        app = None
        gc.collect()
        app = _app(path)  # powered up again
        assert app.sensor_loop.sensing.learned() == DEFAULT
    finally:
        rmtree(path)


def test_a_calibration_of_the_checkers_measures_the_sensors_not_what_was_learned():
    # A board that learned its gains 20 % above these sensors' (another set of checkers,
    # stronger): the checkers' step measures each sensor as it is.
    path = tmpdir("bgboard-learned")
    try:
        start = Position.initial()
        learned = {"gains": [4915] * SLOTS, "two": 1020 << 3, "coupling": 4096}
        app = _app(path, learned, counts=(start.mover, start.opponent))
        for _ in range(30):
            app.hw.clock.advance(10)
            app.scan()
        reply = _ask(app, {"cmd": "calibrate", "step": "checkers"})[0]
        assert reply["measured"] == 30 and reply["suspect"] == []
        model = app.hw.scanner
        heights = heights_from_counts(start.mover, start.opponent)
        for s in range(SLOTS):
            if heights[s] in (1, -1):
                assert abs(app.gains[s] - model.gains[s]) * 50 < model.gains[s], s
        # The level of two and the coupling, which it does not measure, stay as learned.
        assert app.sensor_loop.sensing.learned()["two"] == 1020 << 3
    finally:
        rmtree(path)


def test_only_a_material_change_is_kept_again():
    from board import learned as keeping

    kept = {"gains": [4000] * SLOTS, "two": 8000, "coupling": 4000}

    def now(gain=4000, two=8000, coupling=4000):
        gains = [4000] * SLOTS
        gains[77] = gain
        return {"gains": gains, "two": two, "coupling": coupling}

    assert not keeping.moved(now(), kept)
    assert not keeping.moved(now(gain=4039, two=8015, coupling=4079), kept)
    assert not keeping.moved(now(gain=3961, two=7985, coupling=3921), kept)
    assert keeping.moved(now(gain=4040), kept)  # a gain by 1 %
    assert keeping.moved(now(gain=3960), kept)
    assert keeping.moved(now(two=8016), kept)  # the level of two by 2 counts
    assert keeping.moved(now(two=7984), kept)
    assert keeping.moved(now(coupling=4080), kept)  # the coupling by 2 %
    assert keeping.moved(now(coupling=3920), kept)
    for damaged in (None, [], {"gains": [4000] * (SLOTS - 1), "two": 8000, "coupling": 4000},
                    {"gains": ["4000"] * SLOTS, "two": 8000, "coupling": 4000},
                    {"gains": [4000] * SLOTS, "coupling": 4000}):
        assert keeping.moved(now(), damaged), damaged
