"""The printed circuit boards that `make hardware` lays out (hardware/pcb.py): KiCad's DRC, the
copper read back against each board's netlist, the sensors on their slots, and the fab files
read with a Gerber reader. Broken copies of a board (a cut track, a short, a moved sensor or
LED) must fail the same checks.

The boards are built by `make hardware` (make test runs it first) into hardware/build/; pcbnew
exists only for Debian's python3, so the checks run in .venv-kicad as subprocesses."""

import os
import re
import subprocess
import sys
import warnings

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "hardware"))
import hwspec  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
KICAD_PY = os.path.join(ROOT, ".venv-kicad", "bin", "python")
PCB_DIR = os.path.join(HW, "build", "pcb")
FAB_DIR = os.path.join(HW, "build", "fab")
BOARDS_DIR = os.path.join(HW, "build", "boards")
DESIGNS = ("quarter", "bar", "controller")

if not os.path.exists(KICAD_PY):
    pytest.fail("no .venv-kicad: run `make hardware` (it makes the venv with KiCad's pcbnew)", pytrace=False)
for _d in DESIGNS:
    if not os.path.exists(os.path.join(PCB_DIR, _d + ".kicad_pcb")):
        pytest.fail("no %s board in hardware/build/pcb: run `make hardware`" % _d, pytrace=False)


def kicad(script, *args):
    return subprocess.run([KICAD_PY, "-c", script] + list(args), capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def check(pcb_dir, design):
    return subprocess.run([KICAD_PY, os.path.join(HW, "pcb.py"), "--boards", BOARDS_DIR, "--check", str(pcb_dir),
                           "--design", design], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_every_board_passes_drc_matches_its_netlist_and_puts_each_sensor_and_led_in_place():
    # quarter: 30 sensors and 30 LEDs on each of 4 instances; bar: 4 and 4 on each of 2
    for design, n in (("quarter", 120), ("bar", 8), ("controller", 0)):
        res = check(PCB_DIR, design)
        assert res.returncode == 0, res.stdout + res.stderr
        assert "DRC 0 violations 0 unconnected; copper = netlist; %d sensor and %d LED positions within 0.1 mm" \
            % (n, n) in res.stdout, res.stdout


# A copy of the quarter board changed by a few lines of pcbnew, then checked like the real one.
EDIT = """
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
%s
board.Save(sys.argv[2])
"""


def broken_quarter(tmp_path, change):
    res = kicad(EDIT % change, os.path.join(PCB_DIR, "quarter.kicad_pcb"), str(tmp_path / "quarter.kicad_pcb"))
    assert res.returncode == 0, res.stderr
    return check(tmp_path, "quarter")


def test_an_unchanged_copy_passes(tmp_path):
    res = broken_quarter(tmp_path, "pass")
    assert res.returncode == 0, res.stdout + res.stderr


def test_a_cut_track_is_a_missing_connection(tmp_path):
    res = broken_quarter(tmp_path, """
tracks = [t for t in board.GetTracks() if t.GetNetname() == "OUT_U11" and t.GetClass() == "PCB_TRACK"]
board.Remove(max(tracks, key=lambda t: t.GetLength()))
""")
    assert res.returncode == 1
    assert "missing connection: net OUT_U11 is in 2 pieces" in res.stdout, res.stdout
    assert "unconnected pads" in res.stdout


def test_a_track_between_two_nets_is_an_extra_connection(tmp_path):
    # A short from sensor U11's output pad to its supply pad, the track carrying the output net.
    res = broken_quarter(tmp_path, """
f = board.FindFootprintByReference("U11")
out, vcc = [p for p in f.Pads() if p.GetNumber() == "2"][0], [p for p in f.Pads() if p.GetNumber() == "1"][0]
t = pcbnew.PCB_TRACK(board)
t.SetStart(out.GetPosition()); t.SetEnd(vcc.GetPosition()); t.SetWidth(pcbnew.FromMM(0.25))
t.SetLayer(pcbnew.F_Cu); t.SetNet(out.GetNet())
board.Add(t)
""")
    assert res.returncode == 1
    assert re.search(r"extra connection: copper joins nets OUT_U11, VBANK_HI", res.stdout), res.stdout


def test_a_sensor_off_its_slot_is_caught(tmp_path):
    res = broken_quarter(tmp_path, """
f = board.FindFootprintByReference("U11")
p = f.GetPosition()
f.SetPosition(pcbnew.wxPoint(p.x + pcbnew.FromMM(0.2), p.y))
""")
    assert res.returncode == 1
    # U11 (column 0, slot 0) is point 6 slot 0 on quarter 1 and point 18 slot 0 on quarter 3
    assert "slot P6.0: U11 of quarter1" in res.stdout and "0.20 mm off" in res.stdout, res.stdout
    assert "slot P18.0: U11 of quarter3" in res.stdout


def test_an_led_off_its_place_is_caught(tmp_path):
    res = broken_quarter(tmp_path, """
f = board.FindFootprintByReference("D11")
p = f.GetPosition()
f.SetPosition(pcbnew.wxPoint(p.x, p.y + pcbnew.FromMM(0.15)))
""")
    assert res.returncode == 1
    # D11 (column 0, slot 0) is the LED of point 6 slot 0 on quarter 1 and of point 18 slot 0
    # on quarter 3; the message names its chain index (pinmap.json)
    leds = {sid: idx for sid, idx in enumerate(hwspec.led_of_slot(hwspec.load_pinmap()))}
    for inst, sid in (("quarter1", hwspec.slot_id(6, 0)), ("quarter3", hwspec.slot_id(18, 0))):
        assert "LED %d (slot %s): D11 of %s" % (leds[sid], hwspec.slot_name(sid), inst) in res.stdout, res.stdout
    assert "0.15 mm off" in res.stdout
    assert "slot P6.0: U11" not in res.stdout  # the sensor has not moved


def test_the_supply_input_runs_on_wide_copper(tmp_path):
    # Up to 2.7 A enters at J1 and goes through D1 onto the +5V plane: with every track
    # narrower than 1.5 mm removed, J1's + pin still reaches D1's anode, and D1's cathode
    # the +5V plane (J5's pin 1 sits on it).
    wide = str(tmp_path / "controller.kicad_pcb")
    res = kicad(EDIT % """
for t in list(board.GetTracks()):
    if t.GetClass() == "PCB_TRACK" and t.GetWidth() < pcbnew.FromMM(1.5):
        board.Remove(t)
""", os.path.join(PCB_DIR, "controller.kicad_pcb"), wide)
    assert res.returncode == 0, res.stderr
    res = kicad("""
import sys, pcbnew
sys.path.insert(0, "hardware")
import pcbcheck
groups = pcbcheck.copper_groups(pcbnew.LoadBoard(sys.argv[1]))
together = lambda a, b: any(a in g and b in g for g in groups)
print(together(("J1", "1"), ("D1", "2")), together(("D1", "1"), ("J5", "1")))
""", wide)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["True", "True"], res.stdout


def board_sizes_from_readme():
    with open(os.path.join(HW, "README.md")) as f:
        text = f.read()
    sizes = {}
    for m in re.finditer(r"^\| `(\w+)` \| (\d+) \| ([\d.]+) x ([\d.]+) mm \|", text, re.M):
        sizes[m.group(1)] = (float(m.group(3)), float(m.group(4)))
    return sizes


def test_the_fab_files_parse_with_the_outline_the_readme_states():
    from gerbonara import LayerStack
    from gerbonara.utils import MM

    sizes = board_sizes_from_readme()
    assert sorted(sizes) == sorted(DESIGNS), sizes
    for design in DESIGNS:
        folder = os.path.join(FAB_DIR, design)
        for suffix in ("-gerbers.zip", "-cpl.csv", "-bom.csv", "-top.svg", "-bottom.svg", "-top.png", "-bottom.png"):
            assert os.path.getsize(os.path.join(folder, design + suffix)) > 0, design + suffix
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # KiCad 6 writes G90 after the header
            stack = LayerStack.open(os.path.join(folder, design + "-gerbers.zip"))
        assert len(stack.copper_layers) == 4, design
        (x0, y0), (x1, y1) = stack.outline.bounding_box(MM)
        line = 0.1  # the outline is drawn with a 0.1 mm line centred on the edge
        assert abs((x1 - x0 - line) - sizes[design][0]) < 0.01, (design, x1 - x0, sizes[design])
        assert abs((y1 - y0 - line) - sizes[design][1]) < 0.01, (design, y1 - y0, sizes[design])
        assert len(list(stack.drill_pth.drills())) > 0, design


def test_the_fab_bom_names_a_manufacturer_part_for_every_part():
    import csv

    for design in DESIGNS:
        with open(os.path.join(FAB_DIR, design, design + "-bom.csv")) as f:
            rows = list(csv.DictReader(f))
        assert rows, design
        for r in rows:
            assert r["MPN"], (design, r)
            assert int(r["Quantity"]) == len(r["Designator"].split()), r
