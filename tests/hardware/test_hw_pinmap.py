"""hardware/pinmap.json is valid for the firmware: every GPIO once, buttons complete, 128 slots
on distinct (bank, channel), LED chain indices unique and below the count; MicroPython loads
it; the firmware's slot numbering agrees with it; the README's pin table agrees with it."""

import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import hwspec  # noqa: E402

PICO_GPIO = set(range(0, 23)) | {26, 27, 28}
# RP2040 function table: which GPIOs can carry each UART / I2C signal.
UART_PINS = {0: {"tx": {0, 12, 16, 28}, "rx": {1, 13, 17}}, 1: {"tx": {4, 8, 20}, "rx": {5, 9, 21}}}
I2C_PINS = {0: {"sda": {0, 4, 8, 12, 16, 20, 28}, "scl": {1, 5, 9, 13, 17, 21}},
            1: {"sda": {2, 6, 10, 14, 18, 26}, "scl": {3, 7, 11, 15, 19, 27}}}


@pytest.fixture(scope="module")
def pm():
    return hwspec.load_pinmap()


def validate(pm):
    """The pin map's own consistency, as the firmware relies on it: a list of problems."""
    out = []
    g = pm["gpio"]
    try:
        roles = hwspec.gpio_roles(pm)
    except ValueError as e:
        return [str(e)]
    for pin, role in roles.items():
        if pin not in PICO_GPIO:
            out.append("%s: GP%s is not a usable Pico GPIO" % (role, pin))
    for pin in g["free"]:
        if pin in roles:
            out.append("GP%d is listed free but used by %s" % (pin, roles[pin]))
    if len(g["mux_select"]) != 4 or len(g["bank_select"]) != 3:
        out.append("4 mux select and 3 bank select pins")
    if g["adc"]["pin"] not in (26, 27, 28) or g["adc"]["channel"] != g["adc"]["pin"] - 26:
        out.append("the ADC pin must be GP26-28 and its channel pin - 26")
    if g["bank_enable"]["active"] != 0 or g["bank_enable"]["pull"] != "external_up":
        out.append("bank enable: active low with the external pull-up (banks off at reset)")
    if sorted(g["buttons"]) != sorted(hwspec.BUTTONS):
        out.append("buttons: exactly %s" % ", ".join(hwspec.BUTTONS))
    for name, b in g["buttons"].items():
        if b["pull"] not in ("up", "down") or b["active"] != (0 if b["pull"] == "up" else 1):
            out.append("button %s: pull up and active 0 (or pull down and active 1)" % name)
    u, i2c = g["uart"], g["i2c"]
    if u["tx"] not in UART_PINS[u["id"]]["tx"] or u["rx"] not in UART_PINS[u["id"]]["rx"]:
        out.append("UART%d cannot use GP%d/GP%d" % (u["id"], u["tx"], u["rx"]))
    if i2c["sda"] not in I2C_PINS[i2c["id"]]["sda"] or i2c["scl"] not in I2C_PINS[i2c["id"]]["scl"]:
        out.append("I2C%d cannot use GP%d/GP%d" % (i2c["id"], i2c["sda"], i2c["scl"]))

    s = pm["sensors"]
    if len(s["points"]) != 24 or any(len(p) != 5 for p in s["points"]):
        out.append("sensors: 24 points of 5 slots")
    if any(len(s["bar"][c]) != 4 for c in hwspec.COLOURS):
        out.append("sensors: 4 bar slots per colour")
    scan = hwspec.scan_of_slot(pm)
    if len(scan) != 128 or s["count"] != 128:
        out.append("sensors: 128 slots")
    if len(set(scan)) != len(scan):
        out.append("sensors: two slots share a (bank, channel)")
    if any(not 0 <= x < s["banks"] * s["channels"] for x in scan):
        out.append("sensors: a scan index beyond %d banks x %d channels" % (s["banks"], s["channels"]))

    L = pm["leds"]
    idx = [i for i, _ in hwspec.all_leds(pm)]
    if L["count"] != 152 or len(idx) != 152:
        out.append("LEDs: 152 = 120 points + 8 bar + 10 tray + 14 dice")
    if len(set(idx)) != len(idx):
        out.append("LEDs: a chain index used twice")
    if any(not 0 <= i < L["count"] for i in idx):
        out.append("LEDs: an index outside the chain")
    if len(L["dice_pips"]) != 7 or any(len(d) != 7 for d in L["dice"]):
        out.append("LEDs: 7 pips per die")
    for v, face in enumerate(L["dice_faces"], 1):
        if len(face) != v or any(not 0 <= p < 7 for p in face):
            out.append("dice face %d: %d pips" % (v, v))
    for p, leds in enumerate(L["points"], 1):
        if [abs(a - b) for a, b in zip(leds, leds[1:])] != [1] * 4:
            out.append("point %d: its 5 LEDs are not one run of the strip" % p)
    cur = L["current"]
    if not (0 < L["brightness_default"] <= 255 and cur["ma_idle_per_led"] * L["count"] < cur["cap_ma_usb"] < 500
            and cur["cap_ma_usb"] < cur["cap_ma_external"] <= 3000):
        out.append("LED limits: brightness 1-255, USB cap < 500 mA above the idle draw, external cap <= 3 A")
    return out


def test_the_pin_map_is_valid_for_the_firmware(pm):
    assert validate(pm) == []


@pytest.mark.parametrize("break_it, complaint", [
    (lambda p: p["gpio"]["buttons"]["menu"].update(pin=10), "used twice"),
    (lambda p: p["gpio"]["buttons"].pop("undo_verify"), "buttons"),
    (lambda p: p["gpio"].update(led_data={"pin": 23}), "not a usable"),
    (lambda p: p["sensors"]["points"][3].__setitem__(2, 0), "share"),
    (lambda p: p["sensors"]["bar"]["white"].__setitem__(0, 200), "beyond"),
    (lambda p: p["leds"]["points"][0].__setitem__(0, 152), "outside"),
    (lambda p: p["leds"]["tray"]["white"].__setitem__(0, 0), "twice"),
    (lambda p: p["gpio"]["i2c"].update(sda=17), "I2C0"),
    (lambda p: p["gpio"]["bank_enable"].update(active=1), "bank enable"),
])
def test_a_broken_pin_map_is_caught(pm, break_it, complaint):
    bad = copy.deepcopy(pm)
    break_it(bad)
    assert any(complaint in p for p in validate(bad))


def test_a_bank_is_read_only_after_its_sensors_have_powered_on(pm):
    # The scan waits bank_power_up_us after powering a bank (drivers/rp2_sensors.py takes it
    # from the pin map; test_rp2_sensors checks that): it must cover the DRV5055's longest
    # power-on time with a margin for the bank switch and its 16 decoupling capacitors.
    assert pm["sensors"]["bank_power_up_us"] >= 1.25 * hwspec.SENSOR_POWER_ON_US_MAX


def test_micropython_loads_the_pin_map(tmp_path):
    mpy = os.path.join(ROOT, ".venv", "bin", "micropython")
    if not os.path.exists(mpy):
        mpy = shutil.which("micropython")
    if not mpy:
        pytest.fail("no MicroPython unix port (make venv)")
    script = tmp_path / "load.py"
    script.write_text(
        "import json\n"
        "pm = json.load(open(%r))\n"
        "ft = json.load(open(%r))\n"
        "print(pm['gpio']['adc']['pin'], len(pm['sensors']['points']), ft['stack']['counts'][1])\n"
        % (hwspec.PINMAP, hwspec.FIELD_TABLE))
    out = subprocess.run([mpy, "-X", "heapsize=160K", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["26", "24"]


def test_the_firmware_numbers_slots_as_the_hardware_does(pm):
    """firmware/board/layout.py and wiring.py (the firmware's reading of the pin map) agree
    with it."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from board import layout, wiring
    for p in range(1, 25):
        for k in range(5):
            assert layout.point_slot(p, k) == hwspec.slot_id(p, k)
    for k in range(4):
        assert layout.bar_slot(layout.WHITE_SIGN, k) == hwspec.bar_id("white", k)
        assert layout.bar_slot(layout.BLACK_SIGN, k) == hwspec.bar_id("black", k)
    want = [hwspec.bank_channel(pm, sc) for sc in hwspec.scan_of_slot(pm)]
    assert [tuple(x) for x in wiring.slot_table(pm["sensors"], pm["sensors"]["channels"])] == want


def test_no_second_copy_of_the_pin_map_or_field_table_disagrees():
    """The firmware reads hardware/pinmap.json and field_table.json; a copy anywhere else in
    the tree (say, staged for the device) must be byte-identical."""
    for name in ("pinmap.json", "field_table.json"):
        with open(os.path.join(HW, name), "rb") as f:
            master = f.read()
        for path in glob.glob(os.path.join(ROOT, "firmware", "**", name), recursive=True):
            with open(path, "rb") as f:
                assert f.read() == master, "%s differs from hardware/%s" % (path, name)


def test_the_readme_pin_table_is_the_pin_map(pm):
    with open(os.path.join(HW, "README.md")) as f:
        text = f.read()
    table = text.split("<!-- pin table -->")[1]
    rows = dict((int(gp), role) for gp, role in re.findall(r"^\| GP(\d+) \| `([^`]+)`", table, re.M))
    assert rows == hwspec.gpio_roles(pm)


def test_the_pin_map_is_plain_json_in_a_stable_layout(pm):
    with open(hwspec.PINMAP) as f:
        text = f.read()
    assert json.loads(text) == pm
    assert text.endswith("\n") and "\t" not in text
