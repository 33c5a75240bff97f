# What the sensing learned from play (board.sensing.Sensing.learned()), kept on flash with the
# calibration when it has moved materially since it was kept. Loaded only at a quiet moment
# (board.app.App.keep_learned), then let go: a board needs it about once a game.
#
# Material is what moves a reading by about the hysteresis (8 counts), below which a stale
# figure changes no code: a sensor's gain by 1 % (8.6 of a single checker's 860 counts; a
# placement's deviation moves a gain by an eighth of it, so play keeps moving gains by less);
# the level of two by 2 counts (the least step the sensing moves its levels by); the
# neighbours' coupling by 2 % (the sensing rescales it only in steps of 10 %: any step).

import json

from board.app import CALIBRATION

GAIN_PCT = 1
TWO = 2 << 3  # the level of two: 2 counts, in 1/8 count as learned() gives it
COUPLING_PCT = 2


def moved(now, kept):
    """Whether `now` (Sensing.learned()) differs materially from `kept` (the same, as the
    calibration file holds it: missing or damaged, it has moved)."""
    try:
        was = kept["gains"]
        if len(was) != len(now["gains"]):
            return True
        for s, g in enumerate(now["gains"]):
            w = was[s]
            if (g - w if g > w else w - g) * 100 >= w * GAIN_PCT:
                return True
        d = now["two"] - kept["two"]
        if d >= TWO or d <= -TWO:
            return True
        k = kept["coupling"]
        d = now["coupling"] - k
        return (d if d > 0 else -d) * 100 >= k * COUPLING_PCT
    except Exception:  # noqa: B902 - whatever a damaged file holds: write it anew
        return True


def keep(app):
    """Write app's (board.app.App) calibration with what its sensing learned, if that moved
    materially since it was kept; True if written. OSError, MemoryError: nothing changed on
    flash (storage.write is atomic)."""
    now = app.sensing.learned()
    kept = None
    data = app.hw.storage.read(CALIBRATION)
    if data:
        try:
            kept = json.loads(data).get("learned")
        except Exception:  # noqa: B902 - a damaged file: written anew
            pass
    data = None
    due = moved(now, kept)
    kept = None  # its RAM for the file's text
    if not due:
        return False
    app._save_calibration(app.offsets, now)
    return True
