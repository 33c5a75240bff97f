# Calibration of the hall sensors: each slot's zero level on the empty board, and the sensors
# that cannot be trusted. Its own module: a board calibrates rarely and loads it only then.

from array import array

from board.layout import SLOTS, filled
from board.sensing import MID

_SQUARES = 0x3FFFFFFF  # a small int on a Pico: a square sum this big is far too noisy


def frames(scanner, buf, n):
    """Read n frames from scanner into buf, yielding buf each time (for calibrate())."""
    for _ in range(n):
        scanner.read_into(buf)
        yield buf


def calibrate(raw_frames, rail=16, noise=20, spread=300):
    """Zero levels of an empty board from raw frames (an iterable of 128-count buffers; one
    buffer reused is fine). Returns (offsets, faulty): offsets an array of 128 counts,
    faulty a list of (slot, reason) for sensors stuck near a rail (within rail counts),
    noisier than noise counts RMS, or with a zero level more than spread counts from
    mid-scale (often: a checker left on the board). Faulty slots get offset MID."""
    first = None
    total = filled("i", SLOTS)
    squares = filled("i", SLOTS)  # saturating at _SQUARES: such a sensor is faulty anyway
    low = filled("h", SLOTS, 4095)  # readings are 0..4095
    high = filled("h", SLOTS)
    n = 0
    for f in raw_frames:
        if first is None:
            first = array("h", f)
        for s in range(SLOTS):
            r = f[s]
            d = r - first[s]
            total[s] += d
            q = squares[s] + d * d
            squares[s] = q if q < _SQUARES else _SQUARES
            if r < low[s]:
                low[s] = r
            if r > high[s]:
                high[s] = r
        n += 1
    if first is None or n < 2:
        raise ValueError("calibrate needs at least 2 frames")
    offsets = filled("h", SLOTS, MID)
    faulty = []
    for s in range(SLOTS):
        mean = first[s] + (2 * total[s] + n) // (2 * n)
        # n^2 x variance, in integers.
        var_n2 = squares[s] * n - total[s] * total[s]
        if low[s] <= rail or high[s] >= 4095 - rail:
            faulty.append((s, "stuck at a rail (reads %d..%d)" % (low[s], high[s])))
        elif var_n2 > noise * noise * n * n:
            rms = (var_n2 / (n * n)) ** 0.5
            faulty.append((s, "too noisy (%d counts RMS)" % int(rms + 0.5)))
        elif mean - MID > spread or MID - mean > spread:
            faulty.append((s, "zero level %d counts from mid-scale (a checker on it?)"
                           % (mean - MID)))
        else:
            offsets[s] = mean
    return offsets, faulty
