"""hardware/wiring.svg is generated from pinmap.json and geometry.json, and fresh."""

import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import hwspec  # noqa: E402
import wiring  # noqa: E402


def test_the_wiring_diagram_is_fresh():
    with open(wiring.SVG_PATH) as f:
        committed = f.read()
    assert wiring.render(hwspec.load_pinmap(), hwspec.load_geometry()) == committed, \
        "wiring.svg is stale: run `make hardware-update`"


def test_the_diagram_shows_every_slot_mux_channel_and_led():
    pm = hwspec.load_pinmap()
    root = ET.parse(wiring.SVG_PATH).getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for sid, sc in enumerate(hwspec.scan_of_slot(pm)):
        b, ch = hwspec.bank_channel(pm, sc)
        assert "U%d.%d" % (b + 1, ch) in texts
        assert hwspec.slot_name(sid) in texts
    for i in range(pm["leds"]["count"]):
        assert str(i) in texts
    for gpio, role in hwspec.gpio_roles(pm).items():
        assert any(t and t.startswith("GP%-2d" % gpio) and role in t for t in texts), role


def test_a_changed_pin_map_changes_the_diagram():
    pm = hwspec.load_pinmap()
    geo = hwspec.load_geometry()
    pm["sensors"]["points"][0].reverse()
    assert wiring.render(pm, geo) != wiring.render(hwspec.load_pinmap(), geo)
