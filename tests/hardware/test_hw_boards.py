"""The split of the circuit into boards (hardware/boards.py): one quarter design fits all four
quarters and one bar design both halves for the pin map in use; a pin map that would need
different boards, or wires between boards without a cable, is refused."""

import copy
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import boards  # noqa: E402
import hwspec  # noqa: E402
import netcheck  # noqa: E402


def build(out, pinmap=None):
    cmd = [sys.executable, os.path.join(HW, "circuit.py"), "--out", str(out)]
    if pinmap is not None:
        path = os.path.join(str(out), "pinmap.json")
        os.makedirs(str(out), exist_ok=True)
        with open(path, "w") as f:
            json.dump(pinmap, f)
        cmd += ["--pinmap", path]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("boards")
    res = build(out)
    assert res.returncode == 0, res.stdout + res.stderr
    return out


def test_each_design_fits_all_its_instances_and_the_parts_add_up(built):
    tmp_path = built
    with open(tmp_path / "bgboard.net") as f:
        whole = netcheck.parse_netlist(f.read())
    split = boards.split(whole)
    assert boards.check_designs(split) == []
    counts = {inst: len(nl.parts) for inst, nl in split.items()}
    # a quarter: 30 sensors + 30 LEDs with a 100 nF each, 2 muxes, switches, 100 nF, 10 uF on
    # +5V, 2 cables
    assert counts == {"quarter1": 129, "quarter2": 129, "quarter3": 129, "quarter4": 129,
                      "bar_black": 18, "bar_white": 18, "controller": 32}
    assert sum(counts.values()) == len(whole.parts)
    for design in boards.DESIGNS:
        assert (tmp_path / "boards" / (design + ".net")).exists()
    q = netcheck.parse_netlist((tmp_path / "boards" / "quarter.net").read_text())
    # The ribbon's pin meaning, and the mux inputs of the quarter's column 0 (its hi bank, i = 2).
    for pin, role in enumerate(boards.QUARTER_CABLE, 1):
        assert q.net("J1", pin) == role
    for s in range(5):
        assert q.net("U2", netcheck.MUX_I[10 + s]) == "OUT_U1%d" % (s + 1)
    # The LED chain on the quarter: in on both cables, through its 30 LEDs, out on both cables.
    assert q.net("J2", boards.BAR_CABLE.index("Q_IN") + 1) == "LED_IN"
    assert q.net("J2", boards.BAR_CABLE.index("Q_OUT") + 1) == "LED_OUT"
    assert q.net("J2", boards.BAR_CABLE.index("+5V") + 1) == "+5V"
    assert {q.net("C3", 1), q.net("C3", 2)} == {"+5V", "GND"} and q.parts["C3"]["value"] == "10u"
    dins = sorted(r for r, _ in q.nets["LED_IN"] if r.startswith("D"))
    douts = sorted(r for r, _ in q.nets["LED_OUT"] if r.startswith("D"))
    assert len(dins) == 1 and len(douts) == 1 and dins != douts
    # The controller carries quarter 2's LED_OUT (J7) on to quarter 3's LED_IN (J8), and quarter
    # 4's LED_OUT (J9) on to the tray and dice strip (J2 pin 2).
    c = split["controller"]
    i_in, i_out = boards.QUARTER_CABLE.index("LED_IN") + 1, boards.QUARTER_CABLE.index("LED_OUT") + 1
    assert c.net("J7", i_out) == c.net("J8", i_in)
    assert c.net("J9", i_out) == c.net("J2", 2)
    assert c.net("J6", i_in) == c.net("R2", 2)


def test_two_instances_that_differ_are_reported(built):
    with open(built / "bgboard.net") as f:
        split = boards.split(netcheck.parse_netlist(f.read()))
    # quarter 3 wired with two sensors' outputs swapped: no longer the same board as quarter 1
    nets = split["quarter3"].nets
    a, b = nets["OUT_U11"], nets["OUT_U12"]
    (ma,), (mb,) = [n for n in a if n[0] == "U2"], [n for n in b if n[0] == "U2"]
    nets["OUT_U11"] = (a - {ma}) | {mb}
    nets["OUT_U12"] = (b - {mb}) | {ma}
    problems = boards.check_designs(split)
    assert len(problems) == 1 and problems[0].startswith("quarter3 is not the same board as quarter1"), problems


def test_a_pin_map_that_puts_a_sensor_on_another_quarters_mux_is_refused(tmp_path):
    pm = copy.deepcopy(hwspec.load_pinmap())
    pts = pm["sensors"]["points"]
    pts[0][0], pts[6][0] = pts[6][0], pts[0][0]  # P1.0 onto bank 2 (quarter 2), P7.0 onto bank 0
    res = build(tmp_path, pm)
    assert res.returncode != 0
    assert "with no cable" in res.stdout + res.stderr, res.stdout + res.stderr


def test_the_led_chain_follows_the_boards():
    # One quarter design and one bar design carry their LEDs: each board's LEDs are one run of
    # the chain, in the same order relative to the board on every instance.
    pm = hwspec.load_pinmap()
    assert boards.check_led_chain(pm) == []
    places = boards.board_leds(pm)
    assert sorted(places["quarter3"], key=places["quarter3"].get) == sorted(
        places["quarter1"], key=places["quarter1"].get)
    assert [len(places[i]) for i in sorted(places)] == [4, 4, 30, 30, 30, 30]


@pytest.mark.parametrize("break_it, complaint", [
    # quarter 2's chain entering at point 7's tip (the strip's serpentine phase before #28)
    (lambda L: [L["points"][p].reverse() for p in range(6, 12)], "quarter2 chains its LEDs in another order"),
    (lambda L: L["bar"]["white"].reverse(), "bar_white chains its LEDs in another order"),
    (lambda L: L["points"][0].__setitem__(0, 147) or L["tray"]["white"].__setitem__(4, 0),
     "quarter1: its LEDs are not one run"),
])
def test_a_chain_table_one_design_cannot_carry_is_refused(tmp_path, break_it, complaint):
    pm = hwspec.load_pinmap()
    break_it(pm["leds"])
    assert any(complaint in p for p in boards.check_led_chain(pm))
    res = build(tmp_path, pm)
    assert res.returncode != 0 and complaint in res.stdout, res.stdout + res.stderr
