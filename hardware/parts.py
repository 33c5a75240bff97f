"""Printed parts as code (build123d): every size from geometry.json, STL out.

    python hardware/parts.py --out hardware/build/parts

Writes one STL per part (hardware/README.md, "Printed parts"):
  checker_white.stl, checker_black.stl  checker body: magnet pocket, a cap well keyed by colour
                                        (round for white, square for black), a boss underneath
                                        and a matching recess on top so checkers centre on the
                                        slot and on each other
  cap_white.stl, cap_black.stl          the caps that close the magnet pocket: a round cap fits
                                        only a white body, a square one only a black body
  point_tile.stl                        one point's strip of the playing surface with its five
                                        slot locators (recesses the boss drops into), 32 mm apart
  bar_tile.stl                          the bar's strip: four locators per half, in line with
                                        slots 0-3
  spacer.stl                            holds a sensor board under the tiles at the height the
                                        field model assumes

Heights, from the hall element (z = 0) up: the element sits
`sensor_element_below_package_top_mm` under the SOT-23's top, the package top is
`package_top_to_surface_mm` under the tiles, then the tile, then the checker's floor under the
magnet: together `checker.magnet_bottom_above_sensor_mm` (8.65). The spacer between a board's
top face and the tiles is package height + that gap. The script refuses a geometry whose
stack-up does not add up.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hwspec  # noqa: E402

COLOURS = ("white", "black")


class Sizes:
    """The numbers the parts are made of, read from geometry.json (mm)."""

    def __init__(self, geo):
        mech, mag, lay = geo["mechanical"], geo["magnet"], geo["layout"]
        self.magnet_d = mag["diameter_mm"]
        self.magnet_t = mag["thickness_mm"]
        self.magnet_clr = mech["magnet_clearance_mm"]
        self.checker_d = mech["checker_diameter_mm"]
        self.checker_t = geo["checker"]["thickness_mm"]
        self.floor = mech["checker_floor_mm"]
        self.boss_d = mech["boss_diameter_mm"]
        self.boss_h = mech["boss_height_mm"]
        self.locator_clr = mech["locator_clearance_mm"]
        self.cap_white_d = mech["cap_white_diameter_mm"]
        self.cap_black_w = mech["cap_black_square_mm"]
        self.cap_clr = mech["cap_clearance_mm"]
        self.surface_t = mech["surface_thickness_mm"]
        self.package_h = mech["sensor_package_height_mm"]
        self.element_depth = mech["sensor_element_below_package_top_mm"]
        self.package_gap = mech["package_top_to_surface_mm"]
        self.spacer_od = mech["spacer_outer_diameter_mm"]
        self.spacer_id = mech["spacer_hole_diameter_mm"]
        self.slot_pitch = lay["slot_pitch_mm"]
        self.point_pitch = lay["point_pitch_mm"]
        self.slot0 = lay["slot0_from_edge_mm"]
        self.slots = lay["slots_per_point"]
        self.bar_w = lay["bar_width_mm"]
        self.bar_slots = lay["bar_slots_per_colour"]
        self.tip_gap = lay["tip_gap_mm"]
        self.magnet_height = geo["checker"]["magnet_bottom_above_sensor_mm"]

        # Derived: where things are inside a checker (z = 0 its resting face, boss below).
        self.locator_d = self.boss_d + 2 * self.locator_clr  # also the checker's top recess
        self.locator_depth = self.boss_h + self.locator_clr
        self.pocket_d = self.magnet_d + 2 * self.magnet_clr
        self.pocket_top = self.floor + self.magnet_t + self.magnet_clr
        self.recess_floor = self.checker_t - self.locator_depth
        self.cap_t = self.recess_floor - self.pocket_top  # the cap fills its well flush
        self.tile_length = self.slot0 + (self.slots - 1) * self.slot_pitch + self.tip_gap / 2
        self.spacer_h = self.package_h + self.package_gap

    def stack_up(self):
        """Magnet bottom above the hall element, from the parts' sizes."""
        element_above_board = self.package_h - self.element_depth
        return self.spacer_h - element_above_board + self.surface_t + self.floor

    def problems(self):
        """Reasons these sizes make no working part ([] if none)."""
        out = []
        if abs(self.stack_up() - self.magnet_height) > 1e-6:
            out.append("stack-up %.3f mm != checker.magnet_bottom_above_sensor_mm %.3f"
                       % (self.stack_up(), self.magnet_height))
        if self.cap_t < 0.6:
            out.append("cap %.2f mm thick: less than three printed layers" % self.cap_t)
        well_w, well_b = self.cap_white_d + 2 * self.cap_clr, self.cap_black_w + 2 * self.cap_clr
        # Keyed: neither cap may enter the other colour's well (circle vs square).
        if not (well_b < self.cap_white_d and self.cap_black_w * 2 ** 0.5 > well_w):
            out.append("caps not keyed: a cap of one colour fits the other's well")
        if max(well_w, well_b * 2 ** 0.5) >= self.locator_d:
            out.append("cap wells wider than the top recess they open into")
        if min(well_b, well_w) <= self.pocket_d:
            out.append("cap wells narrower than the magnet pocket: nothing to rest on")
        if self.locator_d >= self.checker_d or self.locator_depth >= self.surface_t:
            out.append("locator recess larger than the checker or deeper than the surface")
        return out


def checker(s, colour):
    from build123d import Box, Cylinder, Pos, Align

    up = (Align.CENTER, Align.CENTER, Align.MIN)
    body = Cylinder(s.checker_d / 2, s.checker_t, align=up)
    body += Pos(0, 0, -s.boss_h) * Cylinder(s.boss_d / 2, s.boss_h, align=up)
    body -= Pos(0, 0, s.recess_floor) * Cylinder(s.locator_d / 2, s.locator_depth + 1, align=up)
    body -= Pos(0, 0, s.floor) * Cylinder(s.pocket_d / 2, s.pocket_top - s.floor + 0.01, align=up)
    well_h = s.cap_t + 0.02
    if colour == "white":
        well = Cylinder(s.cap_white_d / 2 + s.cap_clr, well_h, align=up)
    else:
        w = s.cap_black_w + 2 * s.cap_clr
        well = Box(w, w, well_h, align=up)
    body -= Pos(0, 0, s.pocket_top) * well
    return body


def cap(s, colour):
    from build123d import Box, Cylinder, Align

    up = (Align.CENTER, Align.CENTER, Align.MIN)
    if colour == "white":
        return Cylinder(s.cap_white_d / 2, s.cap_t, align=up)
    return Box(s.cap_black_w, s.cap_black_w, s.cap_t, align=up)


def tile(s, width, slots):
    """A strip of the playing surface, slot 0's edge at y = 0; top face at z = 0."""
    from build123d import Box, Cylinder, Pos, Align

    strip = Box(width, s.tile_length, s.surface_t,
                align=(Align.CENTER, Align.MIN, Align.MAX))
    for k in range(slots):
        strip -= Pos(0, s.slot0 + k * s.slot_pitch, -s.locator_depth) * Cylinder(
            s.locator_d / 2, s.locator_depth + 1, align=(Align.CENTER, Align.CENTER, Align.MIN))
    return strip


def spacer(s):
    from build123d import Cylinder, Align

    up = (Align.CENTER, Align.CENTER, Align.MIN)
    return Cylinder(s.spacer_od / 2, s.spacer_h, align=up) - Cylinder(
        s.spacer_id / 2, s.spacer_h, align=up)


def parts(s):
    """{file name: shape} for every printed part."""
    out = {}
    for colour in COLOURS:
        out["checker_%s.stl" % colour] = checker(s, colour)
        out["cap_%s.stl" % colour] = cap(s, colour)
    out["point_tile.stl"] = tile(s, s.point_pitch, s.slots)
    out["bar_tile.stl"] = tile(s, s.bar_w, s.bar_slots)
    out["spacer.stl"] = spacer(s)
    return out


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description="write the printed parts' STLs")
    ap.add_argument("--out", required=True, help="folder for the STLs")
    ap.add_argument("--geometry", default=hwspec.GEOMETRY)
    args = ap.parse_args(argv)
    s = Sizes(hwspec.load_geometry(args.geometry))
    bad = s.problems()
    if bad:
        for why in bad:
            print("parts: %s (geometry.json `mechanical`)" % why, file=sys.stderr)
        return 1
    from build123d import export_stl

    os.makedirs(args.out, exist_ok=True)
    made = parts(s)
    for name, shape in made.items():
        if not export_stl(shape, os.path.join(args.out, name), tolerance=0.01,
                          angular_tolerance=0.1):
            print("parts: could not write %s" % name, file=sys.stderr)
            return 1
    print("parts: %d STLs in %s (magnet %.2f mm above the sensor)"
          % (len(made), args.out, s.stack_up()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
