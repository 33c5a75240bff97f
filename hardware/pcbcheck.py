"""Checks of a saved board, read back with pcbnew: the copper's connectivity against the
board's netlist, and the sensors' and slot LEDs' positions against geometry.json / pinmap.json.

Connectivity is worked out from the copper's geometry (pads, tracks, vias, filled planes), not
from the net names the items carry, so a cut track (a net in two pieces) and a stray track
(two nets joined) both show up as a difference from the netlist.
"""

import os
import sys

import pcbnew

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import boards  # noqa: E402
import hwspec  # noqa: E402
import netcheck  # noqa: E402

COPPER = (pcbnew.F_Cu, pcbnew.In1_Cu, pcbnew.In2_Cu, pcbnew.B_Cu)
BUCKET = 2000000  # 2 mm in nm


class _Sets:
    def __init__(self):
        self.parent = {}

    def find(self, a):
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[a] = b


def _on_segment(p, a, b, tol):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    qx, qy = ax + t * dx, ay + t * dy
    return (px - qx) ** 2 + (py - qy) ** 2 <= tol * tol


def _buckets(a, b):
    x0, x1 = sorted((a[0] // BUCKET, b[0] // BUCKET))
    y0, y1 = sorted((a[1] // BUCKET, b[1] // BUCKET))
    for i in range(x0, x1 + 1):
        for j in range(y0, y1 + 1):
            yield i, j


def copper_groups(board):
    """The board's pads grouped by the copper that joins them: a list of sets of (ref, pad)."""
    sets = _Sets()
    pads = []
    for f in board.GetFootprints():
        for p in f.Pads():
            key = ("pad", f.GetReference(), p.GetNumber(), id(p))
            pads.append((key, p))
            sets.find(key)
    # Items by layer: segments (tracks) and points (via centres), bucketed for lookup.
    segs = {layer: {} for layer in COPPER}
    points = []  # (key, (x, y), layers, radius)
    for n, t in enumerate(board.GetTracks()):
        if t.GetClass() == "PCB_VIA":
            pos = t.GetPosition()
            points.append((("via", n), (pos.x, pos.y), COPPER, t.GetWidth() / 2))
            sets.find(("via", n))
        else:
            a, b = t.GetStart(), t.GetEnd()
            item = (("trk", n), (a.x, a.y), (b.x, b.y), t.GetWidth() / 2)
            sets.find(item[0])
            for bk in _buckets(item[1], item[2]):
                segs[t.GetLayer()].setdefault(bk, []).append(item)
    # track to track: an end on another track of the same layer
    for layer, table in segs.items():
        done = set()
        for items in table.values():
            for key, a, b, r in items:
                if key in done:
                    continue
                done.add(key)
                for end in (a, b):
                    for other in table.get((end[0] // BUCKET, end[1] // BUCKET), ()):
                        if other[0] != key and _on_segment(end, other[1], other[2], r + other[3]):
                            sets.join(key, other[0])
    # vias to tracks, pads to tracks and vias
    for key, pos, layers, r in points:
        for layer in layers:
            for other in segs[layer].get((pos[0] // BUCKET, pos[1] // BUCKET), ()):
                if _on_segment(pos, other[1], other[2], r + other[3]):
                    sets.join(key, other[0])
    for key, p in pads:
        layers = [layer for layer in COPPER if p.IsOnLayer(layer)]
        bb = p.GetBoundingBox()
        for layer in layers:
            for bk in _buckets((bb.GetX(), bb.GetY()), (bb.GetRight(), bb.GetBottom())):
                for other in segs[layer].get(bk, ()):
                    for end in (other[1], other[2]):
                        if p.HitTest(pcbnew.wxPoint(int(end[0]), int(end[1]))):
                            sets.join(key, other[0])
        for vkey, pos, _, _ in points:
            if p.HitTest(pcbnew.wxPoint(int(pos[0]), int(pos[1]))):
                sets.join(key, vkey)
    # filled planes: each island joins the vias and pads (on its layer) inside it
    for z in board.Zones():
        layer = z.GetLayer()
        fill = z.GetFilledPolysList(layer)
        for i in range(fill.OutlineCount()):
            island = ("zone", z.GetLayer(), id(z), i)
            sets.find(island)
            for key, pos, layers, _ in points:
                if fill.Contains(pcbnew.VECTOR2I(int(pos[0]), int(pos[1])), i):
                    sets.join(key, island)
            for key, p in pads:
                if p.IsOnLayer(layer):
                    c = p.GetPosition()
                    if fill.Contains(pcbnew.VECTOR2I(c.x, c.y), i):
                        sets.join(key, island)
    groups = {}
    for key, p in pads:
        groups.setdefault(sets.find(key), set()).add((key[1], key[2]))
    return list(groups.values())


def check_connectivity(board, nl):
    """Differences between the copper and the netlist, as sentences (empty if none)."""
    problems = []
    net_of = {}
    for name, nodes in nl.nets.items():
        for node in nodes:
            net_of[node] = name
    have = set()
    for f in board.GetFootprints():
        for p in f.Pads():
            node = (f.GetReference(), p.GetNumber())
            have.add(node)
            want = net_of.get(node, "")
            if p.GetNetname() != want:
                problems.append("pad %s-%s is on net '%s', the netlist says '%s'" % (node + (p.GetNetname(), want)))
    for node in sorted(set(net_of) - have):
        problems.append("netlist node %s-%s has no pad on the board" % node)
    groups = copper_groups(board)
    group_of = {}
    for i, g in enumerate(groups):
        for node in g:
            group_of[node] = i
        nets = sorted({net_of[n] for n in g if n in net_of})
        if len(nets) > 1:
            problems.append("extra connection: copper joins nets %s" % ", ".join(nets))
    for name, nodes in sorted(nl.nets.items()):
        parts = {}
        for node in nodes:
            if node in group_of:
                parts.setdefault(group_of[node], []).append(node)
        if len(parts) > 1:
            pieces = sorted(sorted("%s-%s" % n for n in v) for v in parts.values())
            problems.append("missing connection: net %s is in %d pieces: %s"
                            % (name, len(parts), " | ".join(" ".join(p[:4]) for p in pieces)))
    return problems


def sensor_refs(design):
    """(logical slot, instance, local designator) of every sensor on this design's boards."""
    out = []
    for sid in range(hwspec.SENSORS):
        inst, local = boards.place_of("U" + netcheck.sensor_ref(sid))
        if boards.INSTANCES[inst] == design:
            out.append((sid, inst, local))
    return out


def led_refs(design, pinmap):
    """(logical slot, chain index, instance, local designator) of every slot LED on this
    design's boards (D1PPS in the whole circuit, circuit.slot_leds)."""
    out = []
    for sid, idx in enumerate(hwspec.led_of_slot(pinmap)):
        inst, local = boards.place_of("D" + netcheck.sensor_ref(sid))
        if boards.INSTANCES[inst] == design:
            out.append((sid, idx, inst, local))
    return out


def check_positions(board, design, geo, pinmap, tolerance=0.1):
    """Every sensor and slot LED of every instance of this design where geometry.json and the
    chain table put it (playing frame), as sentences. Which LED is chain index i is the
    netlist's (netcheck checks it against the chain table, check_connectivity the copper)."""
    import pcb

    problems = []
    transforms = pcb.LAYOUTS[design][1](geo)
    items = [(sid, "slot %s" % hwspec.slot_name(sid), inst, local, hwspec.slot_xy(geo, sid))
             for sid, inst, local in sensor_refs(design)]
    items += [(sid, "LED %d (slot %s)" % (idx, hwspec.slot_name(sid)), inst, local, hwspec.led_xy(geo, sid))
              for sid, idx, inst, local in led_refs(design, pinmap)]
    checked = 0
    for sid, what, inst, local, want in items:
        f = board.FindFootprintByReference(local)
        if f is None:
            problems.append("%s: no %s on the %s board" % (what, local, design))
            continue
        pos = f.GetPosition()
        x, y = pcb.to_frame(transforms[inst], pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y))
        err = ((x - want[0]) ** 2 + (y - want[1]) ** 2) ** 0.5
        checked += 1
        if err > tolerance:
            problems.append("%s: %s of %s is at (%.2f, %.2f), its place at (%.2f, %.2f): %.2f mm off"
                            % (what, local, inst, x, y, want[0], want[1], err))
    if design != "controller" and not checked:
        problems.append("no sensor of the %s design checked" % design)
    return problems
