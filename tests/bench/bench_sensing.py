# Sensing-pipeline figures: run under the MicroPython unix port (`make bench`). Per scan
# frame: from 128 raw readings to the stable frame and its changes. Budget 0.05 ms here (a
# Pico is about 100x slower: about 5 ms there); bytes allocated per frame, goal 0.
# Frames are recorded from the simulated board beforehand, so only the pipeline is timed.
import gc
import json
import sys
import time
from array import array

from board.layout import SLOTS, point_slot
from board.calibration import calibrate, frames
from board.sensing import Field, Sensing
from sim.sensor_model import SensorModel, SimClock

MICRO = sys.implementation.name == "micropython"
BUDGET_US = 50
SCANS = 2000
REPEAT = 5
if MICRO:
    def now_us():
        return time.ticks_us()  # type: ignore[attr-defined]

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)  # type: ignore[attr-defined]
else:
    def now_us():
        return time.perf_counter_ns() // 1000

    def since_us(t0):
        return now_us() - t0

START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def setup(field, kernels=None, table=None):
    clock = SimClock()
    model = SensorModel(clock, seed=1, kernels=kernels, table=table)
    buf = array("H", bytes(2 * SLOTS))
    offsets, faulty = calibrate(frames(model, buf, 32))
    sensing = Sensing(clock, field=field, offsets=offsets)
    model.set_counts(START, START)
    idle = []
    for _ in range(16):
        model.read_into(buf)
        idle.append(array("H", buf))
    # A checker lifted from the 6-point and put on the 7-point.
    model.set_slot(point_slot(6, 4), 0)
    model.set_slot(point_slot(7, 0), 1)
    moved = []
    for _ in range(16):
        model.read_into(buf)
        moved.append(array("H", buf))
    return clock, sensing, idle, moved


def run(clock, sensing, cycle, n):
    # n scans, 10 ms apart; cycle: the list of frames to feed, round robin.
    m = len(cycle)
    changes = 0
    for k in range(n):
        clock.advance(10)
        changes += sensing.scan(cycle[k % m])
    return changes


def best_us(clock, sensing, cycle, n):
    best = 1 << 30
    for _ in range(REPEAT):
        t0 = now_us()
        run(clock, sensing, cycle, n)
        dt = since_us(t0)
        if dt < best:
            best = dt
    return best / n


def allocated(clock, sensing, cycle, n):
    if not MICRO:
        return -1
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()  # type: ignore[attr-defined]
        run(clock, sensing, cycle, n)
        return gc.mem_alloc() - before  # type: ignore[attr-defined]
    finally:
        gc.enable()


def busy(clock, sensing, idle, moved):
    # Lift and place, then put it back: each 400 ms, so each change is seen and confirmed.
    # Every round repeats the same 80 scans: per scan, the best of the rounds (filters the
    # scheduler out); then the mean and the slowest scan of the cycle.
    best = [1 << 30] * 80
    changes = 0
    for rnd in range(REPEAT):
        k = 0
        for cycle in (moved, idle):
            for i in range(40):
                clock.advance(10)
                t0 = now_us()
                changes += sensing.scan(cycle[i % 16])
                dt = since_us(t0)
                if dt < best[k]:
                    best[k] = dt
                k += 1
    return sum(best) / len(best), max(best), changes // REPEAT

def report(name, field, kernels=None, table=None):
    clock, sensing, idle, moved = setup(field, kernels, table)
    run(clock, sensing, idle, 200)  # settle: the position is confirmed
    assert sensing.frame[point_slot(6, 4)] == 1
    us = best_us(clock, sensing, idle, SCANS)
    alloc = allocated(clock, sensing, idle, SCANS)
    mean, worst, changes = busy(clock, sensing, idle, moved)
    alloc_busy = allocated(clock, sensing, moved + idle, 64)
    pairs = sensing.field.npairs
    print("%-26s idle scan %5.1f us (budget %d us%s), %s bytes/frame; "
          % (name + " (%d pairs)" % pairs, us, BUDGET_US, "" if us <= BUDGET_US else ": OVER",
             "%.2f" % (alloc / SCANS) if alloc >= 0 else "n/a"))
    print("%-26s lift/place scans: mean %5.1f us, slowest %d us, %d changes a round, "
          "%s bytes allocated over 64 busy frames"
          % ("", mean, worst, changes, alloc_busy if alloc_busy >= 0 else "n/a"))


def main():
    print("sensing on %s: %d idle scans x best of %d, initial position, noisy frames"
          % (sys.implementation.name, SCANS, REPEAT))
    report("default field", Field())
    try:
        with open("hardware/field_table.json") as f:
            table = json.load(f)
    except OSError:
        print("hardware/field_table.json not found: table figures skipped")
        return
    nb = table["neighbours"]
    field = Field.from_table(table)
    report("hardware/field_table.json", field,
           [k["counts"] for k in nb["kernels"]], nb["slots"])
    if MICRO:
        gc.collect()
        print("heap in use at the end: %d bytes" % gc.mem_alloc())  # type: ignore[attr-defined]


main()
