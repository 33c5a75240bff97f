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


# --- the scan that confirms a lift, piece by piece ----------------------------------------
# The loop's own objects (board.sensor_loop, board.controller, the renderer deferred as
# board.app runs it) on the real scanner and LED driver; the emulated table holds the
# starting position (bench_pico sets it). A lift is the lifted slot read as empty (its
# zero level and neighbours' field) from the scan on, as the scanner would read it; put
# back, the real reading again. The stamps go into one preallocated array.
del sensing  # the figures above are done: its RAM for the loop's
gc.collect()
from board.controller import Controller  # noqa: E402
try:
    from board.heap import lock as heap_lock, unlock as heap_unlock  # noqa: E402
except ImportError:  # (older trees: no lock)
    def heap_lock():
        pass

    heap_unlock = heap_lock
from board.sensor_loop import SensorLoop  # noqa: E402
import random  # noqa: E402

# Stamps: the scan's start, then the end of each piece; LIT: when the destinations' frame
# went to the driver (its DMA started: the first bit follows within microseconds).
STAMPS = ("read_into", "sensing_scan", "sensed_update", "lit_ahead", "on_sensed", "flush")
stamp = array("i", [0] * (len(STAMPS) + 2))
LIT = len(STAMPS) + 1
lifting = array("h", [-1])  # the slot read as empty (-1: none)


class LiftingScanner:
    # The real scanner, then the lifted slot's reading replaced (and listed as outside its
    # window, as the real one's watch() would list it).
    def __init__(self, real):
        self.real = real
        self.left = None
        self.loop = None

    def watch(self, lo, hi, left):
        self.left = left
        self.lo, self.hi = lo, hi
        self.real.watch(lo, hi, left)

    def read_into(self, buf):
        stamp[0] = time.ticks_us()
        n = self.real.read_into(buf)
        s = lifting[0]
        if s >= 0:
            sensing = self.loop.sensing
            r = sensing._zero[s] + sensing._corr[s]
            buf[s] = r
            if r < self.lo[s] or r > self.hi[s]:
                self.left[n] = s
                n += 1
        stamp[1] = time.ticks_us()
        return n


def _stamped(fn, at):
    # Three arguments and two cells, on the C stack: sensing.scan runs with the heap locked
    # (board.heap), where *args or a sixth argument would need the heap.
    def call(a, b=None, c=None):
        out = fn(a) if b is None else fn(a, b, c)
        stamp[at] = time.ticks_us()
        return out
    return call


lifter = LiftingScanner(scanner)
loop = SensorLoop(lifter, time, raw, field)
lifter.loop = loop
renderer.deferred = True
board = Controller(time, random, None, renderer)


def turn_of_loop():
    # board.app.App.run's turn, up to the sleep: sense (a lift on its first strong scan
    # lit ahead with the heap locked, as App.sense does), flush, learn, tick.
    changed = loop.scan()
    stamp[4] = stamp[3]
    if changed:
        lifted = getattr(loop, "lifted", -1)  # (older trees: none)
        if lifted >= 0:
            heap_lock()
            try:
                if board.on_lift(lifted):
                    renderer.flush()
                    stamp[4] = stamp[LIT] = time.ticks_us()
            finally:
                heap_unlock()
        board.on_sensed(loop.sensed)
    if loop.landing_moved:
        loop.landing_moved = False
        board.on_landing(loop.landing)
    if renderer.flush() and not renderer.pending and not stamp[LIT]:  # sent, not held
        stamp[LIT] = time.ticks_us()
    stamp[len(STAMPS)] = time.ticks_us()
    if changed:
        loop.learn(board)
    board.tick()
    return changed


def run_for(ms):
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        turn_of_loop()
        time.sleep_ms(5)


board.new_match(1)
run_for(400)  # the first stable frame: the set-up seen, the game begins
board.roll((3, 1))
run_for(300)
if not board.hand():
    raise SystemExit("the board is not ready for a lift (the table's starting position?)")
confirm = {}
mover = 1 if board.tracker is None or board.tracker.mover == 0 else -1
slots = [s for s in range(120) if loop.sensing.frame[s] * mover > 0]


def lifts(n):
    # n lifts, each of a slot of the mover's, timed from the start of the readings of the
    # scan that confirms it: [each piece's us, ..., to the frame's DMA started].
    out = []
    for i in range(n):
        s = slots[i % len(slots)]
        lifting[0] = s
        for _ in range(5):
            stamp[2] = stamp[3] = stamp[LIT] = 0
            if turn_of_loop() and board.reading.state:
                break
            time.sleep_ms(5)
        else:
            raise SystemExit("a lift of slot %d was not confirmed on its first scans" % s)
        t = [stamp[k] for k in range(len(stamp))]
        pieces = [time.ticks_diff(t[k + 1], t[k]) for k in range(len(STAMPS))]
        out.append(pieces + [time.ticks_diff(t[LIT], t[0])])
        lifting[0] = -1
        run_for(300)  # put back (withdrawn), the board at rest again
    return out


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


plain = lifts(15)
confirm["confirm_scan_us"] = _median([p[-1] for p in plain])
confirm["confirm_scan_worst_us"] = max(p[-1] for p in plain)
# The pieces: the same loop with the ends of sensing.scan and sensed.update stamped too
# (each stamp a call more); lit_ahead 0 where the frame waited for the loop's flush.
loop.sensing.scan = _stamped(loop.sensing.scan, 2)
loop.sensed.update = _stamped(loop.sensed.update, 3)
board.on_sensed = _stamped(board.on_sensed, 5)
timed = lifts(9)
for k in range(len(STAMPS)):
    confirm["confirm_%s_us" % STAMPS[k]] = _median([p[k] for p in timed])
print("PICO-TIMING-CONFIRM " + json.dumps(confirm))
