"""The SKiDL circuit: ERC clean, its netlist agrees with pinmap.json pin for pin (and a broken
copy of the pin map is caught), the BOM built from the circuit matches the design and the
committed hardware/bom.csv."""

import copy
import csv
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import hwspec  # noqa: E402
import netcheck  # noqa: E402

# Not imported here: importing SKiDL writes log files into the working directory.
if importlib.util.find_spec("skidl") is None:  # a missing tool fails the run
    pytest.fail("skidl is not installed (make venv)", pytrace=False)


def run_circuit(out, *extra, script=None):
    cmd = [sys.executable] + (["-c", script] if script else [os.path.join(HW, "circuit.py")])
    cmd += ["--out", str(out)] + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("circuit")
    res = run_circuit(out)
    assert res.returncode == 0, res.stdout + res.stderr
    with open(out / "bgboard.net") as f:
        nl = netcheck.parse_netlist(f.read())
    with open(out / "bom.csv") as f:
        bom_text = f.read()
    return {"out": out, "stdout": res.stdout, "stderr": res.stderr, "netlist": nl, "bom": bom_text}


def test_erc_is_clean_and_the_netlist_agrees_with_the_pin_map(built):
    assert "ERC 0 warnings 0 errors" in built["stdout"]
    assert "pin map and netlist agree" in built["stdout"]
    assert netcheck.check(built["netlist"], hwspec.load_pinmap()) == []


MUTATIONS = {
    "two mux select lines swapped": (
        lambda g: g["gpio"]["mux_select"].reverse(), "mux_select.S0"),
    "ADC moved to GP27": (
        lambda g: g["gpio"]["adc"].update(pin=27, channel=1), "adc (GP27"),
    "bank enable moved": (
        lambda g: g["gpio"]["bank_enable"].update(pin=17), "bank_enable (GP17"),
    "roll and menu buttons swapped": (
        lambda g: (g["gpio"]["buttons"]["roll"].update(pin=15), g["gpio"]["buttons"]["menu"].update(pin=10)),
        "'roll' button"),
    "UART TX/RX swapped": (
        lambda g: g["gpio"]["uart"].update(tx=1, rx=0), "uart.tx"),
    "point 7 slots 0 and 1 swapped": (
        lambda g: g["sensors"]["points"][6].reverse(), "slot P7.0"),
    "bar slot on another bank": (
        lambda g: g["sensors"]["bar"]["white"].__setitem__(0, 31), "slot BW0"),
    "LED data moved": (
        lambda g: g["gpio"]["led_data"].update(pin=18), "led_data (GP18"),
    "two LEDs of point 1 swapped in the chain table": (
        lambda g: g["leds"]["points"][0].reverse(), "LED chain: LED"),
    "a GPIO used twice": (
        lambda g: g["gpio"]["i2c"].update(scl=10), "used twice"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_a_broken_copy_of_the_pin_map_is_detected(built, name):
    change, complaint = MUTATIONS[name]
    broken = copy.deepcopy(hwspec.load_pinmap())
    change(broken)
    problems = netcheck.check(built["netlist"], broken)
    assert problems, name
    assert any(complaint in p for p in problems), problems


def test_circuit_script_fails_on_a_pin_map_the_netlist_does_not_match(built, tmp_path):
    """End to end: the netlist just written, checked against a broken pin map file."""
    import json

    broken = copy.deepcopy(hwspec.load_pinmap())
    broken["sensors"]["points"][0][0], broken["sensors"]["points"][0][1] = (
        broken["sensors"]["points"][0][1], broken["sensors"]["points"][0][0])
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(broken))
    res = subprocess.run([sys.executable, os.path.join(HW, "netcheck.py"), str(built["out"] / "bgboard.net"), str(path)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1
    assert "slot P1.0" in res.stdout


def test_the_erc_fails_on_an_unconnected_pin(tmp_path):
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "import circuit\n"
        "orig = circuit.build\n"
        "def build(skidl, pm):\n"
        "    orig(skidl, pm)\n"
        "    skidl.Part('Device', 'R', ref='R99', tag='R99', value='1k', footprint='x')\n"
        "circuit.build = build\n"
        "sys.exit(circuit.main(sys.argv[1:]))\n" % HW)
    res = run_circuit(tmp_path, script=script)
    assert res.returncode == 1
    assert "ERC failed" in res.stdout


def bom(text):
    return list(csv.DictReader(text.splitlines()))


def qty(rows, **match):
    return sum(int(r["quantity"]) for r in rows if all(r[k] == v for k, v in match.items()))


def test_the_bom_matches_the_design(built):
    rows = bom(built["bom"])
    assert list(rows[0]) == ["reference", "part", "value", "footprint", "quantity"]
    assert qty(rows, part="DRV5055A2xDBZxQ1") == 128
    assert qty(rows, part="CD74HC4067M") == 8
    assert qty(rows, part="AO3401A") == 8
    assert qty(rows, part="74HC138") == 1
    assert qty(rows, part="74AHCT125") == 1
    assert qty(rows, part="RaspberryPi_Pico") == 1
    assert qty(rows, part="SW_Push") == 6
    assert sorted(r["value"] for r in rows if r["part"] == "SW_Push") == sorted(hwspec.BUTTONS)
    # A WS2812B for every point and bar slot, its designator naming the slot.
    assert qty(rows, part="WS2812B") == 128
    leds = {r for r in (x for row in rows if row["part"] == "WS2812B" for x in row["reference"].split())}
    assert leds == {"D" + netcheck.sensor_ref(s) for s in range(hwspec.SENSORS)}
    # 100 nF: one per sensor, per slot LED, per mux, the decoder, the level shifter, the 5 V rail.
    assert qty(rows, part="C", value="100n") == 128 + 128 + 8 + 3
    assert qty(rows, part="C_Polarized", value="1000u 10V") == 1
    assert qty(rows, part="R", value="330") == 1
    assert qty(rows, part="SS34") == 2  # 5 V in -> LED rail -> VSYS
    for r in rows:
        refs = r["reference"].split()
        assert len(refs) == int(r["quantity"]) and r["footprint"], r
    all_refs = [x for r in rows for x in r["reference"].split()]
    assert len(all_refs) == len(set(all_refs)) == len(built["netlist"].parts)
    # Every sensor's designator names its slot.
    sensors = {r for r in all_refs if r.startswith("U1") and len(r) == 5}
    assert sensors == {"U" + netcheck.sensor_ref(s) for s in range(hwspec.SENSORS)}


def test_the_committed_bom_is_the_generated_one(built):
    with open(os.path.join(HW, "bom.csv")) as f:
        assert f.read() == built["bom"], "hardware/bom.csv is stale: run `make hardware-update`"
