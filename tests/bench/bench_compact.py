# The journal's compaction on the MicroPython unix port (make bench): a 32 KB journal with
# its archive, events of a played match's sizes (75 bytes on average, a restart point of 520
# each game), compacted at once (Journal.compact) and in steps (Journal.step, as the board's
# loop does: an event appended every few steps). Per step: the median and worst time, and
# the lines it read. A Pico is about 50 times slower than this port; its loop turns every
# 10 ms. usage: bench_compact.py [STEP_LINES...]
import os
import sys
import time

from board import compaction
from board.archive import Archive
from board.journal import STEPWISE, Journal
from board.storage import FlashStorage

MICRO = sys.implementation.name == "micropython"
MAX = 32768


def now_us():
    return time.ticks_us() if MICRO else time.perf_counter_ns() // 1000  # type: ignore[attr-defined]


def since_us(t0):
    return time.ticks_diff(time.ticks_us(), t0) if MICRO else now_us() - t0  # type: ignore[attr-defined]


def _event(i):
    # A play's shape and size: its moves, dice and who; a game now and then.
    if i % 60 == 0:
        return {"ev": "game", "n": i // 60}
    return {"ev": "play", "moves": [[(i * 5) % 24 + 1, (i * 5) % 24 - 5]] * (1 + i % 3),
            "dice": [1 + i % 6, 1 + (i // 6) % 6], "player": i % 2}


SNAP = {"phase": "play", "settings": {"kind": "match", "length": 7, "rules": {"jacoby": False}},
        "match": {"length": 7, "score": [3, 2], "crawford": False, "games": 5,
                  "game": {"position": "4HPwATDgc/ABMA", "cube": 2, "owner": 1, "turn": 0,
                           "dice": [3, 1], "moves": [], "history": list(range(60))}}}


def _clear(d):
    for name in os.listdir(d):
        os.remove(d + "/" + name)


def _journal(d):
    j = Journal(FlashStorage(d), max_bytes=MAX, keep=128)
    j.snapshot = lambda: SNAP
    Archive(j, 655360)
    return j


def _fill(d):
    # A journal just past STEPWISE/8 of its budget, after a compaction (an archive, a header
    # with a snapshot), as the board's would be when one begins.
    _clear(d)
    j = _journal(d)
    i = 0
    while j.base_seq == 0 or j.size * 8 <= MAX * STEPWISE:
        i += 1
        j.append(_event(i))
        if i % 60 == 0:
            j.mark(lambda: SNAP)
        if j.size * 8 > MAX * 6 and j.base_seq == 0:
            j.compact(SNAP)
    return j


class Counting(FlashStorage):
    """Lines read from the journal (newlines through readinto, the reader's read-ahead and
    a long line's second reading included)."""

    lines = 0

    def open(self, name, mode="rb"):
        f = FlashStorage.open(self, name, mode)
        return _Count(self, f) if mode == "rb" else f


class _Count:
    def __init__(self, st, f):
        self._st = st
        self._f = f

    def readinto(self, buf):
        n = self._f.readinto(buf)
        if n:
            self._st.lines += bytes(buf[:n]).count(b"\n")
        return n

    def seek(self, at):
        return self._f.seek(at)

    def close(self):
        self._f.close()


def _steps(d, st, count=False):
    # Each step's time (or, counting, the lines it read) through a whole compaction.
    _fill(d)
    j = Journal(st, max_bytes=MAX, keep=128)
    j.snapshot = lambda: SNAP
    Archive(j, 655360)
    out = []
    k = j.last_seq
    while True:
        st.lines = 0
        t0 = now_us()
        going = j.step()
        out.append(st.lines if count else since_us(t0))
        if not going:
            break
        if len(out) % 4 == 0:  # an event every 4 turns, a busy player's pace
            k += 1
            j.append(_event(k))
    assert j.compact_error is None and j.base_seq > 0, j.compact_error
    return out


def main(args):
    d = "/tmp/bench-compact-%d" % (now_us() % 1000000)
    os.mkdir(d)
    try:
        j = _fill(d)
        print("journal: %d bytes, %d events after the snapshot's %d" % (
            j.size, j.last_seq - j.base_seq, j.base_seq))
        best = 1 << 30
        for _ in range(3):
            j = _fill(d)
            t0 = now_us()
            j.compact(SNAP)
            best = min(best, since_us(t0))
        print("at once: %.1f ms" % (best / 1000))
        for n in [int(a) for a in args] or [8, 16, 32]:
            compaction.STEP_LINES = n
            times = _steps(d, FlashStorage(d))
            most = max(_steps(d, Counting(d), True))  # apart: counting takes time
            times.sort()
            print("STEP_LINES %d: %d steps, %.3f ms median, %.3f ms worst, %.1f ms in all; "
                  "at most %d lines (newlines) read in a step" % (
                      n, len(times), times[len(times) // 2] / 1000, times[-1] / 1000,
                      sum(times) / 1000, most))
    finally:
        _clear(d)
        os.rmdir(d)


if __name__ == "__main__": main(sys.argv[1:])
