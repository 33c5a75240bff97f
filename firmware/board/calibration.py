"""Calibration of the hall sensors: each slot's zero level on the empty board, and the sensors
that cannot be trusted; the host's calibrate command. Its own module: a board calibrates
rarely and loads it only then."""

from array import array

from board.layout import SLOTS, filled, heights_from_counts
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


def command(app, step):
    """The host's calibrate command on app (board.app.App). empty: zero levels of the empty
    board (what the sensing learned from play is forgotten); checkers: with the starting
    position set up, the sensitivity of the 30 slots holding one checker each (the gains
    learned are replaced); save: store both. (The App's own imports are taken here, not
    at the top: the simulated world calibrates with this module before any firmware.)"""
    from bgwire.commands import CommandError

    if step == "empty":
        offsets, faulty = calibrate(frames(app.hw.scanner, app.raw, 32))
        app.offsets = offsets
        app.faulty = [s for s, _ in faulty]
        app.dead = []  # found from play: found again if still so
        app.gains = None
        app._new_sensing()
        app.pending_calibration = True
        return {"faulty": [[s, why] for s, why in faulty]}
    if step == "checkers":
        return _gains(app)
    if step == "save":
        offsets = app.offsets
        if not app.pending_calibration or offsets is None:
            raise CommandError("calibrate: measure the empty board first (step empty)")
        app._save_calibration(offsets)
        app.pending_calibration = None
        return {"saved": len(offsets)}
    raise CommandError("calibrate: step is empty, checkers or save, not %r" % step)


def _gains(app, n=16):
    from bgcore import Position
    from bgwire.commands import CommandError

    start = Position.initial()
    heights = heights_from_counts(start.mover, start.opponent)
    s = app.sensor_loop.sensing
    singles = [slot for slot in range(SLOTS) if heights[slot] in (1, -1)
               and slot not in app.faulty]
    right = 0
    for slot in range(SLOTS):
        if heights[slot] == 0 and s.frame[slot]:
            raise CommandError("calibrate: slot %d should be empty in the starting "
                               "position" % slot)
        if slot in singles and s.frame[slot] == heights[slot]:
            right += 1
    if right < len(singles) * 3 // 4:  # a weak sensor may miss its checker: not many
        raise CommandError("calibrate: set up the starting position first (%d of %d "
                           "slots show their checker)" % (right, len(singles)))
    total = filled("i", SLOTS)  # arrays: a list of 128 takes 1 KB in one piece
    for _ in range(n):
        app.scan()  # keeps the neighbour corrections current
        for slot in singles:
            total[slot] += s.value(slot, app.raw[slot]) * heights[slot]
    level = s.field.levels[0]
    # value() took out the gains the sensing reads with: the calibration's, or what it has
    # learned from play since (kept on flash: board.learned). Copied array to array (its
    # learned() would make a list of 128).
    gains = array("h", s._gain)
    suspect = []
    for slot in singles:
        seen = total[slot] * gains[slot] // (n * 4096)  # counts at gain 1
        if seen < level // 2:
            suspect.append([slot, "one checker reads %d counts, about %d expected"
                            % (seen, level)])
        else:
            gains[slot] = seen * 4096 // level
    app.gains = gains
    kept = {"two": s._lv2, "coupling": s._ks}  # learned from play, not measured here
    s = None
    app._new_sensing(kept)
    app.pending_calibration = True
    return {"measured": len(singles), "suspect": suspect}
