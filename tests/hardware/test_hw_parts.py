"""The printed parts (hardware/parts.py): the STLs it writes are closed solids, and measured
back from the meshes (trimesh, ray casts) they have the sizes geometry.json asks for: the magnet
fits its pocket with the stated clearance, the caps are keyed by colour, the locators sit at
the slot pitch, and the stack from the hall element to the magnet adds up to the height the
field model assumes."""

import copy
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import trimesh

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.join(HERE, "..", "..", "hardware")
sys.path.insert(0, HW)

import hwspec  # noqa: E402

PARTS = ["checker_white.stl", "checker_black.stl", "cap_white.stl", "cap_black.stl",
         "point_tile.stl", "bar_tile.stl", "spacer.stl"]
TOL = 0.02  # mm: the STL's chord tolerance is 0.01


def run_parts(out, geometry=None):
    cmd = [sys.executable, os.path.join(HW, "parts.py"), "--out", str(out)]
    if geometry:
        cmd += ["--geometry", str(geometry)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def geo():
    return hwspec.load_geometry()


@pytest.fixture(scope="module")
def mech(geo):
    return geo["mechanical"]


@pytest.fixture(scope="module")
def meshes(tmp_path_factory):
    out = tmp_path_factory.mktemp("parts")
    res = run_parts(out)
    assert res.returncode == 0, res.stderr
    return {name: trimesh.load(os.path.join(out, name)) for name in PARTS}


def hits(mesh, origin, direction):
    """Distances along a ray to every surface it crosses, nearest first (Moller-Trumbore over
    all triangles: trimesh's own ray queries need rtree; a hit on a shared edge counts once)."""
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    tri = mesh.triangles
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(d, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = o - tri[:, 0]
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ d) * inv
    dist = np.einsum("ij,ij->i", e2, q) * inv
    eps = 1e-9
    mask = ok & (u >= -eps) & (v >= -eps) & (u + v <= 1 + eps) & (dist > 1e-9)
    return sorted(set(np.round(dist[mask], 6).tolist()))


def first_hit(mesh, origin, direction):
    d = hits(mesh, origin, direction)
    assert d, "the ray from %s along %s meets nothing" % (origin, direction)
    return d[0]


def lowest_z(mesh, x, y):
    """Lowest surface of the solid on the vertical line through (x, y)."""
    return 50.0 - hits(mesh, (x, y, 50.0), (0.0, 0.0, -1.0))[-1]


def test_every_part_is_a_closed_solid(meshes):
    for name, m in meshes.items():
        assert m.is_watertight, name
        assert m.is_winding_consistent, name
        assert m.is_volume and m.volume > 0, name


def test_the_magnet_fits_its_pocket_with_the_stated_clearance(meshes, geo, mech):
    d, t = geo["magnet"]["diameter_mm"], geo["magnet"]["thickness_mm"]
    clr = mech["magnet_clearance_mm"]
    for colour in ("white", "black"):
        m = meshes["checker_%s.stl" % colour]
        floor = 20.0 - first_hit(m, (0.0, 0.0, 20.0), (0.0, 0.0, -1.0))
        assert floor == pytest.approx(mech["checker_floor_mm"], abs=TOL)
        assert lowest_z(m, 12.0, 0.0) == pytest.approx(0.0, abs=TOL)  # the resting face
        # Radius of the pocket, in eight directions, from its floor to the magnet's top.
        for z in (floor + 0.05, floor + t / 2, floor + t + clr / 2):
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                r = first_hit(m, (0.0, 0.0, z), (np.cos(a), np.sin(a), 0.0))
                assert r == pytest.approx(d / 2 + clr, abs=TOL), (colour, z)


def test_the_caps_are_keyed_by_colour_and_close_the_pocket_flush(meshes, mech):
    def well_width(m, angle):
        z = mech["checker_floor_mm"] + 2.0 + mech["magnet_clearance_mm"] + 0.3
        a = np.radians(angle)
        return 2 * first_hit(m, (0.0, 0.0, z), (np.cos(a), np.sin(a), 0.0))

    white_well = well_width(meshes["checker_white.stl"], 0)
    black_side = well_width(meshes["checker_black.stl"], 0)
    black_diag = well_width(meshes["checker_black.stl"], 45)
    white_cap = meshes["cap_white.stl"].extents
    black_cap = meshes["cap_black.stl"].extents
    clr = 2 * mech["cap_clearance_mm"]
    # Each cap fits its own colour's well...
    assert white_cap[0] == pytest.approx(white_well - clr, abs=TOL)
    assert black_cap[0] == pytest.approx(black_side - clr, abs=TOL)
    assert black_diag == pytest.approx(black_side * 2 ** 0.5, abs=0.1)  # a square well
    # ...and not the other's: the round cap is wider than the square well, the square cap's
    # diagonal longer than the round well.
    assert white_cap[0] > black_side + TOL
    assert black_cap[0] * 2 ** 0.5 > white_well + TOL
    # The cap's top is flush with the floor of the checker's top recess.
    top_recess = 20.0 - first_hit(meshes["checker_white.stl"], (9.0, 0.0, 20.0),
                                  (0.0, 0.0, -1.0))
    pocket_top = mech["checker_floor_mm"] + 2.0 + mech["magnet_clearance_mm"]
    assert white_cap[2] == pytest.approx(top_recess - pocket_top, abs=TOL)
    assert black_cap[2] == pytest.approx(top_recess - pocket_top, abs=TOL)


def test_checkers_stack_at_their_thickness_and_centre_on_each_other(meshes, geo, mech):
    m = meshes["checker_white.stl"]
    body = m.extents[0]
    assert body == pytest.approx(mech["checker_diameter_mm"], abs=TOL)
    top = 20.0 - first_hit(m, (12.0, 0.0, 20.0), (0.0, 0.0, -1.0))
    assert top == pytest.approx(geo["checker"]["thickness_mm"], abs=TOL)
    boss_h = -m.bounds[0][2]
    # The boss underneath drops into the recess on top of the checker below with room to
    # spare: the upper body rests on the lower one, so a stack rises by the thickness.
    recess_floor = 20.0 - first_hit(m, (9.0, 0.0, 20.0), (0.0, 0.0, -1.0))
    assert top - recess_floor > boss_h
    boss = [x for x in np.linspace(0, 15, 301) if lowest_z(m, x, 0.0) < -boss_h / 2]
    recess_r = mech["boss_diameter_mm"] / 2 + mech["locator_clearance_mm"]
    assert max(boss) == pytest.approx(mech["boss_diameter_mm"] / 2, abs=0.06)
    assert max(boss) < recess_r


def recesses(tile, depth_expected):
    """(centre, length) of every locator recess along the tile's centre line."""
    ys = np.arange(0.0, tile.bounds[1][1], 0.05)
    top = [10.0 - first_hit(tile, (0.0, y, 10.0), (0.0, 0.0, -1.0)) for y in ys]
    inside = [abs(z + depth_expected) < TOL for z in top]
    runs, start = [], None
    for y, flag in zip(ys, inside):
        if flag and start is None:
            start = y
        if not flag and start is not None:
            runs.append(((start + y - 0.05) / 2, y - start))  # length to within a step
            start = None
    return runs


def test_the_locators_sit_at_the_slots(meshes, geo, mech):
    lay = geo["layout"]
    depth = mech["boss_height_mm"] + mech["locator_clearance_mm"]
    locator_d = mech["boss_diameter_mm"] + 2 * mech["locator_clearance_mm"]
    for name, n, width in (("point_tile.stl", lay["slots_per_point"], lay["point_pitch_mm"]),
                           ("bar_tile.stl", lay["bar_slots_per_colour"], lay["bar_width_mm"])):
        tile = meshes[name]
        assert tile.extents[0] == pytest.approx(width, abs=TOL), name
        runs = recesses(tile, depth)
        assert len(runs) == n, name
        centres = [c for c, _ in runs]
        assert centres[0] == pytest.approx(lay["slot0_from_edge_mm"], abs=0.05), name
        assert np.diff(centres) == pytest.approx([lay["slot_pitch_mm"]] * (n - 1), abs=0.05)
        for _, length in runs:
            assert length == pytest.approx(locator_d, abs=0.06), name
        # A checker's boss in a locator can stray at most the clearance from the slot
        # centre: well inside the 1-2 mm the field table allows.
        assert (locator_d - mech["boss_diameter_mm"]) / 2 <= 1.0
    # The point tiles side by side make the playing surface of a half: 6 x the point pitch.
    assert meshes["point_tile.stl"].extents[1] == pytest.approx(
        lay["slot0_from_edge_mm"] + 4 * lay["slot_pitch_mm"] + lay["tip_gap_mm"] / 2, abs=TOL)


def test_the_stack_from_sensor_to_magnet_is_what_the_field_model_assumes(meshes, geo, mech):
    """Hall element -> package top (datasheet) -> spacer's top (the tiles' underside) -> tile
    -> checker floor: measured on the parts, it must equal magnet_bottom_above_sensor_mm."""
    element_above_board = (mech["sensor_package_height_mm"]
                           - mech["sensor_element_below_package_top_mm"])
    spacer_h = meshes["spacer.stl"].extents[2]
    assert spacer_h - mech["sensor_package_height_mm"] > 0.5  # the package clears the tile
    tile_t = meshes["point_tile.stl"].extents[2]
    assert meshes["bar_tile.stl"].extents[2] == pytest.approx(tile_t, abs=TOL)
    checker = meshes["checker_black.stl"]
    floor = (20.0 - first_hit(checker, (0.0, 0.0, 20.0), (0.0, 0.0, -1.0))) - lowest_z(
        checker, 12.0, 0.0)
    stack = spacer_h - element_above_board + tile_t + floor
    assert stack == pytest.approx(geo["checker"]["magnet_bottom_above_sensor_mm"], abs=TOL)


def test_a_geometry_that_does_not_add_up_is_refused(geo, tmp_path):
    """A thicker playing surface would put the magnet 1 mm higher than the field table
    assumes (12 % less signal): parts.py says so and writes nothing."""
    thick = copy.deepcopy(geo)
    thick["mechanical"]["surface_thickness_mm"] += 1.0
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(thick))
    res = run_parts(tmp_path / "out", path)
    assert res.returncode == 1
    assert "stack-up 9.650 mm != checker.magnet_bottom_above_sensor_mm 8.650" in res.stderr
    assert not (tmp_path / "out").exists()


def test_caps_that_would_fit_either_colour_are_refused(geo, tmp_path):
    loose = copy.deepcopy(geo)
    loose["mechanical"]["cap_black_square_mm"] = 10.0  # its diagonal fits the round well
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(loose))
    res = run_parts(tmp_path / "out", path)
    assert res.returncode == 1 and "caps not keyed" in res.stderr
