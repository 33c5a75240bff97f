"""Each slot's sensor channel, from the pin map: loaded by main.py while it builds a Pico's
scanner (and by the emulated Pico's harness), then let go: it is not resident."""

from board.layout import BAR_SLOTS, BLACK_SIGN, POINT_SLOTS, POINTS, SLOTS, WHITE_SIGN, \
    bar_slot


def slot_table(sensors, channels=16):
    """Each slot's (bank, channel), from hardware/pinmap.json's "sensors" section: "points"
    (24 lists of 5 scan indices, slot 0 first) and "bar" ({"white": 4, "black": 4}), a
    scan index being bank * channels + channel."""
    points = sensors["points"]
    bar = sensors["bar"]
    if len(points) != POINTS or len(bar["white"]) != BAR_SLOTS or len(bar["black"]) != BAR_SLOTS:
        raise ValueError("pin map: 24 points and 4 bar slots per colour")
    index = [0] * SLOTS
    for p in range(POINTS):
        if len(points[p]) != POINT_SLOTS:
            raise ValueError("pin map: point %d needs %d slots" % (p + 1, POINT_SLOTS))
        for k in range(POINT_SLOTS):
            index[p * POINT_SLOTS + k] = points[p][k]
    for k in range(BAR_SLOTS):
        index[bar_slot(WHITE_SIGN, k)] = bar["white"][k]
        index[bar_slot(BLACK_SIGN, k)] = bar["black"][k]
    if len(set(index)) != SLOTS:
        raise ValueError("pin map: two slots share a sensor channel")
    return [(i // channels, i % channels) for i in index]
