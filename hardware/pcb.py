"""The printed circuit boards, laid out and routed by code with KiCad 6's pcbnew.

    .venv-kicad/bin/python hardware/pcb.py [--boards DIR] [--out DIR] [--design NAME ...]

Reads each design's netlist (DIR/DESIGN.net, written by circuit.py through boards.py), places
every footprint by rule (sensors from geometry.json), routes it with router.py on two signal
layers (GND and +5V, the LEDs' supply, are the inner planes), applies fab_rules.json as the design settings, fills
the planes and writes OUT/pcb/DESIGN.kicad_pcb. Then, per board, it fails unless:
  - KiCad's DRC finds 0 violations and 0 unconnected pads (OUT/pcb/DESIGN-drc.txt),
  - the copper read back from the saved file connects exactly the netlist's nets (pcbcheck.py),
  - every sensor, mapped into the playing area's frame for each instance, sits on its slot
    within 0.1 mm, and every slot LED where geometry.json's leds.beside_sensor_mm puts it
    (hwspec.led_xy) within 0.1 mm (pcbcheck.py),
and writes the fab files into OUT/fab/DESIGN/ (fab.py). --check PCB_DIR only checks boards
already built (the tests check broken copies this way).
Runs under Debian's /usr/bin/python3 (where pcbnew lives): the Makefile's .venv-kicad.
"""

import argparse
import json
import math
import os
import re
import shutil
import sys
import time

import pcbnew

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import boards  # noqa: E402
import hwspec  # noqa: E402
import netcheck  # noqa: E402
import router  # noqa: E402

FP_LIB = "/usr/share/kicad/footprints"
RULES = os.path.join(HERE, "fab_rules.json")
SIGNAL_LAYERS = (pcbnew.F_Cu, pcbnew.B_Cu)
PLANE_LAYERS = {"In1.Cu": pcbnew.In1_Cu, "In2.Cu": pcbnew.In2_Cu}


def mm(v):
    return pcbnew.FromMM(v)


def pt(x, y):
    return pcbnew.wxPoint(mm(x), mm(y))


def load_rules(path=RULES):
    with open(path) as f:
        return json.load(f)


# --- layouts: where each design's parts go (board mm, x right, y down) -----------------------

SENSOR_CAP_DY = 3.0  # the sensor's 100 nF sits this far below it (towards slot 0)
LED_CAP_DY = 4.6  # the LED's 100 nF sits this far below the LED (clear of its 5 x 5 mm body)
QUARTER_MARGIN_X = 1.0  # each side of the 6 x 32 mm columns (2 mm gap between boards)
EDGE_MARGIN_Y = 4.0  # from the playing area's edge to the board's edge
CENTRE_GAP = 2.0  # from the board's inner end to the board's centre line


def quarter_size(geo):
    lay = geo["layout"]
    w = 6 * lay["point_pitch_mm"] - 2 * QUARTER_MARGIN_X
    h = hwspec.half_depth(geo) - EDGE_MARGIN_Y - CENTRE_GAP
    return w, h


def quarter_sensor_xy(geo, c, s):
    lay = geo["layout"]
    w, h = quarter_size(geo)
    x = lay["point_pitch_mm"] * (c + 0.5) - QUARTER_MARGIN_X
    y = h - (lay["slot0_from_edge_mm"] - EDGE_MARGIN_Y) - s * lay["slot_pitch_mm"]
    return x, y


def quarter_layout(geo):
    """{ref: (x, y, degrees)} and the board size of the quarter design."""
    lay = geo["layout"]
    pitch = lay["point_pitch_mm"]
    place = {}
    for c in range(6):
        for s in range(5):
            x, y = quarter_sensor_xy(geo, c, s)
            place["U%d%d" % (c + 1, s + 1)] = (x, y, 0)
            place["C%d%d" % (c + 1, s + 1)] = (x, y + SENSOR_CAP_DY, 0)
            lx, ly = led_beside(geo, x, y)
            place["D%d%d" % (c + 1, s + 1)] = (lx, ly, 0)
            place["C1%d%d" % (c + 1, s + 1)] = (lx, ly + LED_CAP_DY, 0)
    # The muxes sit in the free square between slots 2 and 3 in the middle of their three
    # columns (U1: the lo bank, columns 3-5; U2: the hi bank, columns 0-2), their switch and
    # decoupling beside them; the cables leave near the bar end of the board.
    x1, y2 = quarter_sensor_xy(geo, 1, 2)
    x4, y3 = quarter_sensor_xy(geo, 4, 3)
    ym = (y2 + y3) / 2
    for ref, x in (("1", x4 + pitch / 2), ("2", x1 + pitch / 2)):
        place["U" + ref] = (x, ym, 0)
        place["C" + ref] = (x + 9.0, ym - 7.0, 90)
        place["Q" + ref] = (x, ym + 11.0, 0)
    # M3 mounting holes in free squares near the corners (22.6 mm from the nearest sensors)
    for n, (c, s) in enumerate(((4, 3), (4, 0), (0, 0), (2, 3)), 1):
        x, y = quarter_sensor_xy(geo, c, s)
        place["H%d" % n] = (x + pitch / 2, y - pitch / 2, 0)
    # The cables between columns 0 and 1, clear of column 0's LEDs (on the sensors' right).
    x0, y4 = quarter_sensor_xy(geo, 0, 4)
    place["J1"] = (x0 + pitch / 2 + 1.2, y4 + 6.0, 0)
    place["C3"] = (x0 + pitch / 2 + 11.5, y4 + 12.0, 90)  # 10 uF on +5V beside the ribbon
    x0, y1 = quarter_sensor_xy(geo, 0, 1)
    place["J2"] = (x0 + pitch / 2 - 8.75, y1 - 16.0, 0)
    return place, quarter_size(geo)


def led_beside(geo, x, y):
    """A slot's LED in board mm from its sensor's: geometry.json's leds.beside_sensor_mm to the
    sensor's right as the board sees it (hwspec.led_xy in the playing frame)."""
    return x + geo["leds"]["beside_sensor_mm"], y


def quarter_transforms(geo):
    """Instance -> (X0, Y0, turned): board (x, y) -> playing frame (X0 + x, Y0 - y), or
    (X0 - x, Y0 + y) when the board is turned 180 degrees (the top quarters)."""
    lay = geo["layout"]
    w, h = quarter_size(geo)
    inner = lay["bar_width_mm"] / 2 + QUARTER_MARGIN_X
    outer = inner + w
    top = -CENTRE_GAP
    return {"quarter1": (inner, top, False), "quarter2": (-outer, top, False),
            "quarter3": (-inner, -top, True), "quarter4": (outer, -top, True)}


BAR_W = 34.0


def bar_size(geo):
    lay = geo["layout"]
    h = lay["slot0_from_edge_mm"] - EDGE_MARGIN_Y + 3 * lay["slot_pitch_mm"] + 36.0
    return BAR_W, h


def bar_sensor_xy(geo, k):
    lay = geo["layout"]
    w, h = bar_size(geo)
    return w / 2, h - (lay["slot0_from_edge_mm"] - EDGE_MARGIN_Y) - k * lay["slot_pitch_mm"]


def bar_layout(geo):
    place = {}
    for k in range(4):
        x, y = bar_sensor_xy(geo, k)
        place["U%d" % (k + 1)] = (x, y, 0)
        place["C%d" % (k + 1)] = (x, y + SENSOR_CAP_DY, 0)
        lx, ly = led_beside(geo, x, y)
        place["D%d" % (k + 1)] = (lx, ly, 0)
        place["C1%d" % (k + 1)] = (lx, ly + LED_CAP_DY, 0)
    # M3 mounting holes between slots 1-2 and 2-3 (use nylon screws: 19 mm from a sensor)
    for n, k in enumerate((1, 2), 1):
        x, y = bar_sensor_xy(geo, k)
        place["H%d" % n] = ((6.0 if n == 1 else BAR_W - 6.0), y - 16.0, 0)
    place["J1"] = (BAR_W - 6.0, 6.0, 270)  # to the quarter on the right
    place["J2"] = (6.0, 6.0, 270)  # to the quarter on the left
    return place, bar_size(geo)


def bar_transforms(geo):
    w, h = bar_size(geo)
    bottom = -hwspec.half_depth(geo) + EDGE_MARGIN_Y + h
    return {"bar_black": (-w / 2, bottom, False), "bar_white": (w / 2, -bottom, True)}


# The controller: no sensors, so no fixed positions; its parts are packed in rows by their
# bounding boxes (silkscreen included, so nothing overlaps), in an order that keeps each group
# together: the cables along the top, the Pico and the logic, the buttons, power along the bottom.
CONTROLLER_W = 130.0
CONTROLLER_ROWS = (
    ("J6", "J7", "J8", "J9"),
    ("A1", "U9", "C9", "R1", "U10", "C10", "R2", "J2", "J3", "J4", "R3", "R4"),
    ("SW1", "SW2", "SW3", "SW4", "SW5", "SW6"),
    ("J1", "D1", "R5", "R6", "D2", "C11", "C13", "JP1", "C12", "J5"),
)
CONTROLLER_GAP = 5.0
CONTROLLER_EDGE = 8.0  # room for an M3 mounting hole 4 mm in from each corner


def controller_layout(geo, footprints=None):
    """Packed positions; needs the loaded footprints (their sizes), so it is called twice:
    first for the list of refs (footprints None), then with them."""
    place = {ref: (0.0, 0.0, 0) for row in CONTROLLER_ROWS for ref in row}
    if footprints is None:
        return place, (CONTROLLER_W, 0.0)
    y = CONTROLLER_EDGE
    for row in CONTROLLER_ROWS:
        x = CONTROLLER_EDGE
        tallest = 0.0
        for ref in row:
            f = footprints[ref]
            f.SetPosition(pt(0, 0))
            bb = f.GetBoundingBox(False, False)
            x0, y0 = pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())
            w, h = pcbnew.ToMM(bb.GetWidth()), pcbnew.ToMM(bb.GetHeight())
            if x + w > CONTROLLER_W - CONTROLLER_EDGE:
                x = CONTROLLER_EDGE
                y += tallest + CONTROLLER_GAP
                tallest = 0.0
            place[ref] = (round((x - x0) * 2) / 2, round((y - y0) * 2) / 2, 0)
            x += w + CONTROLLER_GAP
            tallest = max(tallest, h)
        y += tallest + CONTROLLER_GAP
    h = float(math.ceil(y - CONTROLLER_GAP + CONTROLLER_EDGE))
    for n, (x, y) in enumerate(((4, 4), (CONTROLLER_W - 4, 4), (4, h - 4), (CONTROLLER_W - 4, h - 4)), 1):
        place["H%d" % n] = (x, y, 0)
    return place, (CONTROLLER_W, h)


LAYOUTS = {"quarter": (quarter_layout, quarter_transforms), "bar": (bar_layout, bar_transforms),
           "controller": (controller_layout, lambda geo: {})}


def pico_footprint():
    """Raspberry Pi Pico, through-hole (KiCad 6's library lacks it): from the datasheet, 40
    pins at 2.54 mm in two rows 17.78 mm apart, pin 1 at the USB end on the left, the module
    51 x 21 mm. Origin at the module's centre."""
    f = pcbnew.FOOTPRINT(None)
    f.SetFPID(pcbnew.LIB_ID("Module", "RaspberryPi_Pico_Common_THT"))
    f.SetAttributes(pcbnew.FP_THROUGH_HOLE)
    for n in range(1, 41):
        if n <= 20:
            x, y = -17.78 / 2, -24.13 + 2.54 * (n - 1)
        else:
            x, y = 17.78 / 2, 24.13 - 2.54 * (n - 21)
        p = pcbnew.PAD(f)
        p.SetNumber(str(n))
        p.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        p.SetLayerSet(pcbnew.PAD.PTHMask())
        p.SetShape(pcbnew.PAD_SHAPE_RECT if n == 1 else pcbnew.PAD_SHAPE_CIRCLE)
        p.SetSize(pcbnew.wxSize(mm(1.7), mm(1.7)))
        p.SetDrillSize(pcbnew.wxSize(mm(1.0), mm(1.0)))
        p.SetPos0(pt(x, y))
        p.SetPosition(pt(x, y))
        f.Add(p)
    for layer, (hw, hh), width in ((pcbnew.F_SilkS, (10.5, 25.5), 0.12), (pcbnew.F_CrtYd, (10.75, 25.75), 0.05),
                                   (pcbnew.F_Fab, (10.5, 25.5), 0.1)):
        corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            sh = pcbnew.FP_SHAPE(f)
            sh.SetShape(pcbnew.SHAPE_T_SEGMENT)
            sh.SetLayer(layer)
            sh.SetWidth(mm(width))
            sh.SetStart0(pt(*a))
            sh.SetEnd0(pt(*b))
            f.Add(sh)
    f.Reference().SetPos0(pt(0, -27.0))
    f.Value().SetPos0(pt(0, 27.0))
    f.Value().SetLayer(pcbnew.F_Fab)
    return f


def to_frame(transform, x, y):
    x0, y0, turned = transform
    return (x0 - x, y0 + y) if turned else (x0 + x, y0 - y)


# --- building a board ------------------------------------------------------------------------


MOUNTING_HOLE = "MountingHole:MountingHole_3.2mm_M3"


def load_footprint(name):
    if name == "Module:RaspberryPi_Pico_Common_THT":
        return pico_footprint()
    lib, fp = name.split(":")
    path = os.path.join(FP_LIB, lib + ".pretty")
    f = pcbnew.FootprintLoad(path, fp)
    if f is None:
        raise SystemExit("pcb: footprint %s not found in %s" % (name, path))
    return f


def apply_rules(board, rules):
    board.SetCopperLayerCount(rules["layers"])
    ds = board.GetDesignSettings()
    ds.SetBoardThickness(mm(rules["board_thickness_mm"]))
    ds.m_TrackMinWidth = mm(rules["min_track_mm"])
    ds.m_MinClearance = mm(rules["min_clearance_mm"])
    ds.m_MinThroughDrill = mm(rules["min_drill_mm"])
    ds.m_ViasMinAnnularWidth = mm(rules["min_annular_ring_mm"])
    ds.m_ViasMinSize = mm(rules["min_via_diameter_mm"])
    ds.m_HoleToHoleMin = mm(rules["min_hole_to_hole_mm"])
    ds.m_CopperEdgeClearance = mm(rules["copper_to_edge_mm"])
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(mm(rules["clearance_mm"]))
    nc.SetTrackWidth(mm(rules["track_mm"]))
    nc.SetViaDiameter(mm(rules["via_diameter_mm"]))
    nc.SetViaDrill(mm(rules["via_drill_mm"]))


def outline(board, w, h):
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(pt(x0, y0))
        s.SetEnd(pt(x1, y1))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(mm(0.1))
        board.Add(s)


def plane(board, layer, net, w, h, rules):
    z = pcbnew.ZONE(board)
    z.SetLayer(layer)
    z.SetNet(net)
    z.SetLocalClearance(mm(rules["clearance_mm"]))
    z.SetMinThickness(mm(0.25))
    z.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL)
    z.SetThermalReliefGap(mm(0.3))
    z.SetThermalReliefSpokeWidth(mm(0.4))
    ol = z.Outline()
    ol.NewOutline()
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        ol.Append(mm(x), mm(y))
    board.Add(z)
    return z


def pad_box(pad):
    bb = pad.GetBoundingBox()
    return (pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY()),
            pcbnew.ToMM(bb.GetRight()), pcbnew.ToMM(bb.GetBottom()))


def pad_layers(pad):
    return [i for i, layer in enumerate(SIGNAL_LAYERS) if pad.IsOnLayer(layer)]


def build_board(design, nl, geo, rules):
    place, (w, h) = LAYOUTS[design][0](geo)
    board = pcbnew.BOARD()
    apply_rules(board, rules)
    nets = {}
    for name in sorted(nl.nets):
        ni = pcbnew.NETINFO_ITEM(board, name)
        board.Add(ni)
        nets[name] = ni
    fps = {}
    for ref, info in nl.parts.items():
        if ref not in place:
            raise SystemExit("pcb: %s: no place for %s" % (design, ref))
        f = load_footprint(info["footprint"])
        f.SetReference(ref)
        f.SetValue(info["value"])
        fps[ref] = f
    if design == "controller":
        place, (w, h) = controller_layout(geo, fps)
    for ref in sorted(r for r in place if r.startswith("H")):  # mounting holes: not in the netlist
        f = load_footprint(MOUNTING_HOLE)
        f.SetReference(ref)
        f.SetValue("M3")
        f.Reference().SetVisible(False)  # nothing to print beside a hole (and room near edges)
        fps[ref] = f
    for ref, f in fps.items():
        x, y, deg = place[ref]
        f.SetPosition(pt(x, y))
        if deg:
            f.SetOrientationDegrees(deg)
        if ref.startswith("C") and any((x, y - dy, 0) in place.values() for dy in (SENSOR_CAP_DY, LED_CAP_DY)):
            f.Reference().SetPosition(pt(x, y + 1.45))  # under the capacitor, clear of its sensor / LED
        board.Add(f)
    outline(board, w, h)
    for name, nodes in nl.nets.items():
        for ref, pin in nodes:
            pads = [p for p in fps[ref].Pads() if p.GetNumber() == pin]
            if not pads:
                raise SystemExit("pcb: %s: %s has no pad %s" % (design, ref, pin))
            for p in pads:
                p.SetNet(nets[name])
    planes = {net: layer for layer, net in rules["plane_nets"].items()}
    failed = route(board, fps, nets, planes, w, h, rules, power_copper(design, fps))
    for f in failed[:10]:
        print("pcb: %s: not routed: %s" % (design, f))
    zones = [plane(board, PLANE_LAYERS[layer], nets[net], w, h, rules)
             for layer, net in rules["plane_nets"].items() if net in nets]
    return board


def fill_planes(path):
    """Fill the planes of the saved board at path (ZONE_FILLER crashes on a board made in
    memory by pcbnew.BOARD(): it needs the project a loaded board has) and save it again."""
    board = pcbnew.LoadBoard(path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.Save(path)
    return pcbnew.LoadBoard(path)


POWER_TRACK_MM = 1.5  # ~3 A on 1 oz outer copper at a 10 degree rise (IPC-2221)


def power_copper(design, fps):
    """Copper drawn before routing for the controller's supply input, which carries the whole
    board's current (up to 2.7 A, power_budget.py): a 1.5 mm F.Cu track from J1's + pin to D1's
    anode, passing under J1's GND pin, and from D1's cathode a 1.5 mm track to three vias into
    the +5V plane. [("track", net, (x0, y0), (x1, y1)) | ("via", net, (x, y))] in board mm."""
    if design != "controller":
        return []

    def pad(ref, num):
        p = [q for q in fps[ref].Pads() if q.GetNumber() == num][0]
        return p.GetNetname(), pcbnew.ToMM(p.GetPosition()), pad_box(p)

    vin, (jx, jy), jbox = pad("J1", "1")
    _, (ax, ay), _ = pad("D1", "2")
    v5, (kx, ky), kbox = pad("D1", "1")
    below = jbox[3] + 1.8  # J1's pads' bottom edge + clearance + half the track
    vx = kbox[0] - 3.0
    out = [("track", vin, (jx, jy), (jx, below)), ("track", vin, (jx, below), (ax, below)),
           ("track", vin, (ax, below), (ax, ay)), ("track", v5, (kx, ky), (vx, ky)),
           ("track", v5, (vx, ky - 1.2), (vx, ky + 1.2))]
    out += [("via", v5, (vx, ky + dy)) for dy in (-1.2, 0.0, 1.2)]
    return out


def route(board, fps, nets, planes, w, h, rules, fixed=()):
    g = router.Grid(w, h, rules["routing_grid_mm"], rules["track_mm"], rules["clearance_mm"],
                    rules["via_diameter_mm"])
    ids = {name: i for i, name in enumerate(sorted(nets))}
    edge = rules["copper_to_edge_mm"] + rules["track_mm"] / 2
    g.block_rect(-1, -1, w + 1, edge)
    g.block_rect(-1, h - edge, w + 1, h + 1)
    g.block_rect(-1, -1, edge, h + 1)
    g.block_rect(w - edge, -1, w + 1, h + 1)
    pads_of = {}
    for f in fps.values():
        for p in f.Pads():
            net = p.GetNetname()
            box = pad_box(p)
            layers = pad_layers(p)
            if net:
                g.add_rect(ids[net], layers, *box)
                pads_of.setdefault(net, []).append((p, box, layers))
            else:
                g.block_rect(box[0] - 0.35, box[1] - 0.35, box[2] + 0.35, box[3] + 0.35, layers)
            # no via in or next to a pad (solder would wick into it; holes keep their spacing)
            m = rules["via_diameter_mm"] / 2 + rules["clearance_mm"]
            g.block_rect(box[0] - m, box[1] - m, box[2] + m, box[3] + m, (), vias=True)
    failed = []
    # Fixed power copper first: the router keeps every other net its clearance away from it.
    r = POWER_TRACK_MM / 2
    for item in fixed:
        if item[0] == "track":
            _, net, (x0, y0), (x1, y1) = item
            g.add_rect(ids[net], [0], min(x0, x1) - r, min(y0, y1) - r, max(x0, x1) + r, max(y0, y1) + r)
        else:
            _, net, (x, y) = item
            d = rules["via_diameter_mm"] / 2
            g.add_rect(ids[net], [0, 1], x - d, y - d, x + d, y + d)

    def sources(box, layers, pad=None):
        cells = g.pad_cells(*box)
        if pad is not None:  # round pads: only the cells on the copper
            cells = [c for c in cells if pad.HitTest(pt(*g.xy(c)))]
        if not cells:
            cells = [g.index(*g.cell_of((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))]
        return [(layer, c) for c in cells for layer in layers]

    def draw(path, net):
        tracks, vias = router.segments(g, path)
        for layer, a, b in tracks:
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(pt(*a))
            t.SetEnd(pt(*b))
            t.SetWidth(mm(rules["track_mm"]))
            t.SetLayer(SIGNAL_LAYERS[layer])
            t.SetNet(nets[net])
            board.Add(t)
        for x, y in vias:
            via(x, y, net)

    def via(x, y, net):
        v = pcbnew.PCB_VIA(board)
        v.SetPosition(pt(x, y))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetDrill(mm(rules["via_drill_mm"]))
        v.SetWidth(mm(rules["via_diameter_mm"]))
        v.SetNet(nets[net])
        board.Add(v)

    for item in fixed:
        if item[0] == "track":
            _, net, a, b = item
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(pt(*a))
            t.SetEnd(pt(*b))
            t.SetWidth(mm(POWER_TRACK_MM))
            t.SetLayer(pcbnew.F_Cu)
            t.SetNet(nets[net])
            board.Add(t)
        else:
            via(*item[2], item[1])

    # Fan-out of the ICs (SOIC): each signal pin runs straight out on F.Cu to a via, the vias
    # staggered (near, far) so that neighbouring pins' vias keep their clearance; the router
    # then reaches the pin on either layer.
    fanned = {}
    fan_vias = set()
    for f in fps.values():
        if len(f.Pads()) < 14 or f.Pads()[0].GetAttribute() != pcbnew.PAD_ATTRIB_SMD:
            continue
        c = f.GetPosition()
        for p in f.Pads():
            net = p.GetNetname()
            if not net or net in planes:
                continue
            box = pad_box(p)
            pos = p.GetPosition()
            out = 1 if pos.x > c.x else -1
            reach = 1.0 if int(p.GetNumber()) % 2 else 2.5
            x = (box[2] if out > 0 else box[0]) + out * reach
            vi = g.index(*g.cell_of(x, pcbnew.ToMM(pos.y)))
            path = g.route(ids[net], sources(box, [0], p), {(0, vi)}, wrong_way=0, limit=2000)
            if path is None or not g.can_via(vi, ids[net]):
                continue  # no room for its via: the signal pass below routes the pad itself
            g.occupy(path + [(1, vi)], ids[net])
            draw(path, net)
            via(*g.xy(vi), net)
            # the pin is reached through its via only (so the via is never left dangling)
            fanned[(f.GetReference(), p.GetNumber())] = [(1, vi)]
            fan_vias.add(vi)
    # Plane nets first: each SMD pad drops a via to its inner plane as near as it can.
    for net in sorted(n for n in pads_of if n in planes):
        for p, box, layers in pads_of[net]:
            if p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH:
                continue
            path = g.escape_to_via(ids[net], sources(box, layers, p))
            if path is None:
                failed.append("%s pad %s-%s: no room for a via" % (net, p.GetParent().GetReference(), p.GetNumber()))
                continue
            g.occupy(path + [(1 - path[-1][0], path[-1][1])], ids[net])
            draw(path, net)
            x, y = g.xy(path[-1][1])
            via(x, y, net)
    # Signal nets, the smallest first: grow a tree from one pad to the nearest next pad.
    def span(net):
        xs = [b[0] for _, b, _ in pads_of[net]] + [b[2] for _, b, _ in pads_of[net]]
        ys = [b[1] for _, b, _ in pads_of[net]] + [b[3] for _, b, _ in pads_of[net]]
        return max(xs) - min(xs) + max(ys) - min(ys)

    for net in sorted((n for n in pads_of if n not in planes), key=span):
        nid = ids[net]
        pads = list(pads_of[net])
        first = pads.pop(0)
        tree = set(fanned.get((first[0].GetParent().GetReference(), first[0].GetNumber()))
                   or sources(first[1], first[2], first[0]))
        centres = [((first[1][0] + first[1][2]) / 2, (first[1][1] + first[1][3]) / 2)]
        while pads:
            def dist(item):
                cx, cy = (item[1][0] + item[1][2]) / 2, (item[1][1] + item[1][3]) / 2
                return min(abs(cx - a) + abs(cy - b) for a, b in centres)

            pads.sort(key=dist)
            p, box, layers = pads.pop(0)
            src = fanned.get((p.GetParent().GetReference(), p.GetNumber())) or sources(box, layers, p)
            path = g.route(nid, src, tree, no_via=fan_vias)
            if path is None:
                failed.append("%s: no route to %s-%s" % (net, p.GetParent().GetReference(), p.GetNumber()))
                continue
            g.occupy(path, nid)
            draw(path, net)
            tree.update(path)
            tree.update(sources(box, layers, p))
            centres.append(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
    return failed


# --- DRC ---------------------------------------------------------------------------------------


def run_drc(board, path):
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path) as f:
        text = f.read()
    viol = re.search(r"\*\* Found (\d+) DRC violations \*\*", text)
    unconn = re.search(r"\*\* Found (\d+) unconnected pads \*\*", text)
    if not (viol and unconn):
        raise SystemExit("pcb: cannot read the DRC report %s" % path)
    return int(viol.group(1)), int(unconn.group(1)), text


def same_file(a, b):
    try:
        with open(a, "rb") as f, open(b, "rb") as g:
            return f.read() == g.read()
    except OSError:
        return False


def read_netlist(path):
    with open(path) as f:
        return netcheck.parse_netlist(f.read())


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=os.path.join(HERE, "build", "boards"))
    ap.add_argument("--out", default=os.path.join(HERE, "build"))
    ap.add_argument("--design", action="append", choices=sorted(LAYOUTS))
    ap.add_argument("--renders", metavar="DIR",
                    help="fail unless DIR holds the same DESIGN-top/bottom.png previews (the README's)")
    ap.add_argument("--update-renders", metavar="DIR", help="copy the previews into DIR")
    ap.add_argument("--check", metavar="PCB_DIR",
                    help="only check the boards already in PCB_DIR (DESIGN.kicad_pcb), build nothing")
    args = ap.parse_args(argv)
    import pcbcheck

    geo = hwspec.load_geometry()
    pinmap = hwspec.load_pinmap()
    rules = load_rules()
    outdir = os.path.join(args.out, "pcb")
    if not args.check:
        os.makedirs(outdir, exist_ok=True)
    status = 0
    for design in args.design or sorted(LAYOUTS):
        t0 = time.time()
        nl = read_netlist(os.path.join(args.boards, design + ".net"))
        if args.check:
            path = os.path.join(args.check, design + ".kicad_pcb")
            if not os.path.exists(path):
                print("pcb: %s: no board %s (run `make hardware`)" % (design, path))
                status = 1
                continue
            board = pcbnew.LoadBoard(path)
            drc_path = os.path.join(args.check, design + "-drc.txt")
        else:
            board = build_board(design, nl, geo, rules)
            path = os.path.join(outdir, design + ".kicad_pcb")
            board.Save(path)
            board = fill_planes(path)
            drc_path = os.path.join(outdir, design + "-drc.txt")
        viol, unconn, _ = run_drc(board, drc_path)
        problems = pcbcheck.check_connectivity(board, nl)
        problems += pcbcheck.check_positions(board, design, geo, pinmap)
        if viol or unconn:
            problems.insert(0, "DRC: %d violations, %d unconnected pads (%s)"
                            % (viol, unconn, drc_path))
        for p in problems[:20]:
            print("pcb: %s: %s" % (design, p))
        if problems:
            status = 1
            continue
        fab_note = ""
        if not args.check:
            import fab

            files = fab.write(board, nl, design, os.path.join(args.out, "fab"))
            fab_note = "; fab files in %s" % os.path.relpath(os.path.dirname(files[0]), os.getcwd())
            for side in ("top", "bottom"):
                png = os.path.join(args.out, "fab", design, "%s-%s.png" % (design, side))
                if args.update_renders:
                    os.makedirs(args.update_renders, exist_ok=True)
                    shutil.copy(png, args.update_renders)
                elif args.renders and not same_file(png, os.path.join(args.renders, os.path.basename(png))):
                    print("pcb: %s: %s is stale: run `make hardware-update`"
                          % (design, os.path.join(args.renders, os.path.basename(png))))
                    status = 1
        sensors = len(pcbcheck.sensor_refs(design))
        leds = len(pcbcheck.led_refs(design, pinmap))
        print("pcb: %s: %d footprints, %d tracks, %d vias; DRC 0 violations 0 unconnected; copper = "
              "netlist; %d sensor and %d LED positions within 0.1 mm%s (%.1f s)"
              % (design, len(board.GetFootprints()), sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"),
                 sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_VIA"), sensors, leds, fab_note,
                 time.time() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
