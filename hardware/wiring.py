"""Draw the wiring diagram hardware/wiring.svg from pinmap.json and geometry.json.

    python hardware/wiring.py            write hardware/wiring.svg
    python hardware/wiring.py --check    exit 1 if wiring.svg is stale

The board seen from White's side: every sensor slot with its mux and channel (U<bank+1>.<ch>,
coloured by bank) and the index of its LED in the chain; the LED chain drawn in order from the
Pico's data pin; bar, trays and dice LEDs; the Pico pin table.
"""

import os
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hwspec  # noqa: E402

SVG_PATH = os.path.join(HERE, "wiring.svg")
SCALE = 2.2  # px per mm
BANK_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"]
TRAY_GAP = 12.0
PIP = 8.0


def f(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


class Canvas:
    def __init__(self, geo):
        self.geo = geo
        lay = geo["layout"]
        self.hd = hwspec.half_depth(geo)
        self.hw = lay["bar_width_mm"] / 2 + 6 * lay["point_pitch_mm"]
        self.tray_x = self.hw + TRAY_GAP + lay["tray_width_mm"] / 2
        self.left = self.hw + 30  # mm of margin on the left (point labels)
        self.top = 30.0
        self.items = []

    def xy(self, x, y):
        return (self.left + x) * SCALE, (self.top + self.hd - y) * SCALE

    def add(self, s):
        self.items.append(s)

    def text(self, x, y, s, size=9, anchor="middle", fill="#000", weight="normal", px=False):
        if not px:
            x, y = self.xy(x, y)
        self.add('<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s" font-weight="%s">%s</text>'
                 % (f(x), f(y), size, anchor, fill, weight, escape(s)))


def tray_led_xy(c, colour, k):
    g = c.geo
    top = g["layout"]["bar_white_half"] == "top"
    if colour == "white":
        top = not top  # White bears off beside its home board, at the other half from its bar slots
    y = c.hd - g["layout"]["slot0_from_edge_mm"] - 24.0 * k
    return c.tray_x, (y if top else -y)


PIP_XY = {"tl": (-1, 1), "tr": (1, 1), "ml": (-1, 0), "c": (0, 0), "mr": (1, 0), "bl": (-1, -1), "br": (1, -1)}


def die_centre(c, d):
    return c.tray_x, (18.0 if d == 0 else -18.0)


def render(pinmap, geo):
    c = Canvas(geo)
    lay = geo["layout"]
    hd, hw = c.hd, c.hw
    nch = pinmap["sensors"]["channels"]

    # Board, bar, trays.
    x0, y0 = c.xy(-hw, hd)
    x1, y1 = c.xy(hw, -hd)
    c.add('<rect x="%s" y="%s" width="%s" height="%s" fill="#f4ead5" stroke="#333" stroke-width="2"/>'
          % (f(x0), f(y0), f(x1 - x0), f(y1 - y0)))
    bx0, _ = c.xy(-lay["bar_width_mm"] / 2, hd)
    c.add('<rect x="%s" y="%s" width="%s" height="%s" fill="#c9b38a" stroke="#333"/>'
          % (f(bx0), f(y0), f(lay["bar_width_mm"] * SCALE), f(y1 - y0)))
    tx0, _ = c.xy(c.tray_x - lay["tray_width_mm"] / 2, hd)
    c.add('<rect x="%s" y="%s" width="%s" height="%s" fill="#e8e0cc" stroke="#333"/>'
          % (f(tx0), f(y0), f(lay["tray_width_mm"] * SCALE), f(y1 - y0)))

    # Points (triangles), numbered at their base.
    pp = lay["point_pitch_mm"]
    for p in range(1, 25):
        x = hwspec.point_x(geo, p)
        top = p > 12
        base = hd if top else -hd
        tip = hwspec.slot_y(geo, top, hwspec.SLOTS - 1) + (-14 if top else 14)
        pts = [c.xy(x - pp / 2 + 1, base), c.xy(x + pp / 2 - 1, base), c.xy(x, tip)]
        fill = "#b8860b" if p % 2 else "#556b2f"
        c.add('<polygon points="%s" fill="%s" fill-opacity="0.35" stroke="#555"/>'
              % (" ".join("%s,%s" % (f(a), f(b)) for a, b in pts), fill))
        c.text(x, base + (6 if top else -10), str(p), size=12, weight="bold")

    # The LED chain in order.
    led_pos = {}
    for sid, idx in enumerate(hwspec.led_of_slot(pinmap)):
        led_pos[idx] = hwspec.led_xy(geo, sid)
    for colour in hwspec.COLOURS:
        for k, idx in enumerate(pinmap["leds"]["tray"][colour]):
            led_pos[idx] = tray_led_xy(c, colour, k)
    for d, die in enumerate(pinmap["leds"]["dice"]):
        cx, cy = die_centre(c, d)
        for pip, idx in zip(pinmap["leds"]["dice_pips"], die):
            dx, dy = PIP_XY[pip]
            led_pos[idx] = (cx + dx * PIP, cy + dy * PIP)
    chain = [c.xy(*led_pos[i]) for i in range(pinmap["leds"]["count"])]
    c.add('<polyline points="%s" fill="none" stroke="#0a7" stroke-width="1.2" stroke-dasharray="4,2" '
          'marker-mid="url(#arrow)"/>' % " ".join("%s,%s" % (f(a), f(b)) for a, b in chain))
    sx, sy = chain[0]
    c.text(sx + 6, sy + 26, "LED DIN (from J6)", size=9, fill="#0a7", px=True)
    for i, (x, y) in enumerate(chain):
        c.add('<circle cx="%s" cy="%s" r="3" fill="#0c9"/>' % (f(x), f(y)))
        c.text(x + 4, y - 4, str(i), size=7, fill="#064", anchor="start", px=True)

    # Dice squares.
    for d in range(2):
        cx, cy = die_centre(c, d)
        a, b = c.xy(cx - 13, cy + 13)
        c.add('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#333"/>'
              % (f(a), f(b), f(26 * SCALE), f(26 * SCALE)))
        c.text(cx - 16, cy, "die %d" % d, size=8, anchor="end")

    # Sensors: mux and channel, coloured by bank.
    for sid, sc in enumerate(hwspec.scan_of_slot(pinmap)):
        b, ch = sc // nch, sc % nch
        x, y = c.xy(*hwspec.slot_xy(geo, sid))
        c.add('<circle cx="%s" cy="%s" r="11" fill="%s" fill-opacity="0.85" stroke="#222"/>'
              % (f(x), f(y), BANK_COLOURS[b % len(BANK_COLOURS)]))
        c.text(x, y - 1, "U%d.%d" % (b + 1, ch), size=7, fill="#fff", weight="bold", px=True)
        c.text(x, y + 7, hwspec.slot_name(sid), size=6, fill="#fff", px=True)
    # Labels.
    c.text(0, hd + 4, "bar", size=10)
    wtop = lay["bar_white_half"] == "top"
    c.text(c.tray_x, hd + 4, "%s tray" % ("Black" if wtop else "White"), size=10)
    c.text(c.tray_x, -hd - 10, "%s tray" % ("White" if wtop else "Black"), size=10)
    c.text(0, -hd - 22, "White's side (points in White's numbering)", size=12, weight="bold")

    # Legend and the pin table, below the hwspec.
    lx, ly = 20.0, (c.top + 2 * hd + 38) * SCALE
    rows = ["Sensors: circle = hall sensor, 'U<m>.<ch>' = mux U<m> (bank m-1) channel ch; "
            "scan index = bank*16 + channel. Green dots: LEDs, numbered in chain order."]
    for b in range(pinmap["sensors"]["banks"]):
        slots = [hwspec.slot_name(s) for s, sc in enumerate(hwspec.scan_of_slot(pinmap)) if sc // nch == b]
        pts = sorted({s.split(".")[0] for s in slots if s.startswith("P")}, key=lambda s: int(s[1:]))
        bars = [s for s in slots if s.startswith("B")]
        rows.append("bank %d: mux U%d, switch Q%d, 74HC138 ~Y%d: points %s + bar %s"
                    % (b, b + 1, b + 1, b, ", ".join(p[1:] for p in pts), ", ".join(bars)))
    for i, r in enumerate(rows):
        if i:
            c.add('<rect x="%s" y="%s" width="10" height="10" fill="%s"/>'
                  % (f(lx), f(ly + i * 15 - 9), BANK_COLOURS[(i - 1) % len(BANK_COLOURS)]))
        c.text(lx + 14, ly + i * 15, r, size=10, anchor="start", px=True)
    ty = ly + (len(rows) + 1) * 15
    c.text(lx, ty, "Raspberry Pi Pico pins (from pinmap.json)", size=11, anchor="start", weight="bold", px=True)
    roles = sorted(hwspec.gpio_roles(pinmap).items())
    per_col = (len(roles) + 2) // 3
    for i, (gpio, role) in enumerate(roles):
        col, row = divmod(i, per_col)
        c.text(lx + col * 330, ty + 16 + row * 14, "GP%-2d  %s" % (gpio, role), size=10, anchor="start", px=True)
    height = ty + 16 + per_col * 14 + 20
    width = (c.left + c.tray_x + lay["tray_width_mm"] / 2 + 20) * SCALE

    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" '
            'font-family="DejaVu Sans, Arial, sans-serif">\n'
            '<title>bgboard reference wiring: sensors, muxes and LED chain</title>\n'
            '<defs><marker id="arrow" viewBox="0 0 6 6" refX="3" refY="3" markerWidth="5" markerHeight="5" '
            'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#0a7"/></marker></defs>\n'
            '<rect width="100%%" height="100%%" fill="#fff"/>\n' % (f(width), f(height), f(width), f(height)))
    return head + "\n".join(c.items) + "\n</svg>\n"


def main(argv):
    svg = render(hwspec.load_pinmap(), hwspec.load_geometry())
    if "--check" in argv:
        try:
            with open(SVG_PATH) as fh:
                old = fh.read()
        except OSError:
            old = ""
        if old != svg:
            print("wiring.svg is stale relative to pinmap.json / geometry.json: run `make hardware-update`")
            return 1
        print("wiring diagram: fresh")
        return 0
    with open(SVG_PATH, "w") as fh:
        fh.write(svg)
    print("wiring diagram: wrote %s (%d bytes)" % (os.path.relpath(SVG_PATH), len(svg)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
