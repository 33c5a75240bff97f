"""Check a KiCad netlist of the board against pinmap.json, pin for pin.

Plain Python (no SKiDL): it reads the netlist file that circuit.py wrote and compares every
connection the pin map implies with what the netlist holds, using the parts' datasheet pinouts
written out below (not SKiDL's library symbols, so a wrong symbol is caught too).

    python hardware/netcheck.py NETLIST [PINMAP]
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hwspec  # noqa: E402

# Raspberry Pi Pico module pins (datasheet pinout), number -> name.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12",
    17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18",
    25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26_ADC0",
    32: "GP27_ADC1", 33: "AGND", 34: "GP28_ADC2", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN",
    38: "GND", 39: "VSYS", 40: "VBUS",
}
PICO_GPIO = {int(re.match(r"GP(\d+)", n).group(1)): num for num, n in PICO_PINS.items() if n.startswith("GP")}
PICO_3V3, PICO_VSYS, PICO_GND = 36, 39, 3

# CD74HC4067 (SOIC-24): channel -> pin, and the other pins.
MUX_I = [9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16]
MUX_S = [10, 11, 14, 13]
MUX_COM, MUX_EN_N, MUX_GND, MUX_VCC = 1, 15, 12, 24
# 74HC138 (SOIC-16).
DEC_A = [1, 2, 3]
DEC_E1_N, DEC_E2_N, DEC_E3, DEC_GND, DEC_VCC = 4, 5, 6, 8, 16
DEC_Y = [15, 14, 13, 12, 11, 10, 9, 7]
# 74AHCT125 buffer 1, DRV5055 (SOT-23), AO3401A (SOT-23).
BUF_OE1_N, BUF_A1, BUF_Y1, BUF_VCC, BUF_GND = 1, 2, 3, 14, 7
HALL_VCC, HALL_OUT, HALL_GND = 1, 2, 3
LED_VDD, LED_DOUT, LED_VSS, LED_DIN = 1, 2, 3, 4  # WS2812B (PLCC4 5 x 5 mm)
FET_G, FET_S, FET_D = 1, 2, 3
DIODE_K, DIODE_A = 1, 2


def sensor_ref(sid):
    """Designator number of the sensor (U...) and its capacitor (C...) of logical slot sid."""
    if sid < hwspec.POINTS * hwspec.SLOTS:
        return "1%02d%d" % (sid // hwspec.SLOTS + 1, sid % hwspec.SLOTS)
    k = sid - hwspec.POINTS * hwspec.SLOTS
    return "1%d%d" % (25 + k // hwspec.BAR_SLOTS, k % hwspec.BAR_SLOTS)


def ref_key(ref):
    m = re.match(r"([A-Za-z#]+)(\d*)", ref)
    return (m.group(1), int(m.group(2) or 0), ref)


# --- netlist reading ----------------------------------------------------------------------


def _sexpr(text):
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        elif t.startswith('"'):
            stack[-1].append(t[1:-1].replace('\\"', '"'))
        else:
            stack[-1].append(t)
    return stack[0][0]


def _field(node, key):
    for x in node[1:]:
        if isinstance(x, list) and x and x[0] == key:
            return x[1] if len(x) > 1 else ""
    return None


class Netlist:
    def __init__(self, parts, nets):
        self.parts = parts  # ref -> {"value", "footprint", "part"}
        self.nets = nets  # name -> set of (ref, pin number)
        self.net_of = {}
        for name, nodes in nets.items():
            for node in nodes:
                self.net_of[node] = name

    def net(self, ref, pin):
        return self.net_of.get((ref, str(pin)))

    def nodes(self, ref, pin):
        n = self.net(ref, pin)
        return self.nets[n] if n else set()


def parse_netlist(text):
    tree = _sexpr(text)
    parts, nets = {}, {}
    for sec in tree[1:]:
        if not isinstance(sec, list):
            continue
        if sec[0] == "components":
            for comp in sec[1:]:
                lib = [x for x in comp[1:] if isinstance(x, list) and x[0] == "libsource"]
                parts[_field(comp, "ref")] = {
                    "value": _field(comp, "value"),
                    "footprint": _field(comp, "footprint"),
                    "part": _field(lib[0], "part") if lib else None,
                }
        elif sec[0] == "nets":
            for net in sec[1:]:
                nodes = set()
                for x in net[1:]:
                    if isinstance(x, list) and x[0] == "node":
                        nodes.add((_field(x, "ref"), _field(x, "pin")))
                nets[_field(net, "name")] = nodes
    return Netlist(parts, nets)


# --- the check ----------------------------------------------------------------------------


def check(nl, pinmap):
    """Every way the netlist disagrees with the pin map, as sentences (empty if none)."""
    problems = []
    say = problems.append
    g = pinmap["gpio"]
    nbanks = pinmap["sensors"]["banks"]
    nch = pinmap["sensors"]["channels"]
    muxes = ["U%d" % (b + 1) for b in range(nbanks)]
    if "A1" not in nl.parts:
        return ["no Pico (A1) in the netlist"]
    gnd = nl.net("A1", PICO_GND)
    v3 = nl.net("A1", PICO_3V3)
    vsys = nl.net("A1", PICO_VSYS)
    v5 = nl.net("J2", 1)  # the LED rail
    vin = nl.net("J1", 1)

    def has(net_nodes, ref, pin):
        return (ref, str(pin)) in net_nodes

    def resistor_to(net_nodes, other_net):
        """Is there a resistor between this net and other_net?"""
        for ref, pin in net_nodes:
            if ref.startswith("R") and nl.net(ref, 3 - int(pin)) == other_net:
                return True
        return False

    try:
        roles = hwspec.gpio_roles(pinmap)
    except ValueError as e:
        return [str(e)]
    for gpio, role in sorted(roles.items()):
        if gpio not in PICO_GPIO:
            say("%s: GP%d is not a Pico GPIO" % (role, gpio))
            continue
        nodes = nl.nodes("A1", PICO_GPIO[gpio])
        where = "%s (GP%d, Pico pin %d)" % (role, gpio, PICO_GPIO[gpio])
        if not nodes:
            say("%s is not connected" % where)
            continue
        others = sorted(p for r, p in nodes if r == "A1" and p != str(PICO_GPIO[gpio]))
        if others:
            say("%s shares its net with Pico pins %s" % (where, ", ".join(others)))
        kind, _, sub = role.partition(".")
        want = []
        if kind == "mux_select":
            want = [(m, MUX_S[int(sub[1:])]) for m in muxes]
        elif kind == "bank_select":
            want = [("U9", DEC_A[int(sub[1:])])]
        elif kind == "bank_enable":
            want = [("U9", DEC_E1_N)]
            if not resistor_to(nodes, v3):
                say("%s has no pull-up to +3V3" % where)
        elif kind == "adc":
            want = [(m, MUX_COM) for m in muxes]
        elif kind == "led_data":
            want = [("U10", BUF_A1)]
        elif kind == "power_sense":
            if not (resistor_to(nodes, vin) and resistor_to(nodes, gnd)):
                say("%s is not the divider from the 5 V input (J1)" % where)
        elif kind == "button":
            sws = [r for r, p in nodes if r.startswith("SW")]
            if not any(nl.parts[r]["value"] == sub for r in sws):
                say("%s does not reach the '%s' button (found %s)" % (where, sub, ", ".join(
                    "%s=%s" % (r, nl.parts[r]["value"]) for r in sws) or "no button"))
            for r in sws:
                if gnd not in (nl.net(r, 1), nl.net(r, 2)):
                    say("button %s does not switch to GND" % r)
        elif kind == "uart":
            want = [("J3", 1 if sub == "tx" else 2)]
        elif kind == "i2c":
            want = [("J4", 2 if sub == "sda" else 3)]
            if not resistor_to(nodes, v3):
                say("%s has no pull-up to +3V3" % where)
        for ref, pin in want:
            if not has(nodes, ref, pin):
                say("%s does not reach %s pin %s" % (where, ref, pin))
    for gpio, num in sorted(PICO_GPIO.items()):
        if gpio not in roles and nl.net("A1", num):
            say("GP%d (Pico pin %d) is wired but the pin map does not use it" % (gpio, num))

    # Bank decoder and switches: Y(b) turns on bank b's supply and enables mux b.
    if nl.net("U9", DEC_E3) != v3 or nl.net("U9", DEC_E2_N) != gnd:
        say("74HC138 U9: E3 must be on +3V3 and ~E2 on GND")
    for b in range(nbanks):
        q = "Q%d" % (b + 1)
        gate = nl.nodes(q, FET_G)
        if not (has(gate, "U9", DEC_Y[b]) and has(gate, muxes[b], MUX_EN_N)):
            say("bank %d: %s gate must join 74HC138 ~Y%d and %s ~E" % (b, q, b, muxes[b]))
        if nl.net(q, FET_S) != v3:
            say("bank %d: %s source is not on +3V3" % (b, q))

    # Sensors: slot -> (bank, channel) exactly as the pin map says.
    scan = hwspec.scan_of_slot(pinmap)
    seen = set()
    for sid, sc in enumerate(scan):
        b, ch = sc // nch, sc % nch
        name = hwspec.slot_name(sid)
        ref = "U" + sensor_ref(sid)
        if ref not in nl.parts:
            say("slot %s: no sensor %s" % (name, ref))
            continue
        seen.add(ref)
        if b >= nbanks:
            say("slot %s: scan index %d is beyond the %d banks" % (name, sc, nbanks))
            continue
        if not has(nl.nodes(ref, HALL_OUT), muxes[b], MUX_I[ch]):
            say("slot %s: sensor %s OUT is not on %s I%d (bank %d channel %d)" % (name, ref, muxes[b], ch, b, ch))
        vb = nl.net(ref, HALL_VCC)
        if vb is None or vb != nl.net("Q%d" % (b + 1), FET_D):
            say("slot %s: sensor %s is not powered by bank %d's switch Q%d" % (name, ref, b, b + 1))
        if nl.net(ref, HALL_GND) != gnd:
            say("slot %s: sensor %s GND is not on GND" % (name, ref))
        c = "C" + sensor_ref(sid)
        if {nl.net(c, 1), nl.net(c, 2)} != {vb, gnd}:
            say("slot %s: no 100 nF %s across sensor %s" % (name, c, ref))
    extra = [r for r, p in nl.parts.items() if (p["part"] or "").startswith("DRV5055") and r not in seen]
    if extra:
        say("sensors not in the pin map: %s" % ", ".join(sorted(extra, key=ref_key)))
    used = set(scan)
    for b in range(nbanks):
        for ch in range(nch):
            if b * nch + ch not in used:
                nodes = nl.nodes(muxes[b], MUX_I[ch])
                if nl.net(muxes[b], MUX_I[ch]) != gnd:
                    say("%s I%d is used by no slot but is not tied to GND (%s)" % (muxes[b], ch, sorted(nodes)))

    # LED output stage and the chain: 1Y -> resistor -> the LED of chain index 0, each slot's LED
    # (D1PPS ...) feeding the next index's, the last one the tray and dice strip on J2 pin 2.
    slot_of_led = {idx: sid for sid, idx in enumerate(hwspec.led_of_slot(pinmap))}
    n_slot_leds = len(slot_of_led)
    y = nl.net("U10", BUF_Y1)
    first = "D" + sensor_ref(slot_of_led[0]) if 0 in slot_of_led else None
    if not (y and first and resistor_to(nl.nets[y], nl.net(first, LED_DIN))):
        say("LED data: 74AHCT125 1Y must reach LED 0's DIN (%s) through a resistor" % first)
    for idx in range(n_slot_leds):
        if idx not in slot_of_led:
            say("LED chain: index %d is no point or bar slot's LED" % idx)
            continue
        ref = "D" + sensor_ref(slot_of_led[idx])
        name = hwspec.slot_name(slot_of_led[idx])
        if ref not in nl.parts or not nl.parts[ref]["part"].startswith("WS2812"):
            say("LED chain: no WS2812B %s for slot %s (LED %d)" % (ref, name, idx))
            continue
        if nl.net(ref, LED_VDD) != v5 or nl.net(ref, LED_VSS) != gnd:
            say("LED %d (%s): must run from +5V and GND" % (idx, ref))
        if idx + 1 in slot_of_led:
            nxt = ("D" + sensor_ref(slot_of_led[idx + 1]), LED_DIN)
        else:
            nxt = ("J2", 2)
        if nl.net(ref, LED_DOUT) is None or nl.net(ref, LED_DOUT) != nl.net(*nxt):
            say("LED chain: LED %d (%s) DOUT must drive LED %d (%s-%s), as the chain table says"
                % (idx, ref, idx + 1, nxt[0], nxt[1]))
        c = "C2" + sensor_ref(slot_of_led[idx])[1:]
        if {nl.net(c, 1), nl.net(c, 2)} != {v5, gnd}:
            say("LED %d (%s): no 100 nF %s across its supply" % (idx, ref, c))
    if nl.net("U10", BUF_VCC) != v5 or nl.net("U10", BUF_OE1_N) != gnd:
        say("LED data: 74AHCT125 U10 must run from +5V with 1OE on GND")
    if nl.net("J2", 3) != gnd:
        say("LED strip connector J2: pin 3 must be GND")
    # Power: J1 -> D1 -> LED rail -> D2 -> VSYS; the sense divider reads J1's side of D1.
    if nl.net("D1", DIODE_A) != vin or nl.net("D1", DIODE_K) != v5:
        say("power: D1 must run from the 5 V input J1 to the LED rail")
    if nl.net("D2", DIODE_A) != v5 or nl.net("D2", DIODE_K) != vsys:
        say("power: D2 must run from the LED rail to the Pico's VSYS")
    if v5 == vsys:
        say("power: the LED rail must not be the Pico's VSYS (USB would feed the LEDs)")
    if not any(r.startswith("C") and nl.parts[r]["value"].startswith("1000u")
               and {nl.net(r, 1), nl.net(r, 2)} == {v5, gnd} for r in nl.parts):
        say("no 1000 uF bulk capacitor on the LED supply")
    return problems


def main(argv):
    net = argv[0]
    pm = hwspec.load_pinmap(argv[1]) if len(argv) > 1 else hwspec.load_pinmap()
    with open(net) as f:
        problems = check(parse_netlist(f.read()), pm)
    for p in problems:
        print(p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
