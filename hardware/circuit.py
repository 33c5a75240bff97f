"""The bgboard reference circuit as code (SKiDL 3.0.0, offline, its bundled part libraries).

    python hardware/circuit.py [--out DIR] [--pinmap PATH] [--bom-check hardware/bom.csv]

Builds the circuit with every GPIO assignment and every sensor's (bank, channel) taken from
pinmap.json, runs SKiDL's electrical rules check (any warning or error fails), writes
DIR/bgboard.net (KiCad netlist), DIR/boards/DESIGN.net (each board's part of it, boards.py) and DIR/bom.csv (built from the circuit's part objects: SKiDL's
own XML/BOM writer is broken), then re-reads the netlist it wrote and checks it against the pin
map pin for pin (netcheck.py). Exit status 0 only if all of that passed.

Reference designators (also on the silkscreen and in hardware/README.md):
  A1        Raspberry Pi Pico          U1..U8   CD74HC4067 mux of bank 0..7
  U9        74HC138 bank decoder       U10      74AHCT125 LED level shifter
  Q1..Q8    AO3401A bank switch 0..7   U1PPS    DRV5055 of point PP slot S (U1010..U1244)
  U125k     white bar slot k           U126k    black bar slot k      (C1PPS: its 100 nF)
  SW1..SW6  buttons (value = role)     J1 5 V in, J2 tray and dice LEDs, J3 UART, J4 I2C, J5 LED power
  J6..J9    ribbon to quarter 1..4     J1q1 its other end on quarter q, J1q2 quarter q's bar cable,
  J2q       that cable's end on the bar half (boards.py: which part sits on which board)
  D1PPS     WS2812B of point PP slot S, D125k / D126k of a bar slot (C2PPS ...: its 100 nF)
  C9q       10 uF on +5V at quarter q's ribbon
"""

import argparse
import builtins
import csv
import importlib.util
import io
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import hwspec  # noqa: E402
import netcheck  # noqa: E402

TOOLS = ("kicad5", "kicad6", "kicad7", "kicad8", "kicad9", "kicad10", "skidl", "spice")

FP = {
    "sot23": "Package_TO_SOT_SMD:SOT-23",
    "c0603": "Capacitor_SMD:C_0603_1608Metric",
    "c1206": "Capacitor_SMD:C_1206_3216Metric",
    "cp10": "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "r0603": "Resistor_SMD:R_0603_1608Metric",
    "soic14": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "soic16": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "soic24w": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "sma": "Diode_SMD:D_SMA",
    "pico": "Module:RaspberryPi_Pico_Common_THT",
    "jumper": "Jumper:SolderJumper-2_P1.3mm_Open_RoundedPad1.0x1.5mm",
    "button": "Button_Switch_THT:SW_PUSH_6mm",
    "screw2": "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "jst3": "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical",
    "hdr3": "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
    "hdr4": "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
    "idc16": "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical",
    "jst8": "Connector_JST:JST_XH_B8B-XH-A_1x08_P2.50mm_Vertical",
    "ws2812b": "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
}


def _import_skidl(workdir):
    """Import SKiDL with its bundled libraries only, its files kept inside workdir."""
    spec = importlib.util.find_spec("skidl")
    if spec is None:
        sys.exit("skidl is not installed: run `make venv` (requirements.txt pins skidl==3.0.0)")
    libs = os.path.join(os.path.dirname(spec.origin), "tools", "skidl", "libs")
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    # SKiDL reads .skidlcfg from the working directory: search only the bundled libraries, so it
    # neither looks for a KiCad install nor warns that there is none.
    cfg = {
        "lib_search_paths": {t: ([libs] if t == "skidl" else []) for t in TOOLS},
        "footprint_search_paths": {t: [] for t in TOOLS},
    }
    with open(".skidlcfg", "w") as f:
        json.dump(cfg, f)
    # SKiDL caches its parsed libraries (pickles, about 4 MB) under XDG_DATA_HOME: keep them in
    # hardware/build, shared by every run whatever --out is (a cold run takes ~8 s, warm ~3 s).
    os.environ["XDG_DATA_HOME"] = os.path.join(HERE, "build", "skidl-cache")
    import skidl

    from skidl.logger import stop_log_file_output

    stop_log_file_output()
    skidl.set_default_tool(skidl.SKIDL)
    return skidl


def pico_template(skidl):
    """Raspberry Pi Pico (the bundled libraries have the RP2040 chip but not the module)."""
    from skidl.pin import pin_types as T

    pins = []
    for num, name in netcheck.PICO_PINS.items():
        if name.startswith("GP"):
            func = T.BIDIR
        elif name in ("GND", "AGND", "VSYS", "ADC_VREF"):
            func = T.PWRIN
        elif name in ("3V3", "VBUS"):
            func = T.PWROUT
        else:  # RUN, 3V3_EN
            func = T.INPUT
        pins.append(skidl.Pin(num=str(num), name=name, func=func))
    return skidl.Part(
        name="RaspberryPi_Pico",
        tool=skidl.SKIDL,
        dest=skidl.TEMPLATE,
        ref_prefix="A",
        footprint=FP["pico"],
        description="Raspberry Pi Pico (RP2040) module, 2x20 pins",
        pins=pins,
    )


def build(skidl, pinmap):
    """Create every part and net of the board in SKiDL's default circuit."""
    S = skidl
    g = pinmap["gpio"]
    T = S.TEMPLATE

    def part(lib, name, **kw):
        return S.Part(lib, name, dest=T, **kw)

    def make(tmpl, ref, value=None, footprint=None):
        kw = {"ref": ref, "tag": ref}
        if value is not None:
            kw["value"] = value
        if footprint is not None:
            kw["footprint"] = footprint
        return tmpl(**kw)

    hall_t = part("Sensor_Magnetic", "DRV5055A2xDBZxQ1", footprint=FP["sot23"])
    mux_t = part("74xx", "CD74HC4067M", footprint=FP["soic24w"])
    dec_t = part("74xx", "74HC138", footprint=FP["soic16"])
    buf_t = part("74xx", "74AHCT125", footprint=FP["soic14"])
    fet_t = part("Transistor_FET", "AO3401A", footprint=FP["sot23"])
    c_t = part("Device", "C")
    cp_t = part("Device", "C_Polarized")
    r_t = part("Device", "R", footprint=FP["r0603"])
    d_t = part("Diode", "SS34", footprint=FP["sma"])
    sw_t = part("Switch", "SW_Push", footprint=FP["button"])
    c2_t = part("Connector_Generic", "Conn_01x02")
    c3_t = part("Connector_Generic", "Conn_01x03")
    c4_t = part("Connector_Generic", "Conn_01x04")
    jp_t = part("Jumper", "SolderJumper_2_Open", footprint=FP["jumper"])
    pico_t = pico_template(S)

    gnd = S.Net("GND")
    v5 = S.Net("+5V")  # the LED rail: the external supply after D1
    vsys = S.Net("VSYS")  # the Pico's supply: +5V through D2, or USB through the Pico's own diode
    v3 = S.Net("+3V3")
    vin = S.Net("VIN_EXT")
    # Supplied from outside the netlist (J1, or USB through the Pico): what KiCad's PWR_FLAG says.
    for n in (gnd, v5, vsys, vin):
        n.drive = S.POWER

    def cap(ref, value, fp, a, b):
        c = make(c_t, ref, value, fp)
        c[1] += a
        c[2] += b
        return c

    def res(ref, value, a, b):
        r = make(r_t, ref, value)
        r[1] += a
        r[2] += b
        return r

    # --- Pico -------------------------------------------------------------------------------
    pico = make(pico_t, "A1", "Raspberry Pi Pico")
    by_name = {}
    for num, name in netcheck.PICO_PINS.items():
        by_name.setdefault(name, []).append(getattr(pico, "p%d" % num))
    for p in by_name["GND"] + by_name["AGND"]:
        p += gnd
    by_name["VSYS"][0] += vsys
    by_name["3V3"][0] += v3
    for name in ("VBUS", "RUN", "3V3_EN", "ADC_VREF"):
        by_name[name][0] += builtins.NC

    def gp(n):
        return getattr(pico, "p%d" % netcheck.PICO_GPIO[n])

    used = set()

    def gpio_net(name, pin):
        used.add(pin)
        net = S.Net(name)
        net += gp(pin)
        return net

    sel = [gpio_net("MUX_S%d" % i, pin) for i, pin in enumerate(g["mux_select"])]
    bsel = [gpio_net("BANK_A%d" % i, pin) for i, pin in enumerate(g["bank_select"])]
    ben = gpio_net("BANK_EN_N", g["bank_enable"]["pin"])
    adc = gpio_net("HALL_ADC", g["adc"]["pin"])
    led3 = gpio_net("LED_DATA_3V3", g["led_data"]["pin"])
    psense = gpio_net("EXT_5V_SENSE", g["power_sense"]["pin"])
    buttons = {name: gpio_net("BTN_" + name.upper(), b["pin"]) for name, b in g["buttons"].items()}
    tx = gpio_net("UART_TX", g["uart"]["tx"])
    rx = gpio_net("UART_RX", g["uart"]["rx"])
    sda = gpio_net("I2C_SDA", g["i2c"]["sda"])
    scl = gpio_net("I2C_SCL", g["i2c"]["scl"])
    for name, pins in by_name.items():
        if name.startswith("GP") and int(name[2:].split("_")[0]) not in used:
            pins[0] += builtins.NC

    # --- power in: 5 V through D1 onto the LED rail +5V, and through D2 to the Pico's VSYS -----
    # USB feeds VSYS through the Pico's own diode but never the LED rail (unless JP1 is closed),
    # so a bright frame can never draw its current from the USB port.
    j1 = make(c2_t, "J1", "5V 3A in", FP["screw2"])
    j1[1] += vin
    j1[2] += gnd
    d1 = make(d_t, "D1", "SS34")
    d1["A"] += vin
    d1["K"] += v5
    d2 = make(d_t, "D2", "SS34")
    d2["A"] += v5
    d2["K"] += vsys
    cap("C11", "10u", FP["c1206"], vsys, gnd)
    cap("C13", "100n", FP["c0603"], vsys, gnd)
    jp1 = make(jp_t, "JP1", "LEDs from USB")  # bench use without the 5 V supply: USB cap applies
    jp1["A"] += vsys
    jp1["B"] += v5
    # External supply present -> GPIO high (10k/15k: 5 V in gives 3.0 V). Low impedance so that
    # D1's reverse leakage (LED rail powered through JP1, no supply on J1) still reads low.
    res("R5", "10k", vin, psense)
    res("R6", "15k", psense, gnd)

    # --- bank decoder: one bank of 16 sensors powered and its mux enabled at a time ---------
    nbanks = pinmap["sensors"]["banks"]
    nch = pinmap["sensors"]["channels"]
    dec = make(dec_t, "U9", "74HC138")
    dec["VCC"] += v3
    dec["GND"] += gnd
    cap("C9", "100n", FP["c0603"], v3, gnd)
    for i in range(3):
        dec["A%d" % i] += bsel[i]
    dec["~{E0}"] += ben  # active low, from the Pico
    dec["~{E1}"] += gnd
    dec["E2"] += v3
    res("R1", "10k", v3, ben)  # all banks off while the Pico is in reset

    # --- banks: P-MOSFET switch, mux, 16 sensors with 100 nF each ----------------------------
    scan = hwspec.scan_of_slot(pinmap)
    slot_at = {sc: sid for sid, sc in enumerate(scan)}
    for b in range(nbanks):
        sel_n = S.Net("BANK%d_N" % b)
        dec["~{Y%d}" % b] += sel_n
        vb = S.Net("VBANK%d" % b)
        vb.drive = S.POWER  # switched supply through Q(b+1)
        q = make(fet_t, "Q%d" % (b + 1), "AO3401A")
        q["G"] += sel_n
        q["S"] += v3
        q["D"] += vb
        mux = make(mux_t, "U%d" % (b + 1), "CD74HC4067M")
        mux["VCC"] += v3
        mux["GND"] += gnd
        cap("C%d" % (b + 1), "100n", FP["c0603"], v3, gnd)
        mux["~{E}"] += sel_n
        mux["COM"] += adc
        for i in range(4):
            mux["S%d" % i] += sel[i]
        for ch in range(nch):
            sid = slot_at.get(b * nch + ch)
            if sid is None:
                mux["I%d" % ch] += gnd  # unused channel: read as a fixed level
                continue
            ref = netcheck.sensor_ref(sid)
            hall = make(hall_t, "U" + ref, "DRV5055A2QDBZR")
            hall["VCC"] += vb
            hall["GND"] += gnd
            out = S.Net("HALL_" + hwspec.slot_name(sid).replace(".", "_"))
            out += hall["OUT"], mux["I%d" % ch]
            cap("C" + ref, "100n", FP["c0603"], vb, gnd)

    # --- the slot LEDs on the quarter and bar boards: a WS2812B and its 100 nF per slot, DIN
    # from the LED before it in the chain table (boards.check_led_chain: one run per board).
    chain = slot_leds(S, make, part("LED", "WS2812B", footprint=FP["ws2812b"]), pinmap, v5, gnd,
                      lambda ref, a, b: cap(ref, "100n", FP["c0603"], a, b))
    for q in range(1, 5):  # C9q: 10 uF at quarter q's ribbon, for its 30 LEDs' switching edges
        cap("C9%d" % q, "10u", FP["c1206"], v5, gnd)

    # --- cables between the boards (boards.py): the controller's J6..J9 to each quarter's J1q1
    # (16-way ribbon), each quarter's J1q2 to its bar half's J2q (8-way). A cable is a wire, so
    # both ends are on the same net and the pin map check above still sees one circuit.
    quarter_cable(S, make, part("Connector_Generic", "Conn_02x08_Odd_Even", footprint=FP["idc16"]),
                  part("Connector_Generic", "Conn_01x08", footprint=FP["jst8"]), pinmap,
                  v3, v5, gnd, sel, adc, chain)

    # --- LEDs: 3.3 V data -> 74AHCT125 at 5 V -> 330 ohm -> LED 0 (J6); 1000 uF on the rail ----
    buf = make(buf_t, "U10", "74AHCT125")
    buf["VCC"] += v5
    buf["GND"] += gnd
    cap("C10", "100n", FP["c0603"], v5, gnd)
    buf.p1 += gnd  # 1OE active low: always on
    buf.p2 += led3  # 1A
    led5 = S.Net("LED_DATA_5V")
    led5 += buf.p3  # 1Y
    for oe, a, y in ((4, 5, 6), (10, 9, 8), (13, 12, 11)):  # spare buffers: off, input tied
        pin = getattr(buf, "p%d" % oe)
        pin += v5
        pin = getattr(buf, "p%d" % a)
        pin += gnd
        pin = getattr(buf, "p%d" % y)
        pin += builtins.NC
    res("R2", "330", led5, chain[0])  # into quarter 1 through J6
    # The chain comes back from quarter 4 (J9) and goes on to the tray and dice LEDs, a strip
    # or panel on J2 (they sit off the sensor boards).
    n_slots = len(hwspec.led_of_slot(pinmap))
    j2 = make(c3_t, "J2", "LED strip", FP["jst3"])
    j2[1] += v5
    j2[2] += chain[n_slots]
    j2[3] += gnd
    cp = make(cp_t, "C12", "1000u 10V", FP["cp10"])
    cp[1] += v5
    cp[2] += gnd
    j5 = make(c2_t, "J5", "LED power feed", FP["screw2"])
    j5[1] += v5
    j5[2] += gnd

    # --- buttons to ground, the Pico's pull-ups ----------------------------------------------
    for i, name in enumerate(hwspec.BUTTONS):
        sw = make(sw_t, "SW%d" % (i + 1), name)
        sw[1] += buttons[name]
        sw[2] += gnd

    # --- debug UART and I2C expansion ---------------------------------------------------------
    j3 = make(c3_t, "J3", "UART", FP["hdr3"])
    j3[1] += tx
    j3[2] += rx
    j3[3] += gnd
    j4 = make(c4_t, "J4", "I2C", FP["hdr4"])
    j4[1] += v3
    j4[2] += sda
    j4[3] += scl
    j4[4] += gnd
    res("R3", "4k7", v3, sda)
    res("R4", "4k7", v3, scl)


def slot_leds(S, make, led_t, pinmap, v5, gnd, cap):
    """A WS2812B (D1PPS / D125k / D126k) and its 100 nF (C2PPS ...) per point and bar slot,
    chained in the chain table's order. Returns the chain's nets: chain[i] is the DIN of LED
    i (chain[0] = LED_DIN from the controller, chain[n] the DOUT of the last slot LED)."""
    slot_of_led = {idx: sid for sid, idx in enumerate(hwspec.led_of_slot(pinmap))}
    n = len(slot_of_led)
    if sorted(slot_of_led) != list(range(n)):
        raise SystemExit("circuit: the slot LEDs must be chain indices 0..%d" % (n - 1))
    chain = [S.Net("LED_DIN")] + [S.Net("LED_D%d" % i) for i in range(1, n + 1)]
    for idx in range(n):
        ref = netcheck.sensor_ref(slot_of_led[idx])
        led = make(led_t, "D" + ref, "WS2812B")
        led["VDD"] += v5
        led["VSS"] += gnd
        led["DIN"] += chain[idx]
        led["DOUT"] += chain[idx + 1]
        cap("C2" + ref[1:], v5, gnd)
    return chain


def quarter_cable(S, make, idc_t, jst_t, pinmap, v3, v5, gnd, sel, adc, chain):
    """The inter-board connectors (pin meaning in boards.QUARTER_CABLE / BAR_CABLE). Each
    quarter's LED_IN / LED_OUT (its first LED's DIN, its last LED's DOUT) is on both its cables:
    which one carries the chain on depends on where the board sits (boards.py)."""
    import boards

    nets = {n.name: n for n in builtins.default_circuit.nets}
    runs = boards.board_leds(pinmap)
    for q in range(1, 5):
        lo, hi = boards.quarter_banks(q)
        idx = runs["quarter%d" % q].values()
        led_in, led_out = chain[min(idx)], chain[max(idx) + 1]
        by_role = {"+3V3": v3, "GND": gnd, "HALL_ADC": adc, "+5V": v5, "LED_IN": led_in,
                   "LED_OUT": led_out,
                   "BANK_LO_N": nets["BANK%d_N" % lo], "BANK_HI_N": nets["BANK%d_N" % hi]}
        for i in range(4):
            by_role["MUX_S%d" % i] = sel[i]
        ends = [make(idc_t, "J%d" % (5 + q), "quarter %d cable" % q),
                make(idc_t, "J1%d1" % q, "controller cable")]
        for pin, role in enumerate(boards.QUARTER_CABLE, 1):
            for j in ends:
                j[pin] += by_role[role]
        by_role = {"GND": gnd, "+5V": v5, "Q_IN": led_in, "Q_OUT": led_out,
                   "VBANK_LO": nets["VBANK%d" % lo], "VBANK_HI": nets["VBANK%d" % hi],
                   "BAR_LO": boards.bar_out_net(nets, pinmap, lo),
                   "BAR_HI": boards.bar_out_net(nets, pinmap, hi)}
        ends = [make(jst_t, "J1%d2" % q, "bar cable"), make(jst_t, "J2%d" % q, "quarter cable")]
        for pin, role in enumerate(boards.BAR_CABLE, 1):
            for j in ends:
                j[pin] += by_role[role]


def run_erc(skidl):
    skidl.ERC()
    log = skidl.erc_logger
    return log.warning.count + log.bare_warning.count, log.error.count + log.bare_error.count


def bom_rows(skidl):
    """BOM from the circuit's part objects: one row per (part, value, footprint)."""
    groups = {}
    for p in builtins.default_circuit.parts:
        key = (p.name, str(p.value), p.footprint)
        groups.setdefault(key, []).append(p.ref)
    rows = []
    for (name, value, fp), refs in groups.items():
        refs.sort(key=netcheck.ref_key)
        rows.append({"reference": " ".join(refs), "part": name, "value": value, "footprint": fp, "quantity": len(refs)})
    rows.sort(key=lambda r: netcheck.ref_key(r["reference"].split()[0]))
    return rows


def bom_csv(rows):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=["reference", "part", "value", "footprint", "quantity"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "build"))
    ap.add_argument("--pinmap", default=hwspec.PINMAP)
    ap.add_argument("--bom-check", help="fail if this committed BOM differs from the generated one")
    args = ap.parse_args(argv)
    t0 = time.time()
    out = os.path.abspath(args.out)
    pinmap = hwspec.load_pinmap(os.path.abspath(args.pinmap))
    bom_check = os.path.abspath(args.bom_check) if args.bom_check else None
    import boards

    # The slot LEDs are wired board by board (slot_leds, quarter_cable): first make sure the
    # chain table is one the boards can carry.
    problems = boards.check_led_chain(pinmap)
    for p in problems:
        print("circuit: board split: " + p)
    if problems:
        return 1
    skidl = _import_skidl(out)
    build(skidl, pinmap)
    warnings, errors = run_erc(skidl)
    if warnings or errors:
        print("circuit: ERC failed: %d warnings, %d errors" % (warnings, errors))
        return 1
    net_path = os.path.join(out, "bgboard.net")
    for node in builtins.default_circuit.nodes:
        # The top level has no tag (its name must stay ""); SKiDL would warn about it.
        node.check_tag = lambda create_if_missing=False: True
    skidl.generate_netlist(file_=net_path, tool=skidl.KICAD8, do_backup=False)
    rows = bom_rows(skidl)
    text = bom_csv(rows)
    with open(os.path.join(out, "bom.csv"), "w") as f:
        f.write(text)
    with open(net_path) as f:
        whole = netcheck.parse_netlist(f.read())
    problems = netcheck.check(whole, pinmap)
    for p in problems:
        print("circuit: pin map and circuit disagree: " + p)
    if problems:
        return 1
    problems = boards.write_board_netlists(whole, os.path.join(out, "boards"))
    for p in problems:
        print("circuit: board split: " + p)
    if problems:
        return 1
    if bom_check:
        try:
            with open(bom_check) as f:
                committed = f.read()
        except OSError:
            committed = ""
        if committed != text:
            print("circuit: %s is stale: run `make hardware-update`" % os.path.relpath(bom_check, ROOT))
            return 1
    nparts = sum(r["quantity"] for r in rows)
    print(
        "circuit: ERC 0 warnings 0 errors; %d parts, netlist %s; pin map and netlist agree (%.1f s)"
        % (nparts, os.path.relpath(net_path, ROOT), time.time() - t0)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
