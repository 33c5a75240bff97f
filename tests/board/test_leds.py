# The LED renderer: what a player sees for each tracker reading, within the current cap.
import json

from bgcore import Position, Turn
from board.leds import LedMap, Renderer
from bgwire import DICE, MISSING, ORIGIN, TARGET, WRONG
from board.tracker import LIFTED, Sensed, Tracker
from sim.hw import SimLeds

PINMAP = "hardware/pinmap.json"




def rig(brightness=255, cap_ma=100000):
    with open(PINMAP) as f:
        ledmap = LedMap(json.load(f)["leds"])
    strip = SimLeds(ledmap.count)
    return Renderer(strip, ledmap, brightness, cap_ma), strip, ledmap


def lit_points(r, ledmap, rgb):
    # Physical points whose every slot LED has this colour in the frame.
    out = []
    for p in range(1, 25):
        if all(tuple(r.frame[3 * i:3 * i + 3]) == rgb for i in ledmap.points[p - 1]):
            out.append(p)
    return out


def test_a_lifted_checker_lights_its_origin_and_destinations():
    r, strip, ledmap = rig()
    sensed = Sensed()
    sensed.set_position(0, Position.initial())
    tracker = Tracker(Turn(Position.initial(), (3, 1)), 0)
    sensed.count[0][8] -= 1
    r.reading(0, tracker.update(sensed))
    assert lit_points(r, ledmap, ORIGIN) == [8]
    assert lit_points(r, ledmap, TARGET) == [4, 5, 7]


def test_black_points_map_to_the_board_in_whites_numbering():
    r, strip, ledmap = rig()
    r.point(1, 24, WRONG)  # black's 24-point is white's 1
    assert lit_points(r, ledmap, WRONG) == [1]
    r.point(1, 0, MISSING)  # black's tray
    assert all(tuple(r.frame[3 * i:3 * i + 3]) == MISSING for i in ledmap.tray[1])


def test_dice_faces_show_their_pips():
    r, strip, ledmap = rig()
    r.dice((6, 1))
    first = [tuple(r.frame[3 * i:3 * i + 3]) == DICE for i in ledmap.dice[0]]
    second = [tuple(r.frame[3 * i:3 * i + 3]) == DICE for i in ledmap.dice[1]]
    assert first.count(True) == 6 and second.count(True) == 1


def test_current_stays_under_the_cap():
    r, strip, ledmap = rig(brightness=255, cap_ma=300)
    for i in range(ledmap.count):
        r.set(i, (255, 255, 255))  # all white, full: about 9 A uncapped
    r.show()
    assert r.estimate() <= 300 and r.scale < 256
    assert strip.frames == 1
    assert max(strip.shown) > 0  # dimmed, not dark


def test_a_deferred_frame_reports_its_current_and_goes_out_under_the_cap_of_then():
    # The device defers frames to its LED task: estimate() still says what the frame will
    # draw (`ledtest` answers with it), and the frame goes out under the cap at flush time.
    r, strip, ledmap = rig(brightness=255, cap_ma=300)
    r.deferred = True
    for i in range(ledmap.count):
        r.set(i, (255, 255, 255))
    r.show()
    assert 0 < r.estimate() <= 300 and strip.frames == 0
    r.cap_ma = 2500  # the board's own supply plugged in meanwhile
    assert r.flush() and strip.frames == 1
    assert r.scale > 256 * 2000 // 9120  # scaled for 2500 mA, not 300
    assert not r.flush()


class BusyStrip(SimLeds):
    """A chain whose driver sends in the background: while `busy` it holds a frame back."""

    def __init__(self, n):
        super().__init__(n)
        self.busy = False
        self.held = 0

    def show(self, rgb, scale=256):
        if self.busy:
            self.held += 1
            return True
        super().show(rgb, scale)
        return False


def test_a_frame_held_back_by_a_busy_driver_goes_out_at_a_later_flush_as_drawn_by_then():
    # The PIO driver starts nothing while the last frame is on the wire: the renderer keeps
    # its frame pending, and the newest drawing is what goes out once the chain is free.
    with open(PINMAP) as f:
        ledmap = LedMap(json.load(f)["leds"])
    strip = BusyStrip(ledmap.count)
    r = Renderer(strip, ledmap, 255, 100000)
    r.deferred = True
    r.point(0, 8, (255, 0, 0))
    r.show()
    assert r.flush() and strip.frames == 1
    strip.busy = True
    r.point(0, 6, (0, 255, 0))
    r.show()
    assert r.flush() and strip.held == 1 and strip.frames == 1
    assert r.pending  # not lost
    r.point(0, 13, (0, 0, 255))  # drawn meanwhile
    strip.busy = False
    assert r.flush() and strip.frames == 2 and not r.pending
    assert strip.pixel(ledmap.points[5][0]) == (0, 255, 0)
    assert strip.pixel(ledmap.points[12][0]) == (0, 0, 255)
    assert not r.flush()
    r.deferred = False  # shown at once (off the device): held back, pending all the same
    strip.busy = True
    r.show()
    assert r.pending and strip.frames == 2
    strip.busy = False
    assert r.flush() and strip.frames == 3


def test_brightness_alone_when_under_the_cap():
    r, strip, ledmap = rig(brightness=128, cap_ma=2500)
    r.point(0, 8, (255, 0, 0))
    r.show()
    assert r.scale == 256
    assert strip.pixel(ledmap.points[7][0]) == (128, 0, 0)


def test_the_current_is_reckoned_from_what_is_drawn():
    # The cap is held from a running sum of the frame, not a sum over the whole frame each
    # time (1 ms of a Pico's lift): it must equal the frame's own sum for what a board draws.
    r, strip, ledmap = rig(brightness=200)
    sensed = Sensed()
    sensed.set_position(0, Position.initial())
    sensed.count[0][13] -= 1
    tracker = Tracker(Turn(Position.initial(), (6, 2)), 0)
    r.dice_pips((6, 2))
    r.reading(0, tracker.update(sensed))
    r.point(1, 25, MISSING)  # a bar
    r.point(1, 0, WRONG)  # a tray
    assert r.lit == sum(r.frame) > 0
    r.dice((1, 1))  # over the lit 6-2: the old pips go dark
    assert r.lit == sum(r.frame)
    r.clear()
    assert r.lit == sum(r.frame) == 0
    r.set(5, (10, 20, 30))
    assert r.lit == sum(r.frame) == 7 + 15 + 23  # at brightness 200


def test_lighting_a_lift_takes_nothing_from_the_heap():
    # On MicroPython a call whose frame passes 11 words takes it from the heap, and the
    # allocator's search past the heap's small holes made a Pico's slowest lifts twice
    # as slow as its fastest: a lift's drawing and the board's view of its point allocate
    # nothing. CPython has no such heap (nor micropython.mem_total): the drawing's result
    # is tested above.
    import sys

    if sys.implementation.name != "micropython":
        return
    import micropython  # type: ignore[import-not-found]

    r, strip, ledmap = rig()
    r.deferred = True
    sensed = Sensed()
    sensed.set_position(0, Position.initial())
    codes = bytearray(128)  # slot codes, as the sensing's frame holds them (one slot moved)
    changed = bytearray(b"\x23")
    reading = Tracker(Turn(Position.initial(), (3, 1)), 0).update(sensed)
    reading.state, reading.origin, reading.targets = LIFTED, 8, (7, 5, 4)

    def lift():
        sensed.update(codes, changed, 1)
        r.clear()
        r.dice_pips((3, 1))
        r.reading(0, reading)
        r.show()

    lift()  # the roles' colours made once
    before = micropython.mem_total()
    lift()
    assert micropython.mem_total() == before
    assert lit_points(r, ledmap, TARGET) == [4, 5, 7] and lit_points(r, ledmap, ORIGIN) == [8]
