"""What the sensing learned from play (board.sensing.Sensing.learned()), kept on flash with the
calibration when it has moved materially since it was kept, and taken back at power-up.
Loaded only then (board.app.App.keep_learned, about once a game; Sensing(learned=...)),
then let go.

Material is what moves a reading by about the hysteresis (8 counts): a sensor's gain by 1 %
(8.6 of a single checker's 860 counts; a stack of two stands 30 counts from the 2/3
boundary), the level of two by 2 counts (the least step the sensing moves its levels by),
the neighbours' coupling by 2 % (the sensing rescales it only in steps of 10 %: any step).
Less is the learning's own wander (a placement moves its sensor's gain by an eighth of that
checker's deviation). A write costs a Pico tens of ms at a quiet moment, at most once a game:
in the virtual board's 12-game sessions one with nominal parts wrote after 3 games, one with
sensors +-10 % apart after 8 (still learning the sensors seldom under a lone checker)."""

import json

from board.layout import SLOTS

GAIN_PCT = 1
TWO = 2 << 3  # the level of two: 2 counts, in 1/8 count as learned() gives it
COUPLING_PCT = 2


def recall(sensing, saved):
    """Give `sensing` (a new board.sensing.Sensing, before its windows) back what an earlier
    one's learned() gave, as a file held it: each part only if it is as learned() makes it
    and inside what the learning reaches (an int, not a bool, a float or anything else a
    damaged file may hold); anything else leaves that part at its default."""
    if not isinstance(saved, dict):
        return
    g = saved.get("gains")
    if isinstance(g, list) and len(g) == SLOTS:
        for x in g:
            if type(x) is not int or not 1024 <= x <= 16384:
                break
        else:
            for s in range(SLOTS):
                sensing._gain[s] = g[s]
    k = saved.get("coupling")
    if type(k) is int and 1024 <= k <= 16384:
        sensing._ks = k
    lv = sensing._lv
    two = saved.get("two")
    if type(two) is int and (lv[0] + 40) << 3 <= two <= (lv[0] * 3 // 2) << 3 | 7:
        sensing._lv2 = two
        if not -2 < (two >> 3) - lv[1] < 2:  # as the sensing moves it (_learn_set)
            sensing._two_at(two >> 3)


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


def keep(app, name):
    """Write app's (board.app.App) calibration, the file `name`, with what its sensing
    learned, if that moved materially since it was kept; True if written. OSError,
    MemoryError: nothing changed on flash (storage.write is atomic)."""
    now = app.sensor_loop.sensing.learned()
    kept = None
    data = app.hw.storage.read(name)
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
