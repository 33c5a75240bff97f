"""The power budget in hardware/README.md (hardware/power_budget.py): the table shown is the
one computed from pinmap.json's LED limits, its LED figures are what the firmware's own
renderer estimates and holds frames to, and a cap beyond the supply is refused."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)
sys.path.insert(0, os.path.join(ROOT, "firmware"))

import hwspec  # noqa: E402
import power_budget  # noqa: E402
from board.leds import LedMap, Renderer  # noqa: E402


def run_budget(*args):
    cmd = [sys.executable, os.path.join(HW, "power_budget.py")] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def pinmap():
    return hwspec.load_json(hwspec.PINMAP)


class Chain:
    """Stands in for board.hw.Leds: keeps what the renderer sends."""

    def show(self, frame, scale):
        self.sent = (bytes(frame), scale)


def all_white(pinmap, brightness, cap):
    leds = pinmap["leds"]
    r = Renderer(Chain(), LedMap(leds), brightness, cap)
    r.clear()
    for i in range(leds["count"]):
        r.set(i, (255, 255, 255))
    return r


def test_the_readme_shows_the_table_the_pin_map_gives():
    res = run_budget("--check")
    assert res.returncode == 0, res.stderr
    assert power_budget.readme_table() == power_budget.table(hwspec.load_json(hwspec.PINMAP))


def test_a_changed_cap_makes_the_readme_table_stale(pinmap, tmp_path):
    lower = json.loads(json.dumps(pinmap))
    lower["leds"]["current"]["cap_ma_external"] = 2000
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(lower))
    res = run_budget("--check", "--pinmap", str(path))
    assert res.returncode == 1 and "stale" in res.stderr
    # --update writes the new figures, and then the check passes.
    readme = tmp_path / "README.md"
    with open(power_budget.README) as f:
        readme.write_text(f.read())
    assert run_budget("--update", "--pinmap", str(path), "--readme", str(readme)).returncode == 0
    assert "| capped at `cap_ma_external` (GP22 high) | 2000 |" in readme.read_text()
    assert run_budget("--check", "--pinmap", str(path), "--readme", str(readme)).returncode == 0


def test_a_readme_without_the_table_is_an_error(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no table here\n")
    res = run_budget("--check", "--readme", str(readme))
    assert res.returncode == 1 and "no table" in res.stderr


def test_a_cap_beyond_the_supply_is_refused(pinmap, tmp_path):
    greedy = json.loads(json.dumps(pinmap))
    greedy["leds"]["current"]["cap_ma_external"] = 2900
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(greedy))
    res = run_budget("--pinmap", str(path))
    assert res.returncode == 1 and "exceeds the 3000 mA supply" in res.stderr


def test_a_usb_cap_beyond_a_usb_port_is_refused(pinmap, tmp_path):
    b = power_budget.budget(pinmap)
    assert b["usb_total"][1] <= power_budget.USB_MA  # the pin map's cap fits a USB 2.0 port
    greedy = json.loads(json.dumps(pinmap))
    greedy["leds"]["current"]["cap_ma_usb"] = 300  # the cap before #28: 513 mA worst on USB
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(greedy))
    res = run_budget("--pinmap", str(path))
    assert res.returncode == 1 and "on USB alone 513 mA exceeds the 500 mA" in res.stderr, res.stderr


def test_each_cable_carries_its_leds_within_its_contacts_rating(pinmap, monkeypatch):
    rows = {r[0].split(" (")[0]: r for r in power_budget.cables(pinmap)}
    # a ribbon: a quarter's 30 LEDs and its bar half's 4 at full white (61 mA), under the cap
    name, feeds, v5, n5, gnd, ngnd, rating = rows["ribbon J6-J9"]
    assert (v5, n5, ngnd, rating) == (34 * 61, 3, 3, 1000)
    assert v5 / n5 < rating and gnd / ngnd < rating
    assert rows["bar cable"][2] == 4 * 61
    # with one +5V pin fewer the ribbon's pins would carry over 1 A: refused
    monkeypatch.setattr(power_budget.boards, "QUARTER_CABLE", tuple(
        "N" if (r == "+5V" and i == 13) else r for i, r in enumerate(power_budget.boards.QUARTER_CABLE)))
    assert power_budget.main(["--pinmap", hwspec.PINMAP]) == 1


def test_the_led_figures_are_what_the_firmware_draws(pinmap):
    """The budget's LED lines are the firmware's: an all-white frame at the default
    brightness estimates what the table says, and at full brightness the renderer holds it to
    each cap the budget adds to the board's own draw."""
    b = power_budget.budget(pinmap)
    leds = pinmap["leds"]
    assert all_white(pinmap, leds["brightness_default"], 10 ** 6).estimate() == \
        b["white_at_default"]
    assert all_white(pinmap, 255, 10 ** 6).estimate() == b["full_white"]
    # The renderer scales the lit part in 1/256 steps, so it falls short of a cap by less than
    # one step of the full-white frame's lit current.
    step = (b["full_white"] - leds["count"] * leds["current"]["ma_idle_per_led"]) / 256
    for cap in ("cap_external", "cap_usb"):
        held = all_white(pinmap, 255, b[cap]).estimate()
        assert b[cap] - step < held <= b[cap], cap
    # The external supply covers the board at its worst plus the LEDs at their cap.
    assert b["external_total"][1] <= power_budget.SUPPLY_MA
    assert b["external_total"][1] == pytest.approx(b["board"][1] + leds["current"][
        "cap_ma_external"])
