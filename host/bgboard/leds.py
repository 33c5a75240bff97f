"""The board's LED chain as the host reads it: where each chain index is (hardware/pinmap.json's
`leds` section) and what a lit colour means (the roles' colours are the contract's,
bgwire). Shared by `bgboard play` (LEDs in words) and the browser view (LEDs drawn)."""

import json
import os

from bgboard.firmware import HARDWARE_DIR
from bgwire.roles import ROLES, dimmed, role_at

SIDE_NAMES = ("white", "black")
PIP_NAMES = ("tl", "tr", "ml", "c", "mr", "bl", "br")
OTHER = "other"  # a colour no role has (the LED test's white)


def role(hex_colour, brightness=None):
    """The meaning of a lit colour "rrggbb" as the `leds` live line gives it: the role the
    board draws exactly so at `brightness` (default: hardware/pinmap.json's), else at any
    brightness (the highest that fits), else OTHER."""
    rgb = tuple(int(hex_colour[k:k + 2], 16) for k in (0, 2, 4))
    if brightness is None:
        brightness = led_places().brightness
    found = role_at(rgb, brightness) if brightness is not None else None
    if found is None:
        found = _any_brightness().get(rgb)
    return found or OTHER


def nearest_role(rgb):
    """The role whose colour points the same way as rgb (r, g, b): for colours measured off
    the LED wire, where the current cap scales them further."""
    top = max(rgb) or 1
    rgb = [c * 255 / top for c in rgb]
    return min(ROLES, key=lambda r: sum((a - b) ** 2 for a, b in zip(r[1], rgb)))[0]


_ANY = {}


def _any_brightness():
    # {rgb: role} over every brightness, the highest brightness winning a clash.
    if not _ANY:
        for k in range(1, 256):
            for name, colour in ROLES:
                _ANY[dimmed(colour, k)] = name
    return _ANY


def load_ledmap(path=None):
    """hardware/pinmap.json's `leds` section."""
    with open(path or os.path.join(HARDWARE_DIR, "pinmap.json")) as f:
        return json.load(f)["leds"]


class LedPlaces:
    """Where each chain index is: ("point", p, k), ("bar", side, k), ("tray", side, k) or
    ("die", d, pip name)."""

    def __init__(self, leds):
        self.where = {}
        for p, slots in enumerate(leds["points"]):
            for k, i in enumerate(slots):
                self.where[i] = ("point", p + 1, k)
        for side, colour in enumerate(SIDE_NAMES):
            for k, i in enumerate(leds["bar"][colour]):
                self.where[i] = ("bar", side, k)
            for k, i in enumerate(leds["tray"][colour]):
                self.where[i] = ("tray", side, k)
        names = leds.get("dice_pips") or list(PIP_NAMES)
        for d, pips in enumerate(leds["dice"]):
            for n, i in enumerate(pips):
                self.where[i] = ("die", d, names[n])
        self.count = leds.get("count", len(self.where))
        self.brightness = leds.get("brightness_default")  # the colours are drawn at this

    def name(self, i):
        """Chain index i in words: "point 5", "white's bar", "black's tray", "die 1"."""
        w = self.where.get(i)
        if w is None:
            return "LED %d" % i
        if w[0] == "point":
            return "point %d" % w[1]
        if w[0] == "die":
            return "die %d" % (w[1] + 1)
        return "%s's %s" % (SIDE_NAMES[w[1]], w[0])


_PLACES = []


def led_places():
    """The LedPlaces of hardware/pinmap.json (read once)."""
    if not _PLACES:
        _PLACES.append(LedPlaces(load_ledmap()))
    return _PLACES[0]
