"""hardware/field_table.json: fresh relative to geometry.json and field_model.py, consistent,
and in line with the reference figures (shared/reference/hardware.md)."""

import copy
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import hwspec  # noqa: E402

import magpylib  # noqa: E402,F401 (make venv installs it: missing, the run fails)
import field_model  # noqa: E402


@pytest.fixture(scope="module")
def table():
    return hwspec.load_json(hwspec.FIELD_TABLE)


@pytest.fixture(scope="module")
def geo():
    return hwspec.load_geometry()


def test_the_table_was_computed_from_the_committed_geometry(table, geo):
    inputs = field_model.model_inputs(geo)
    assert table["geometry_sha256"] == field_model.geometry_sha256(inputs)
    assert table["geometry"] == inputs


def test_the_printed_parts_sizes_leave_the_table_as_it_is(geo):
    """geometry.json's `mechanical` block (hardware/parts.py) is no input of the field: the
    firmware's table stays the same when a part is resized; a field input still counts."""
    resized = copy.deepcopy(geo)
    resized["mechanical"]["boss_diameter_mm"] += 1.0
    assert field_model.model_inputs(resized) == field_model.model_inputs(geo)
    moved = copy.deepcopy(geo)
    moved["magnet"]["diameter_mm"] += 1.0
    assert field_model.model_inputs(moved) != field_model.model_inputs(geo)


def test_the_table_is_what_the_model_computes_now(geo):
    with open(hwspec.FIELD_TABLE) as f:
        committed = f.read()
    assert field_model.dumps(field_model.compute(geo)) == committed, \
        "field_table.json is stale: run `make hardware-update`"


def test_a_changed_geometry_makes_the_table_stale(geo, tmp_path):
    moved = copy.deepcopy(geo)
    moved["checker"]["magnet_bottom_above_sensor_mm"] += 1.0
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(moved))
    check = [sys.executable, os.path.join(HW, "field_model.py"), "--check", "--geometry", str(path)]
    res = subprocess.run(check, capture_output=True, text=True, timeout=120)
    assert res.returncode == 1 and "stale" in res.stdout
    # ...and rerunning the model updates it: further away, weaker.
    out = tmp_path / "table.json"
    subprocess.run(check[:2] + ["--geometry", str(path), "--table", str(out)], check=True, timeout=120,
                   capture_output=True)
    new = json.loads(out.read_text())
    assert new["geometry_sha256"] != hwspec.load_json(hwspec.FIELD_TABLE)["geometry_sha256"]
    assert new["stack"]["counts"][1] < 0.9 * hwspec.load_json(hwspec.FIELD_TABLE)["stack"]["counts"][1]


def test_the_figures_match_the_reference(table):
    """hardware.md: 23.1 / 27.8 / 29.5 mT; ~860 counts, +177, +61; four neighbours ~51."""
    mT = table["stack"]["mT"]
    assert mT[1] == pytest.approx(23.1, abs=0.1)
    assert mT[2] == pytest.approx(27.8, abs=0.1)
    assert mT[3] == pytest.approx(29.5, abs=0.1)
    assert table["counts_per_mT"] == pytest.approx(37.2, abs=0.1)
    steps = table["stack"]["layer_counts"]
    assert steps[0] == pytest.approx(860, abs=5)
    assert steps[1] == pytest.approx(177, abs=3)
    assert steps[2] == pytest.approx(61, abs=3)
    assert steps[3] < steps[2] / 2  # "higher layers almost nothing"
    assert table["neighbours"]["four_at_pitch_counts"] == pytest.approx(51, abs=2)
    assert table["tolerance"]["max_reading_mT"] < table["tolerance"]["linear_range_mT"]


def test_thresholds_lie_midway_with_hysteresis(table):
    th = table["thresholds"]
    levels = th["levels"]
    assert levels == table["stack"]["counts"][:4]
    prev_rise = 0
    for k, b in enumerate(th["boundaries"]):
        assert b["between"] == [k, k + 1]
        assert b["mid"] == round((levels[k] + levels[k + 1]) / 2)
        margin = th["hysteresis_fraction"] * (levels[k + 1] - levels[k]) / 2
        assert b["rise"] - b["mid"] == pytest.approx(margin, abs=1)
        assert b["mid"] - b["fall"] == pytest.approx(margin, abs=1)
        assert levels[k] < b["fall"] < b["mid"] < b["rise"] < levels[k + 1]
        assert b["fall"] > prev_rise
        prev_rise = b["rise"]


def test_the_neighbour_table_is_symmetric_and_well_formed(table, geo):
    nb = table["neighbours"]
    kernels = nb["kernels"]
    rows = nb["slots"]
    assert len(rows) == hwspec.SENSORS
    pairs = {}
    for i, row in enumerate(rows):
        assert len(row) % 2 == 0
        for j, k in zip(row[::2], row[1::2]):
            assert 0 <= j < hwspec.SENSORS and j != i and 0 <= k < len(kernels)
            pairs[(i, j)] = k
    assert all(pairs.get((j, i)) == k for (i, j), k in pairs.items())
    # The nearest neighbours are there: along the point and the next point, 32 mm.
    p1 = hwspec.slot_id(1, 2)
    near = {j for j, k in zip(rows[p1][::2], rows[p1][1::2]) if kernels[k]["distance_mm"] == 32.0}
    assert near == {hwspec.slot_id(1, 1), hwspec.slot_id(1, 3), hwspec.slot_id(2, 2)}
    # Signs: a stack beside a sensor pulls its reading the other way (field lines return).
    assert all(c < 0 for k in kernels for c in k["counts"])
    assert all(len(k["counts"]) == geo["model"]["max_stack"] for k in kernels)


def test_the_simulated_checkers_off_centre_follow_the_table(table, geo):
    # sim.checkers keeps the off-centre figures as constants (the unix port has no
    # magpylib and reads no JSON per placement): they must be the table's where it has a
    # point, and the field model's between (issue 29: the simulation stopped at 4 mm, and
    # the table's points alone, linear between, miss the field by 70 counts at 12 mm).
    from sim import checkers

    tol = table["tolerance"]
    at = dict(zip(tol["lateral_offsets_mm"], zip(tol["counts_at_offset"]["1"],
                                                  tol["counts_at_offset"]["2"])))
    one0, two0 = table["stack"]["counts"][1], table["stack"]["counts"][2]
    assert checkers.OFF_MM[-1] == max(tol["lateral_offsets_mm"])  # the whole table
    field = field_model.StackField(geo)
    cpm = field_model.counts_per_mT(geo)
    mms = list(checkers.OFF_MM)
    ones = [v * cpm for v in field.bz(1, mms)]
    twos = [v * cpm for v in field.bz(2, mms)]
    for i, mm in enumerate(mms):
        one, two = (one0, two0) if mm == 0 else at.get(mm, (ones[i], twos[i]))
        assert checkers.OFF_BOTTOM[i] == pytest.approx(one, abs=0.05), mm
        assert checkers.OFF_UPPER[i] == pytest.approx(two - one, abs=0.05), mm
    # Between the points, within 4 counts of the model (every 0.1 mm).
    tenths = [t / 10 for t in range(10 * mms[-1] + 1)]
    fine = [v * cpm for v in field.bz(1, tenths)]
    for t, want in zip(range(len(tenths)), fine):
        got = checkers._off_factor(checkers.OFF_BOTTOM, t) * one0 / 4096
        assert abs(got - want) < 4.5, (t, got, want)
