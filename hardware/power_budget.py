"""Power budget: what the board draws from its supply and what each cable carries, from
pinmap.json's LED limits and the parts' datasheet currents. Fails if the worst case exceeds
the 5 V supply at cap_ma_external or a USB port at cap_ma_usb, or a cable's pin its rating.

    python hardware/power_budget.py           print the table (Markdown)
    python hardware/power_budget.py --check   exit 1 unless hardware/README.md shows it as is
    python hardware/power_budget.py --update  write it into hardware/README.md

The table sits between two `<!-- power budget -->` lines in hardware/README.md ("Build
guide"). 3.3 V loads hang off the Pico's regulator, which runs from VSYS (5 V): they are
counted at their full 3.3 V current on the 5 V side (as if the regulator were linear; the
Pico's buck-boost does better), so the totals err high.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import boards  # noqa: E402
import hwspec  # noqa: E402

README = os.path.join(HERE, "README.md")
MARK = "<!-- power budget -->"

# Datasheet currents, mA: (typical, maximum).
DRV5055_ICC = (6.0, 10.0)  # TI DRV5055, ICC at 3.3 V
HC_ICC = (0.008, 0.008)  # CD74HC4067, 74HC138: quiescent ICC max at 25 C
AHCT125_ICC = (0.02, 0.02 + 1.35)  # 74AHCT125: ICC, plus delta-ICC for one input at 3.3 V
PICO = (25.0, 50.0)  # RP2040 running MicroPython at 125 MHz (Pico datasheet: ~25 mA busy);
#                      the maximum is this budget's allowance, not a datasheet limit
PULL_UP_V = 3.3
SUPPLY_MA = 3000  # the 5 V supply the build guide asks for
USB_MA = 500  # a USB 2.0 port
IDC_PIN_MA = 1000  # a 2.54 mm IDC contact (the ribbons J6-J9 / J1 on the quarters)
JST_XH_PIN_MA = 3000  # a JST XH contact (the bar cables, the tray and dice strip on J2)


def rows(pinmap):
    """(load, rail, typical mA, worst mA) for everything but the lit LEDs."""
    bank = pinmap["sensors"]["count"] // pinmap["sensors"]["banks"]
    muxes = pinmap["sensors"]["banks"] + 1  # eight 74HC4067 and the 74HC138
    n_led = pinmap["leds"]["count"]
    idle = pinmap["leds"]["current"]["ma_idle_per_led"]
    pulls = PULL_UP_V / 10.0 + 2 * PULL_UP_V / 4.7  # R1 10 k while a bank is on; I2C 4.7 k low
    divider = 5.0 / (10.0 + 15.0)  # power sense, 10 k + 15 k from the 5 V input
    return [
        ("one sensor bank (%d x DRV5055A2; the other %d sensors unpowered)"
         % (bank, pinmap["sensors"]["count"] - bank),
         "3.3 V", bank * DRV5055_ICC[0], bank * DRV5055_ICC[1]),
        ("%d logic chips (74HC4067, 74HC138)" % muxes, "3.3 V",
         muxes * HC_ICC[0], muxes * HC_ICC[1]),
        ("pull-ups (bank enable 10 k, I2C 2 x 4.7 k held low)", "3.3 V", PULL_UP_V / 10.0,
         pulls),
        ("Pico (RP2040 running the firmware)", "3.3 V", PICO[0], PICO[1]),
        ("74AHCT125 level shifter, power-sense divider", "5 V", AHCT125_ICC[0] + divider,
         AHCT125_ICC[1] + divider),
        ("%d WS2812B dark (%d mA each)" % (n_led, idle), "LED 5 V", n_led * idle, n_led * idle),
    ]


def budget(pinmap):
    """The figures of the table: {name: (typical, worst)} totals and the LED cases."""
    leds = pinmap["leds"]
    cur = leds["current"]
    n_led = leds["count"]
    base = rows(pinmap)
    board = (sum(r[2] for r in base[:-1]), sum(r[3] for r in base[:-1]))  # without LEDs
    full_white = n_led * (cur["ma_idle_per_led"] + 3 * cur["ma_per_channel"])
    # As the firmware estimates a frame (board.leds.Renderer): channel values after
    # brightness, summed, times ma_per_channel / 255, rounded down.
    channel = 255 * leds["brightness_default"] // 255
    at_default = (n_led * cur["ma_idle_per_led"]
                  + n_led * 3 * channel * cur["ma_per_channel"] // 255)
    return {
        "board": board,
        "full_white": full_white,
        "white_at_default": at_default,
        "cap_external": cur["cap_ma_external"],
        "cap_usb": cur["cap_ma_usb"],
        "external_total": (board[0] + cur["cap_ma_external"], board[1] + cur["cap_ma_external"]),
        "usb_total": (board[0] + cur["cap_ma_usb"], board[1] + cur["cap_ma_usb"]),
    }


def cables(pinmap):
    """5 V current through each cable at the external cap, worst case: (cable, what it feeds,
    5 V mA, +5V pins, GND mA, GND pins, the contact's rating in mA). The firmware caps the whole
    chain, not a board, so a cable's worst is the smaller of the cap and every LED behind it at
    full white; a bar half may draw all its current through one of its two cables."""
    leds = pinmap["leds"]
    cur = leds["current"]
    cap = cur["cap_ma_external"]
    white = cur["ma_idle_per_led"] + 3 * cur["ma_per_channel"]
    per_board = {inst: len(p) for inst, p in boards.board_leds(pinmap).items()}
    quarter, bar = per_board["quarter1"], per_board["bar_black"]
    strip = leds["count"] - sum(per_board.values())
    bank = DRV5055_ICC[1] * pinmap["sensors"]["count"] // pinmap["sensors"]["banks"]
    out = []
    for name, feeds, n, sensors, roles, rating in (
            ("ribbon J6-J9 (16-way IDC)", "a quarter's %d LEDs and its bar half's %d" % (quarter, bar),
             quarter + bar, bank, boards.QUARTER_CABLE, IDC_PIN_MA),
            ("bar cable (8-way JST XH)", "a bar half's %d LEDs" % bar, bar, DRV5055_ICC[1],
             boards.BAR_CABLE, JST_XH_PIN_MA),
            ("J2, tray and dice strip (3-way JST XH)", "%d LEDs" % strip, strip, 0.0,
             ("+5V", "DIN", "GND"), JST_XH_PIN_MA)):
        v5 = min(cap, n * white)
        out.append((name, feeds, v5, roles.count("+5V"), v5 + sensors, roles.count("GND"), rating))
    return out


def per_board(pinmap):
    """(board, its LEDs, 5 V mA, 3.3 V mA), worst case: its LEDs at full white up to the cap,
    its sensors' bank on (a bar half's sensor is on its quarter's bank)."""
    cur = pinmap["leds"]["current"]
    cap = cur["cap_ma_external"]
    white = cur["ma_idle_per_led"] + 3 * cur["ma_per_channel"]
    n = {inst: len(p) for inst, p in boards.board_leds(pinmap).items()}
    strip = pinmap["leds"]["count"] - sum(n.values())
    base = rows(pinmap)
    bank = base[0][3]
    return [
        ("quarter (each of 4)", n["quarter1"], min(cap, n["quarter1"] * white), bank + 2 * HC_ICC[1]),
        ("bar half (each of 2)", n["bar_black"], min(cap, n["bar_black"] * white), DRV5055_ICC[1]),
        ("controller, with the tray and dice strip on J2", strip, min(cap, strip * white) + base[4][3],
         base[1][3] - 8 * HC_ICC[1] + base[2][3] + base[3][3]),
    ]


def pins(n):
    return "%d pin%s" % (n, "" if n == 1 else "s")


def ma(x):
    return ("%.2f" % x) if x < 1 else ("%.0f" % x)


def table(pinmap):
    leds = pinmap["leds"]
    b = budget(pinmap)
    lines = ["| load | rail | typical mA | worst mA |", "|---|---|---|---|"]
    for name, rail, typ, worst in rows(pinmap):
        lines.append("| %s | %s | %s | %s |" % (name, rail, ma(typ), ma(worst)))
    lines.append("| **board without lit LEDs** | | **%s** | **%s** |" % (ma(b["board"][0] + leds[
        "count"] * leds["current"]["ma_idle_per_led"]), ma(b["board"][1] + leds["count"] * leds[
            "current"]["ma_idle_per_led"])))
    lines += [
        "",
        "| LEDs (all %d white) | mA | with the rest of the board (typical / worst) | from |"
        % leds["count"],
        "|---|---|---|---|",
        "| uncapped, full brightness | %d | | none: the firmware scales every frame under its cap |"
        % b["full_white"],
        "| at `brightness_default` %d/255, before the cap | %d | | |"
        % (leds["brightness_default"], b["white_at_default"]),
        "| capped at `cap_ma_external` (GP22 high) | %d | %s / %s | 5 V %d mA supply |"
        % (b["cap_external"], ma(b["external_total"][0]), ma(b["external_total"][1]), SUPPLY_MA),
        "| capped at `cap_ma_usb` (GP22 low, JP1 closed) | %d | %s / %s | USB port, %d mA |"
        % (b["cap_usb"], ma(b["usb_total"][0]), ma(b["usb_total"][1]), USB_MA),
        "",
        "| cable (5 V at `cap_ma_external`, worst) | feeds | +5V mA | per +5V pin | GND mA | per GND pin | contact rating |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, feeds, v5, n5, gnd, ngnd, rating in cables(pinmap):
        lines.append("| %s | %s | %s | %s (%s) | %s | %s (%s) | %d mA |"
                     % (name, feeds, ma(v5), ma(v5 / n5), pins(n5), ma(gnd), ma(gnd / ngnd), pins(ngnd),
                        rating))
    lines += ["", "| board (worst, at `cap_ma_external`) | LEDs | 5 V mA | 3.3 V mA |", "|---|---|---|---|"]
    for name, n, v5, v3 in per_board(pinmap):
        lines.append("| %s | %d | %s | %s |" % (name, n, ma(v5), ma(v3)))
    return "\n".join(lines) + "\n"


def readme_table(path=README):
    with open(path) as f:
        text = f.read()
    parts = text.split(MARK + "\n")
    if len(parts) != 3:
        return None
    return parts[1]


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description="the board's power budget")
    ap.add_argument("--check", action="store_true", help="exit 1 unless the README shows it")
    ap.add_argument("--update", action="store_true", help="write the table into the README")
    ap.add_argument("--pinmap", default=hwspec.PINMAP)
    ap.add_argument("--readme", default=README)
    args = ap.parse_args(argv)
    pinmap = hwspec.load_json(args.pinmap)
    text = table(pinmap)
    b = budget(pinmap)
    if b["external_total"][1] > SUPPLY_MA:
        print("power budget: worst case %d mA exceeds the %d mA supply"
              % (b["external_total"][1], SUPPLY_MA), file=sys.stderr)
        return 1
    if b["usb_total"][1] > USB_MA:
        print("power budget: worst case on USB alone %d mA exceeds the %d mA of a USB port: "
              "lower leds.current.cap_ma_usb" % (b["usb_total"][1], USB_MA), file=sys.stderr)
        return 1
    for name, feeds, v5, n5, gnd, ngnd, rating in cables(pinmap):
        if v5 / n5 > rating or gnd / ngnd > rating:
            print("power budget: %s carries %d mA on +5V (%d pins) and %d mA on GND (%d pins): "
                  "over its %d mA a contact" % (name, v5, n5, gnd, ngnd, rating), file=sys.stderr)
            return 1
    if not (args.check or args.update):
        sys.stdout.write(text)
        return 0
    shown = readme_table(args.readme)
    if shown is None:
        print("power budget: %s has no table between two %r lines" % (args.readme, MARK),
              file=sys.stderr)
        return 1
    if args.update:
        with open(args.readme) as f:
            before, _, after = f.read().split(MARK + "\n")
        with open(args.readme, "w") as f:
            f.write(before + MARK + "\n" + text + MARK + "\n" + after)
        return 0
    if shown != text:
        print("power budget: the table in %s is stale: run `make hardware-update`"
              % args.readme, file=sys.stderr)
        return 1
    print("power budget: README table fresh (worst %d mA of the %d mA supply, %d mA of USB's %d)"
          % (b["external_total"][1], SUPPLY_MA, b["usb_total"][1], USB_MA))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
