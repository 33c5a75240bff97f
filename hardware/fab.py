"""Fabrication files of one board, from its saved .kicad_pcb (KiCad 6's pcbnew).

Into OUT/NAME/: NAME-gerbers.zip (Gerber X2 of every layer, Excellon drills, as a fab takes
them), NAME-cpl.csv (pick and place), NAME-bom.csv (with manufacturer part numbers),
NAME-top.svg / NAME-bottom.svg (renders plotted by pcbnew) and small PNG previews of both
sides (Pillow). Called by pcb.py after a board has passed its checks.
"""

import csv
import os
import shutil
import zipfile

import pcbnew

# What to order for each part (part name or value, footprint): manufacturer and part number.
# A common alternative is fine wherever the footprint matches.
MPN = {
    ("DRV5055A2QDBZR", "Package_TO_SOT_SMD:SOT-23"): ("Texas Instruments", "DRV5055A2QDBZR"),
    ("AO3401A", "Package_TO_SOT_SMD:SOT-23"): ("Alpha & Omega", "AO3401A"),
    ("CD74HC4067M", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm"): ("Texas Instruments", "CD74HC4067M96"),
    ("74HC138", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm"): ("Nexperia", "74HC138D,653"),
    ("74AHCT125", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm"): ("Nexperia", "74AHCT125D,118"),
    ("100n", "Capacitor_SMD:C_0603_1608Metric"): ("Samsung", "CL10B104KB8NNNC"),
    ("10u", "Capacitor_SMD:C_1206_3216Metric"): ("Samsung", "CL31A106KBHNNNE"),
    ("1000u 10V", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm"): ("Panasonic", "EEU-FR1A102"),
    ("10k", "Resistor_SMD:R_0603_1608Metric"): ("Yageo", "RC0603FR-0710KL"),
    ("15k", "Resistor_SMD:R_0603_1608Metric"): ("Yageo", "RC0603FR-0715KL"),
    ("4k7", "Resistor_SMD:R_0603_1608Metric"): ("Yageo", "RC0603FR-074K7L"),
    ("330", "Resistor_SMD:R_0603_1608Metric"): ("Yageo", "RC0603FR-07330RL"),
    ("SS34", "Diode_SMD:D_SMA"): ("onsemi", "SS34"),
    ("Raspberry Pi Pico", "Module:RaspberryPi_Pico_Common_THT"): ("Raspberry Pi", "SC0915"),
    ("SW_Push", "Button_Switch_THT:SW_PUSH_6mm"): ("Omron", "B3F-1000"),
    ("Conn_01x02", "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal"):
        ("Phoenix Contact", "1715721"),
    ("Conn_01x03", "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical"): ("JST", "B3B-XH-A(LF)(SN)"),
    ("Conn_01x08", "Connector_JST:JST_XH_B8B-XH-A_1x08_P2.50mm_Vertical"): ("JST", "B8B-XH-A(LF)(SN)"),
    ("WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"): ("Worldsemi", "WS2812B"),
    ("Conn_01x03", "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical"): ("Harwin", "M20-9990345"),
    ("Conn_01x04", "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical"): ("Harwin", "M20-9990445"),
    ("Conn_02x08_Odd_Even", "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical"): ("Wurth Elektronik", "61201621621"),
    ("SolderJumper_2_Open", "Jumper:SolderJumper-2_P1.3mm_Open_RoundedPad1.0x1.5mm"): ("", "(copper only: no part)"),
}

LAYERS = (
    (pcbnew.F_Cu, "F_Cu"), (pcbnew.In1_Cu, "In1_Cu"), (pcbnew.In2_Cu, "In2_Cu"), (pcbnew.B_Cu, "B_Cu"),
    (pcbnew.F_SilkS, "F_Silkscreen"), (pcbnew.B_SilkS, "B_Silkscreen"), (pcbnew.F_Mask, "F_Mask"),
    (pcbnew.B_Mask, "B_Mask"), (pcbnew.F_Paste, "F_Paste"), (pcbnew.B_Paste, "B_Paste"),
    (pcbnew.Edge_Cuts, "Edge_Cuts"),
)


def mpn_of(part, value, footprint):
    for key in ((value, footprint), (part, footprint)):
        if key in MPN:
            return MPN[key]
    raise SystemExit("fab: no manufacturer part number for %s / %s (%s): add it to fab.MPN"
                     % (part, value, footprint))


def gerbers(board, name, outdir):
    tmp = os.path.join(outdir, "gerbers")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(tmp)
    po.SetFormat(pcbnew.PLOT_FORMAT_GERBER)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(True)
    po.SetCreateGerberJobFile(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetPlotFrameRef(False)
    po.SetUseAuxOrigin(False)
    po.SetScale(1)
    po.SetMirror(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    files = []
    for layer, suffix in LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        files.append(pc.GetPlotFileName())
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)  # no mirror, no minimal header
    drill.SetFormat(True)  # metric
    drill.CreateDrillandMapFilesSet(tmp, True, False)
    zpath = os.path.join(outdir, name + "-gerbers.zip")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(tmp)):
            z.write(os.path.join(tmp, f), f)
    shutil.rmtree(tmp)
    return zpath


def cpl(board, name, outdir):
    """Pick and place: every SMD part's centre and rotation (THT parts are hand-soldered)."""
    path = os.path.join(outdir, name + "-cpl.csv")
    rows = []
    for f in board.GetFootprints():
        if f.GetAttributes() & (pcbnew.FP_THROUGH_HOLE | pcbnew.FP_EXCLUDE_FROM_POS_FILES):
            continue
        pos = f.GetPosition()
        rows.append((f.GetReference(), "%.3f" % pcbnew.ToMM(pos.x), "%.3f" % -pcbnew.ToMM(pos.y),
                     "Top" if f.GetLayer() == pcbnew.F_Cu else "Bottom", "%.1f" % f.GetOrientationDegrees()))
    rows.sort()
    with open(path, "w", newline="") as out:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
        w.writerows(rows)
    return path


def bom(nl, name, outdir):
    groups = {}
    for ref, p in nl.parts.items():
        key = (p["part"], p["value"], p["footprint"])
        groups.setdefault(key, []).append(ref)
    path = os.path.join(outdir, name + "-bom.csv")
    with open(path, "w", newline="") as out:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["Comment", "Designator", "Footprint", "Quantity", "Manufacturer", "MPN"])
        for (part, value, fp), refs in sorted(groups.items()):
            maker, mpn = mpn_of(part, value, fp)
            w.writerow([value, " ".join(sorted(refs)), fp.split(":")[1], len(refs), maker, mpn])
    return path


def renders(board, name, outdir):
    """Top and bottom as SVG (pcbnew's plotter), PNG through ImageMagick when present."""
    out = []
    for side, layers in (("top", (pcbnew.F_Cu, pcbnew.F_SilkS, pcbnew.Edge_Cuts)),
                         ("bottom", (pcbnew.B_Cu, pcbnew.B_SilkS, pcbnew.Edge_Cuts))):
        pc = pcbnew.PLOT_CONTROLLER(board)
        po = pc.GetPlotOptions()
        po.SetOutputDirectory(outdir)
        po.SetPlotFrameRef(False)
        po.SetMirror(side == "bottom")
        po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.FULL_DRILL_SHAPE)
        po.SetScale(1)
        pc.SetLayer(layers[0])
        pc.OpenPlotfile(side, pcbnew.PLOT_FORMAT_SVG, side)
        for layer in layers:  # one file, the layers drawn over each other in their colours
            pc.SetColorMode(True)
            pc.SetLayer(layer)
            pc.PlotLayer()
        pc.ClosePlot()
        svg = os.path.join(outdir, "%s-%s.svg" % (name, side))
        os.replace(pc.GetPlotFileName(), svg)
        out.append(svg)
        png = svg[:-4] + ".png"
        raster(board, side, png)
        out.append(png)
    return out


PX_PER_MM = 4
COLOURS = {"board": (22, 82, 44), "edge": (230, 230, 120), "pad": (200, 170, 80), "hole": (20, 20, 20),
           "near": (230, 90, 70), "far": (90, 140, 230), "via": (235, 235, 235)}


def raster(board, side, path):
    """A small PNG of one side (Pillow; no SVG converter on these machines): the board, the
    tracks on that side over the faint ones of the other, pads, vias. Deterministic, so the
    README's copies can be checked fresh."""
    from PIL import Image, ImageDraw

    bb = board.GetBoardEdgesBoundingBox()
    x0, y0 = pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())
    w, h = pcbnew.ToMM(bb.GetWidth()), pcbnew.ToMM(bb.GetHeight())
    mirror = side == "bottom"
    img = Image.new("RGB", (int(w * PX_PER_MM) + 1, int(h * PX_PER_MM) + 1), COLOURS["board"])
    d = ImageDraw.Draw(img)

    def at(p):
        x, y = (pcbnew.ToMM(p.x) - x0) * PX_PER_MM, (pcbnew.ToMM(p.y) - y0) * PX_PER_MM
        return (w * PX_PER_MM - x if mirror else x), y

    near, far = (pcbnew.B_Cu, pcbnew.F_Cu) if mirror else (pcbnew.F_Cu, pcbnew.B_Cu)
    tracks = [t for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"]
    for layer, colour in ((far, tuple(c // 2 + 20 for c in COLOURS["far"])), (near, COLOURS["near"])):
        for t in tracks:
            if t.GetLayer() == layer:
                d.line([at(t.GetStart()), at(t.GetEnd())], fill=colour, width=1)
    for f in board.GetFootprints():
        for p in f.Pads():
            if not p.IsOnLayer(near):
                continue
            b = p.GetBoundingBox()
            a, c = at(pcbnew.wxPoint(b.GetX(), b.GetY())), at(pcbnew.wxPoint(b.GetRight(), b.GetBottom()))
            d.rectangle([min(a[0], c[0]), a[1], max(a[0], c[0]), c[1]], fill=COLOURS["pad"])
            if p.GetDrillSize().x:
                cx, cy = at(p.GetPosition())
                r = pcbnew.ToMM(p.GetDrillSize().x) / 2 * PX_PER_MM
                d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COLOURS["hole"])
    for t in board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            cx, cy = at(t.GetPosition())
            d.ellipse([cx - 1, cy - 1, cx + 1, cy + 1], fill=COLOURS["via"])
    d.rectangle([0, 0, img.width - 1, img.height - 1], outline=COLOURS["edge"])
    img.save(path, optimize=True)


def write(board, nl, name, outdir):
    # absolute: pcbnew's plotter takes a relative directory as relative to the board file
    outdir = os.path.abspath(os.path.join(outdir, name))
    os.makedirs(outdir, exist_ok=True)
    return [gerbers(board, name, outdir), cpl(board, name, outdir), bom(nl, name, outdir)] + renders(board, name, outdir)
