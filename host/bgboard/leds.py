"""The board's LED chain as the host reads it: where each chain index is (hardware/pinmap.json's
`leds` section) and what a lit colour means (the firmware's colours, board/leds.py). Shared by
`bgboard play` (LEDs in words) and the browser view (LEDs drawn)."""

import json
import os

from bgboard.firmware import HARDWARE_DIR

# The firmware's colours and what they mean.
ROLES = (((0, 60, 255), "origin"), ((0, 255, 40), "may go"), ((255, 0, 0), "wrong"),
         ((255, 140, 0), "missing"), ((255, 0, 90), "extra"), ((200, 0, 255), "hit"),
         ((255, 255, 200), "dice"))
SIDE_NAMES = ("white", "black")
PIP_NAMES = ("tl", "tr", "ml", "c", "mr", "bl", "br")


def role(hex_colour):
    """The meaning of a lit colour "rrggbb" (brightness scales it: compare directions)."""
    rgb = [int(hex_colour[k:k + 2], 16) for k in (0, 2, 4)]
    top = max(rgb) or 1
    rgb = [c * 255 / top for c in rgb]
    return min(ROLES, key=lambda r: sum((a - b) ** 2 for a, b in zip(r[0], rgb)))[1]


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
