"""Shared model of the reference board: the pin map, the geometry and the logical slots.

Plain Python (no third-party imports) so the tests, the circuit script, the field model and
the wiring diagram all read pinmap.json and geometry.json the same way.

Logical slot ids (used by field_table.json and the tests):
  point p (1..24), slot s (0..4)  -> (p - 1) * 5 + s      (0..119)
  white bar slot k (0..3)         -> 120 + k
  black bar slot k (0..3)         -> 124 + k
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PINMAP = os.path.join(HERE, "pinmap.json")
GEOMETRY = os.path.join(HERE, "geometry.json")
FIELD_TABLE = os.path.join(HERE, "field_table.json")

POINTS = 24
SLOTS = 5
BAR_SLOTS = 4
SENSORS = POINTS * SLOTS + 2 * BAR_SLOTS  # 128
COLOURS = ("white", "black")
BUTTONS = ("roll", "double", "take", "drop", "undo_verify", "menu")
# The DRV5055's power-on time (TI SBAS640, electrical characteristics, t_ON at B = 0 mT, no
# load on OUT): 175 us typical, 330 us at most. A bank's readings before it are not valid.
SENSOR_POWER_ON_US_MAX = 330


def load_json(path):
    with open(path) as f:
        return json.load(f)


def load_pinmap(path=PINMAP):
    return load_json(path)


def load_geometry(path=GEOMETRY):
    return load_json(path)


def slot_id(point, slot):
    return (point - 1) * SLOTS + slot


def bar_id(colour, k):
    return POINTS * SLOTS + COLOURS.index(colour) * BAR_SLOTS + k


def slot_name(sid):
    """'P6.0' for point 6 slot 0, 'BW2' / 'BB2' for white / black bar slot 2."""
    if sid < POINTS * SLOTS:
        return "P%d.%d" % (sid // SLOTS + 1, sid % SLOTS)
    k = sid - POINTS * SLOTS
    return "B%s%d" % ("WB"[k // BAR_SLOTS], k % BAR_SLOTS)


def all_slots():
    """Every logical slot: (id, kind, a, b) with kind 'point' (a=point, b=slot) or 'bar'
    (a=colour, b=k), in id order."""
    out = []
    for p in range(1, POINTS + 1):
        for s in range(SLOTS):
            out.append((slot_id(p, s), "point", p, s))
    for c in COLOURS:
        for k in range(BAR_SLOTS):
            out.append((bar_id(c, k), "bar", c, k))
    return out


def scan_of_slot(pinmap):
    """List indexed by logical slot id: the slot's scan index (bank * 16 + channel)."""
    sens = pinmap["sensors"]
    out = []
    for p in range(POINTS):
        out.extend(sens["points"][p])
    for c in COLOURS:
        out.extend(sens["bar"][c])
    return out


def bank_channel(pinmap, scan):
    ch = pinmap["sensors"]["channels"]
    return scan // ch, scan % ch


def led_of_slot(pinmap):
    """List indexed by logical slot id: the slot's LED chain index."""
    leds = pinmap["leds"]
    out = []
    for p in range(POINTS):
        out.extend(leds["points"][p])
    for c in COLOURS:
        out.extend(leds["bar"][c])
    return out


def all_leds(pinmap):
    """Every LED as (chain index, description)."""
    leds = pinmap["leds"]
    out = []
    for sid, idx in enumerate(led_of_slot(pinmap)):
        out.append((idx, slot_name(sid)))
    for c in COLOURS:
        for k, idx in enumerate(leds["tray"][c]):
            out.append((idx, "T%s%d" % (c[0].upper(), k)))
    for d, die in enumerate(leds["dice"]):
        for pip, idx in zip(leds["dice_pips"], die):
            out.append((idx, "D%d.%s" % (d, pip)))
    return out


def gpio_roles(pinmap):
    """Every GPIO the design uses, as {gpio: role}; raises ValueError if one is used twice."""
    g = pinmap["gpio"]
    roles = []
    for i, pin in enumerate(g["mux_select"]):
        roles.append((pin, "mux_select.S%d" % i))
    for i, pin in enumerate(g["bank_select"]):
        roles.append((pin, "bank_select.A%d" % i))
    roles.append((g["bank_enable"]["pin"], "bank_enable"))
    roles.append((g["adc"]["pin"], "adc"))
    roles.append((g["led_data"]["pin"], "led_data"))
    roles.append((g["power_sense"]["pin"], "power_sense"))
    for name, b in g["buttons"].items():
        roles.append((b["pin"], "button." + name))
    roles.append((g["uart"]["tx"], "uart.tx"))
    roles.append((g["uart"]["rx"], "uart.rx"))
    roles.append((g["i2c"]["sda"], "i2c.sda"))
    roles.append((g["i2c"]["scl"], "i2c.scl"))
    out = {}
    for pin, role in roles:
        if pin in out:
            raise ValueError("GPIO %d used twice: %s and %s" % (pin, out[pin], role))
        out[pin] = role
    return out


# --- physical positions (mm, board frame of geometry.json) ---------------------------------


def half_depth(geo):
    lay = geo["layout"]
    return lay["slot0_from_edge_mm"] + (SLOTS - 1) * lay["slot_pitch_mm"] + lay["tip_gap_mm"] / 2


def point_x(geo, p):
    """Centre line x of point p (White's numbering)."""
    lay = geo["layout"]
    inner = lay["bar_width_mm"] / 2
    pitch = lay["point_pitch_mm"]
    if p <= 6:
        k, side = 6 - p, 1
    elif p <= 12:
        k, side = p - 7, -1
    elif p <= 18:
        k, side = 18 - p, -1
    else:
        k, side = p - 19, 1
    return side * (inner + pitch * (k + 0.5))


def slot_y(geo, top, s):
    lay = geo["layout"]
    y = -half_depth(geo) + lay["slot0_from_edge_mm"] + s * lay["slot_pitch_mm"]
    return -y if top else y


def slot_xy(geo, sid):
    """Position (x, y) in mm of the sensor of logical slot sid."""
    if sid < POINTS * SLOTS:
        p, s = sid // SLOTS + 1, sid % SLOTS
        return point_x(geo, p), slot_y(geo, p > 12, s)
    k = sid - POINTS * SLOTS
    colour, k = COLOURS[k // BAR_SLOTS], k % BAR_SLOTS
    top = geo["layout"]["bar_white_half"] == "top"
    if colour == "black":
        top = not top
    return 0.0, slot_y(geo, top, k)


def slot_on_top_half(geo, sid):
    """True if logical slot sid's sensor is on the top half (boards turned 180 degrees)."""
    return slot_xy(geo, sid)[1] > 0


def led_xy(geo, sid):
    """Position (x, y) in mm of the LED of logical slot sid: beside its sensor, on the sensor's
    right as its board sees it (geometry.json "leds")."""
    x, y = slot_xy(geo, sid)
    dx = geo["leds"]["beside_sensor_mm"]
    return (x - dx if slot_on_top_half(geo, sid) else x + dx), y
