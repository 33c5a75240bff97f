# The application finding a dead sensor from play (issue 16), in an interpreter of its own
# under MicroPython (test_app's heap is the whole application's with a dozen tests).
import gc
from array import array

from bgcore import Position
from board.app import App
from sim.faults import fault
from test_app import with_rig


@with_rig
def test_a_dead_sensor_found_at_the_set_up_is_told_and_kept_with_the_calibration(rig, path):
    # It reads its zero level whatever stands on it: the calibration takes it for good.
    fault(rig.model, 116, "dead")  # white's 24-point, the second checker's slot
    assert rig.ask({"cmd": "calibrate", "step": "empty"})[0]["faulty"] == []
    rig.ask({"cmd": "calibrate", "step": "save"})
    rig.ask({"cmd": "new", "kind": "money"})
    start = Position.initial()
    rig.model.set_counts(start.mover, start.opponent)
    told = []
    for _ in range(400):  # 4 s: the board asks for that checker; then it reads the slot dead
        rig.hw.clock.advance(10)
        rig.app.scan()
        told += [m for m in rig.ask({"cmd": "state"}) if m.get("live") == "blind"]
    assert told == [{"live": "blind", "slots": [116]}]
    assert rig.ask({"cmd": "state"})[0]["phase"] == "opening"  # the start is seen
    rig.app = None  # power off
    gc.collect()
    again = App(rig.hw, array("H", bytes(256)))
    assert again.dead == [116] and again.faulty == []  # a checker read there enables it
    assert again.sensor_loop.sensing.blind(2) == [116]
