# The application finding a dead sensor from play (issue 16), in an interpreter of its own
# under MicroPython (test_app's heap is the whole application's with a dozen tests).
import gc
from array import array

from bgcore import Position
from board.app import App
from sim.faults import fault
from test_app import load_pinmap, with_rig


def _dead_at_the_start(rig, dead):
    # Sensors that read their zero level whatever stands on them: the calibration takes them
    # for good; a money session, its checkers set up.
    for s in dead:
        fault(rig.model, s, "dead")
    assert rig.ask({"cmd": "calibrate", "step": "empty"})[0]["faulty"] == []
    rig.ask({"cmd": "calibrate", "step": "save"})
    rig.ask({"cmd": "new", "kind": "money"})
    start = Position.initial()
    rig.model.set_counts(start.mover, start.opponent)


@with_rig
def test_a_dead_sensor_found_at_the_set_up_is_told_and_kept_with_the_calibration(rig, path):
    # It reads its zero level whatever stands on it: the calibration takes it for good.
    _dead_at_the_start(rig, [116])  # white's 24-point, the second checker's slot
    told = []
    for _ in range(400):  # 4 s: the board asks for that checker; then it reads the slot dead
        rig.hw.clock.advance(10)
        rig.app.scan()
        told += [m for m in rig.ask({"cmd": "state"}) if m.get("live") == "blind"]
    assert [m["slots"] for m in told] == [[116]] and "point 24, slot 2" in told[0]["words"]
    assert rig.ask({"cmd": "state"})[0]["phase"] == "opening"  # the start is seen
    rig.app = None  # power off
    gc.collect()
    again = App(rig.hw, array("H", bytes(256)))
    assert again.dead == [116] and again.faulty == []  # a checker read there enables it
    assert again.sensor_loop.sensing.blind(2) == [116]


@with_rig
def test_two_dead_sensors_under_the_start_are_named_lit_and_the_game_starts(rig, path):
    # Issue 29: with two dead the set-up never ended, and nothing named them.
    from board.controller import UNTRUSTED_MS
    from bgwire import WRONG

    dead = [27, 116]  # white's 6-point slot 3, 24-point slot 2: calibrate as good
    _dead_at_the_start(rig, dead)
    told = []
    lit = None
    points = load_pinmap()["leds"]["points"]
    red = rig.app.renderer.colour(WRONG)
    for _ in range(400):
        rig.hw.clock.advance(10)
        rig.app.scan()
        rig.app.step()
        told += [m for m in rig.ask({"cmd": "state"}) if m.get("live") == "blind"]
        if told and lit is None:  # the frame as the scan that found them drew it
            frame = rig.app.renderer.frame
            lit = [p + 1 for p in range(24) if all(bytes(frame[3 * i:3 * i + 3]) == red
                                                    for i in points[p])]
    assert [m["slots"] for m in told] == [dead]
    words = told[0]["words"]
    assert "point 6, slot 3" in words and "point 24, slot 2" in words, words
    assert lit == [6, 24]
    state = rig.ask({"cmd": "state"})[0]
    assert state["phase"] == "opening" and state["untrusted"] == dead
    rig.hw.clock.advance(UNTRUSTED_MS)  # the points go dark again
    rig.app.step()
    frame = rig.app.renderer.frame
    assert not any(bytes(frame[3 * i:3 * i + 3]) == red for p in (5, 23) for i in points[p])
