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


def test_the_led_figures_are_what_the_firmware_draws(pinmap):
    """The budget's LED lines are the firmware's: an all-white frame at the default
    brightness estimates what the table says, and at full brightness the renderer holds it to
    each cap the budget adds to the board's own draw."""
    b = power_budget.budget(pinmap)
    leds = pinmap["leds"]
    assert all_white(pinmap, leds["brightness_default"], 10 ** 6).estimate() == \
        b["white_at_default"]
    assert all_white(pinmap, 255, 10 ** 6).estimate() == b["full_white"]
    for cap in ("cap_external", "cap_usb"):
        held = all_white(pinmap, 255, b[cap]).estimate()
        assert 0.95 * b[cap] <= held <= b[cap], cap  # scaled in 1/256 steps: a bit under
    # The external supply covers the board at its worst plus the LEDs at their cap.
    assert b["external_total"][1] <= power_budget.SUPPLY_MA
    assert b["external_total"][1] == pytest.approx(b["board"][1] + leds["current"][
        "cap_ma_external"])
