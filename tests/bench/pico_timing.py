# Run on the (emulated) Pico by tests/bench/bench_pico.py through mpremote: how long the
# firmware's pieces take on an RP2040 at 125 MHz, on the flashed firmware itself.
import gc
import json
import time
from array import array

from board.leds import LedMap, Renderer
from board.sensing import Field, Sensing
from bgcore import Position, Turn
import drivers.rp2_leds  # noqa: F401 - loaded before free_after_boot is taken, as always
try:
    import drivers.pio_leds  # noqa: F401 - the LED driver main.py picks (not in older trees)
except ImportError:
    pass
import drivers.rp2_sensors  # noqa: F401


def us(fn, n=5):
    best = None
    for _ in range(n):
        t = time.ticks_us()
        fn()
        d = time.ticks_diff(time.ticks_us(), t)
        best = d if best is None or d < best else best
    return best


gc.collect()
free_before = gc.mem_free()
with open("pinmap.json") as f:
    pinmap = json.load(f)
from main import make_leds, make_scanner  # noqa: E402 - main.py's wiring, after the figure

raw = array("H", bytes(256))
scanner = make_scanner(pinmap)
with open("field.json") as f:
    field = Field.from_table(json.load(f))
sensing = Sensing(time, field)
leds = make_leds(pinmap)
renderer = Renderer(leds, LedMap(pinmap["leds"]), 64, 300)
p = Position.initial()
turn = Turn(p, (3, 1))
left = bytearray(128)
moved = array("I", [0])


def frame_on_cpu():
    # One show() that starts a frame: a driver that sends in the background (busy()) is
    # first let finish the last one (untimed), else show() would only hold the frame back.
    busy = getattr(leds, "busy", None)
    if busy is not None:
        while busy():
            pass
    t = time.ticks_us()
    leds.show(renderer.frame)
    return time.ticks_diff(time.ticks_us(), t)


def worked_out():
    fresh = Turn(p, (3, 1))
    t = time.ticks_us()
    fresh.destinations(8)
    return time.ticks_diff(time.ticks_us(), t)


def watched_scan():
    moved[0] = scanner.read_into(raw)
    sensing.scan(raw, left, moved[0])


out = {
    "read_into_us": us(lambda: scanner.read_into(raw)),
    "sensing_scan_all_us": us(lambda: sensing.scan(raw)),
}
lo, hi = sensing.windows()
scanner.watch(lo, hi, left)  # as board.app wires them: the scanner checks the windows
out.update({
    "read_into_watching_us": us(lambda: scanner.read_into(raw)),
    "sensing_scan_us": us(lambda: sensing.scan(raw, left, 0)),
    "scan_us": us(watched_scan),
    "led_frame_us": min(frame_on_cpu() for _ in range(5)),  # the CPU's time for a frame
    "led_driver": type(leds).__name__,
    "roll_us": us(lambda: Turn(p, (6, 6)).required),
    # A lift's destinations: worked out (what Turn.prepare() does a tick ahead of the lift),
    # and as the lift then finds them.
    "destinations_us": min(worked_out() for _ in range(5)),
    "destinations_known_us": us(lambda: turn.destinations(8)),
    "free_after_boot": free_before,
})
print("PICO-TIMING " + json.dumps(out))
