"""The split of the one circuit (circuit.py) into the boards a fab makes: which part sits on
which board, each board's own netlist, and the cables between them.

Plain Python (no SKiDL, no pcbnew): circuit.py calls write_board_netlists() on the netlist it
has just written, and pcb.py (under KiCad's Python) builds each board from what this writes.

Designs and how often each is made:
  quarter    x4  the 30 sensors of one quarter (6 points x 5 slots) with their 100 nF, the two
                 banks' muxes, bank switches and decoupling, the 30 slot LEDs (WS2812B, 100 nF
                 each); J1 = ribbon to the controller, J2 = 8-way cable to the bar half. Quarters 1 and 2 (bottom) are the same board
                 translated, quarters 3 and 4 (top) the same board turned 180 degrees.
  bar        x2  the 4 bar sensors of one colour and their 4 LEDs; J1/J2 = cables to the
                 quarters on its local right/left. Black half at the bottom, white half turned 180 degrees on top.
  controller x1  the Pico, the bank decoder, the LED stage, power, buttons, J6..J9 to quarters,
                 J2 to the tray and dice LEDs (a strip or panel off the boards).

The LED chain (pinmap.json) runs controller -> J6 -> quarter 1 -> its bar cable -> black bar
half -> quarter 2 -> J7, across the controller to J8 -> quarter 3 -> white bar half -> quarter
4 -> J9 -> the controller's J2. Every quarter has its LED_IN and LED_OUT on both cables (one
design), so each data line also reaches one connector pin where nothing drives or reads it: a
stub of one cable's length, harmless at the WS2812B's 800 kHz.

A design is made several times only if every instance's netlist, in the design's own
designators and net names, is the same: check_designs() proves it for the pin map in use (a pin
map that puts a quarter's sensors on another quarter's banks fails here, with a message).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hwspec  # noqa: E402
import netcheck  # noqa: E402

# Pin meaning of the cables (pin 1 first). Both ends of a cable carry the same net on a pin.
# The quarter cable (16-way ribbon, 2.54 mm IDC, ~1 A a pin) carries a quarter's and its bar
# half's LEDs at the firmware's cap (power_budget.py: about 2.1 A), so +5V has three pins and
# GND three (the sensors' return too). LED_IN / LED_OUT: the quarter's first LED's DIN and last
# LED's DOUT. The bar cable (8-way JST XH) feeds the bar half's 4 LEDs (0.25 A) on one pin.
QUARTER_CABLE = ("+3V3", "GND", "MUX_S0", "MUX_S1", "MUX_S2", "MUX_S3", "BANK_LO_N", "BANK_HI_N",
                 "HALL_ADC", "GND", "LED_IN", "GND", "LED_OUT", "+5V", "+5V", "+5V")
BAR_CABLE = ("VBANK_LO", "VBANK_HI", "BAR_LO", "BAR_HI", "GND", "+5V", "Q_OUT", "Q_IN")

DESIGNS = ("quarter", "bar", "controller")
# Instance name -> design.
INSTANCES = {"quarter1": "quarter", "quarter2": "quarter", "quarter3": "quarter",
             "quarter4": "quarter", "bar_black": "bar", "bar_white": "bar",
             "controller": "controller"}
# The bar halves' local right (J1) and left (J2) quarters: the white half is turned 180 degrees.
BAR_QUARTERS = {"bar_black": (1, 2), "bar_white": (3, 4)}


def quarter_banks(q):
    """The two banks (lo, hi) whose muxes and switches sit on quarter q (1..4)."""
    return 2 * q - 2, 2 * q - 1


def quarter_of_point(p):
    return (p - 1) // 6 + 1


def quarter_column(p):
    """Local column (0..5, left to right on the quarter board) of point p."""
    return 6 * quarter_of_point(p) - p


def bar_out_net(nets, pinmap, bank):
    """The output net of the bar sensor on bank `bank` (the quarter's cable carries it)."""
    scan = hwspec.scan_of_slot(pinmap)
    nch = pinmap["sensors"]["channels"]
    found = [sid for sid in range(hwspec.POINTS * hwspec.SLOTS, hwspec.SENSORS) if scan[sid] // nch == bank]
    if len(found) != 1:
        raise SystemExit("boards: bank %d must carry exactly one bar sensor (it has %d): the quarter "
                         "boards take one bar slot per bank" % (bank, len(found)))
    return nets["HALL_" + hwspec.slot_name(found[0]).replace(".", "_")]


def place_of(ref):
    """(instance, local designator) of a part of the whole circuit."""
    m = re.match(r"([A-Z]+)(\d+)$", ref)
    prefix, num = m.group(1), m.group(2)
    if prefix in ("U", "C", "D") and len(num) == 4:  # a slot's sensor U1PPS, LED D1PPS, their
        pp, s = int(num[1:3]), int(num[3])  # 100 nF C1PPS / C2PPS (locally C11 / C111)
        if prefix == "C" and num[0] == "2":
            prefix = "C1"
        if pp <= hwspec.POINTS:
            return "quarter%d" % quarter_of_point(pp), "%s%d%d" % (prefix, quarter_column(pp) + 1, s + 1)
        return ("bar_white" if pp == 25 else "bar_black"), "%s%d" % (prefix, s + 1)
    if prefix in ("U", "C", "Q") and len(num) == 1 and 1 <= int(num) <= 8:  # a bank's mux, switch, 100 nF
        b = int(num) - 1
        return "quarter%d" % (b // 2 + 1), "%s%d" % (prefix, b % 2 + 1)
    if prefix == "C" and len(num) == 2 and num[0] == "9":  # C9q: quarter q's 10 uF on +5V
        return "quarter%s" % num[1], "C3"
    if prefix == "J" and len(num) == 3:  # J1q1 / J1q2 on quarter q
        return "quarter%s" % num[1], "J%s" % num[2]
    if prefix == "J" and len(num) == 2:  # J2q on the bar half that quarter q reaches
        q = int(num[1])
        for inst, qs in BAR_QUARTERS.items():
            if q in qs:
                return inst, "J%d" % (qs.index(q) + 1)
    return "controller", ref


def _local_net_name(inst, name, nodes):
    design = INSTANCES[inst]
    if design == "controller":
        return name
    for ref, pin in sorted(nodes):
        if ref in ("J1", "J2"):
            if design == "quarter":
                return (QUARTER_CABLE if ref == "J1" else BAR_CABLE)[int(pin) - 1]
            role = BAR_CABLE[int(pin) - 1]
            return role if role in ("GND", "+5V") else ("R_" if ref == "J1" else "L_") + role
    sensors = sorted(r for r, p in nodes if r.startswith("U") and len(r) >= 3 and p == str(netcheck.HALL_OUT))
    if sensors:
        return "OUT_" + sensors[0]
    return "N_%s_%s" % min(nodes)


def split(nl):
    """{instance: Netlist in local designators and names} from the whole circuit's netlist."""
    parts = {inst: {} for inst in INSTANCES}
    local = {}
    for ref, info in nl.parts.items():
        inst, lref = place_of(ref)
        parts[inst][lref] = info
        local[ref] = (inst, lref)
    nets = {inst: {} for inst in INSTANCES}
    for name, nodes in nl.nets.items():
        by_inst = {}
        for ref, pin in nodes:
            inst, lref = local[ref]
            by_inst.setdefault(inst, set()).add((lref, pin))
        if len(by_inst) > 1:
            for inst, lnodes in sorted(by_inst.items()):
                if not any(r.startswith("J") for r, _ in lnodes):
                    raise SystemExit("boards: net %s runs from %s to %s with no cable: the pin map "
                                     "puts a sensor on another board's mux" % (
                                         name, inst, ", ".join(i for i in sorted(by_inst) if i != inst)))
        for inst, lnodes in by_inst.items():
            lname = _local_net_name(inst, name, lnodes)
            if lname in nets[inst]:
                raise SystemExit("boards: %s: two nets would be called %s" % (inst, lname))
            nets[inst][lname] = lnodes
    return {inst: netcheck.Netlist(parts[inst], nets[inst]) for inst in INSTANCES}


def check_designs(boards):
    """Every instance of a design has the same netlist; the problems as sentences."""
    problems = []
    first = {}
    for inst, design in INSTANCES.items():
        nl = boards[inst]
        key = (sorted((r, p["value"], p["footprint"]) for r, p in nl.parts.items()),
               sorted((n, sorted(v)) for n, v in nl.nets.items()))
        if design not in first:
            first[design] = (inst, key)
        elif first[design][1] != key:
            a, b = first[design][1], key
            diff = sorted(set(map(str, a[1])) ^ set(map(str, b[1])))[:3]
            problems.append("%s is not the same board as %s (one %s design for both): %s"
                            % (inst, first[design][0], design, "; ".join(diff) or "parts differ"))
    return problems


def board_leds(pinmap):
    """{instance: {local place: chain index}} for the LEDs of the point and bar slots; a
    quarter's place is (local column, slot), a bar half's the slot k (0 at its outer edge)."""
    leds = pinmap["leds"]
    out = {inst: {} for inst, design in INSTANCES.items() if design != "controller"}
    for p in range(1, hwspec.POINTS + 1):
        for s, idx in enumerate(leds["points"][p - 1]):
            out["quarter%d" % quarter_of_point(p)][(quarter_column(p), s)] = idx
    for c in hwspec.COLOURS:
        for k, idx in enumerate(leds["bar"][c]):
            out["bar_" + c][k] = idx
    return out


def check_led_chain(pinmap):
    """The LED chain table follows the boards: the chain passes through each board once (its
    LEDs are one run of indices, DIN in and DOUT out through its cables), in the same order
    relative to the board on every instance of a design (one design carries them all). The
    problems as sentences."""
    problems = []
    first = {}
    for inst, places in board_leds(pinmap).items():
        idx = sorted(places.values())
        if idx != list(range(idx[0], idx[0] + len(idx))):
            problems.append("%s: its LEDs are not one run of the chain (%s)" % (inst, idx))
            continue
        order = sorted(places, key=places.get)
        design = INSTANCES[inst]
        if design not in first:
            first[design] = (inst, order)
        elif first[design][1] != order:
            ref = first[design][1]
            n = next(i for i in range(len(order)) if order[i] != ref[i])
            problems.append("%s chains its LEDs in another order than %s (one %s design for both): "
                            "its LED %d at %s, not %s" % (inst, first[design][0], design, n, order[n], ref[n]))
    return problems


def netlist_text(nl):
    """A KiCad netlist (the subset netcheck.parse_netlist and pcb.py read)."""

    def q(s):
        return '"%s"' % str(s).replace('"', '\\"')

    out = ["(export (version \"E\")", "  (components"]
    for ref in sorted(nl.parts, key=netcheck.ref_key):
        p = nl.parts[ref]
        out.append("    (comp (ref %s) (value %s) (footprint %s) (libsource (part %s)))"
                   % (q(ref), q(p["value"]), q(p["footprint"]), q(p["part"])))
    out.append("  )")
    out.append("  (nets")
    for code, name in enumerate(sorted(nl.nets), 1):
        nodes = " ".join("(node (ref %s) (pin %s))" % (q(r), q(p))
                         for r, p in sorted(nl.nets[name], key=lambda n: (netcheck.ref_key(n[0]), n[1])))
        out.append("    (net (code %d) (name %s) %s)" % (code, q(name), nodes))
    out.append("  )")
    out.append(")")
    return "\n".join(out) + "\n"


def write_board_netlists(nl, outdir):
    """Split, check that each design fits all its instances, write outdir/NAME.net per design.
    Returns the problems (empty if none)."""
    boards = split(nl)
    problems = check_designs(boards)
    if problems:
        return problems
    os.makedirs(outdir, exist_ok=True)
    done = set()
    for inst, design in INSTANCES.items():
        if design in done:
            continue
        done.add(design)
        with open(os.path.join(outdir, design + ".net"), "w") as f:
            f.write(netlist_text(boards[inst]))
    return []
