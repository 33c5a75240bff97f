"""Sensor field model: what each hall sensor reads for stacks of checkers, from geometry.json.

    python hardware/field_model.py            write hardware/field_table.json
    python hardware/field_model.py --check    exit 1 if field_table.json is stale

Uses magpylib (exact field of a cylinder magnet). Readings are 12-bit ADC counts from the
sensor's zero level (VCC/2): positive for white (north pole up), negative for black. A stack of
n checkers is n magnets spaced by the checker thickness. Neighbour contributions are tabulated
per distance ("kernels") for a white stack; contributions add linearly, and a black stack
contributes the same with the opposite sign. See hardware/README.md, "Field table".
"""

import hashlib
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hwspec  # noqa: E402

NEIGHBOUR_CUTOFF_MM = 130.0


def geometry_sha256(geo):
    canon = json.dumps(geo, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def counts_per_mT(geo):
    s = geo["sensor"]
    lsb_mV = s["adc_ref_V"] * 1000.0 / (1 << s["adc_bits"])
    return s["sensitivity_mV_per_mT"] / lsb_mV


class StackField:
    """Bz (mT) at a sensor from a white stack of n checkers at lateral distance r (mm)."""

    def __init__(self, geo):
        import magpylib as magpy  # imported here: the rest of the module needs no magpylib

        self.magpy = magpy
        self.geo = geo

    def bz(self, n, distances_mm, height_mm=None):
        if n == 0:
            return [0.0 for _ in distances_mm]
        magpy = self.magpy
        mag, chk = self.geo["magnet"], self.geo["checker"]
        h = chk["magnet_bottom_above_sensor_mm"] if height_mm is None else height_mm
        t = mag["thickness_mm"]
        magnets = [
            magpy.magnet.Cylinder(
                polarization=(0.0, 0.0, mag["polarization_T"]),
                dimension=(mag["diameter_mm"] * 1e-3, t * 1e-3),
                position=(0.0, 0.0, (h + t / 2 + k * chk["thickness_mm"]) * 1e-3),
            )
            for k in range(n)
        ]
        observers = [(r * 1e-3, 0.0, 0.0) for r in distances_mm]
        b = magpy.Collection(*magnets).getB(observers)
        if len(observers) == 1:
            b = [b]
        return [float(v[2]) * 1e3 for v in b]


def r1(x):
    return round(float(x), 1)


# geometry.json's parts the field does not depend on (the printed parts' sizes, hardware/
# parts.py; where the LEDs sit): left out of the table, so changing them leaves
# field_table.json as it is.
NOT_MODEL_INPUTS = ("mechanical", "leds")


def model_inputs(geo):
    return {k: v for k, v in geo.items() if k not in NOT_MODEL_INPUTS}


def compute(geo):
    geo = model_inputs(geo)
    field = StackField(geo)
    cpm = counts_per_mT(geo)
    nmax = geo["model"]["max_stack"]

    stack_mT = [field.bz(n, [0.0])[0] for n in range(nmax + 1)]
    stack_counts = [v * cpm for v in stack_mT]
    layer_counts = [stack_counts[n] - stack_counts[n - 1] for n in range(1, nmax + 1)]

    # Neighbours: every pair of slots; the kernel depends only on the distance.
    pos = [hwspec.slot_xy(geo, sid) for sid in range(hwspec.SENSORS)]
    pairs = {}
    for i in range(hwspec.SENSORS):
        for j in range(hwspec.SENSORS):
            if i == j:
                continue
            d = round(math.hypot(pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]), 2)
            if d <= NEIGHBOUR_CUTOFF_MM:
                pairs.setdefault(d, []).append((i, j))
    dists = sorted(pairs)
    per_n = [field.bz(n, dists) for n in range(1, nmax + 1)]
    min_counts = geo["model"]["neighbour_min_counts"]
    kernels = []
    kernel_of_dist = {}
    for di, d in enumerate(dists):
        counts = [per_n[n][di] * cpm for n in range(nmax)]
        if max(abs(c) for c in counts) < min_counts:
            continue
        i, j = pairs[d][0]
        kernel_of_dist[d] = len(kernels)
        kernels.append(
            {
                "distance_mm": d,
                "counts": [r1(c) for c in counts],
                "example": "%s from %s" % (hwspec.slot_name(i), hwspec.slot_name(j)),
                "pairs": len(pairs[d]),
            }
        )
    neighbours = [[] for _ in range(hwspec.SENSORS)]
    for d, k in kernel_of_dist.items():
        for i, j in pairs[d]:
            neighbours[i].append((j, k))
    flat = []
    worst = []
    for i in range(hwspec.SENSORS):
        lst = sorted(neighbours[i])
        flat.append([x for jk in lst for x in jk])
        worst.append(sum(abs(kernels[k]["counts"][2]) for _, k in lst))
    # What the kernels leave out: far stacks (up to the cutoff), worst slot, all stacks of 3.
    ignored = [0.0] * hwspec.SENSORS
    for di, d in enumerate(dists):
        if d not in kernel_of_dist:
            for i, _ in pairs[d]:
                ignored[i] += abs(per_n[2][di] * cpm)

    # The reference's figure: four neighbours at one slot pitch, each a stack of three.
    pitch = geo["layout"]["slot_pitch_mm"]
    four = 4 * abs(field.bz(3, [pitch])[0]) * cpm

    # Classification: levels 0, 1, 2, "3 or more"; thresholds midway, with hysteresis.
    frac = geo["classification"]["hysteresis_fraction"]
    levels = [stack_counts[n] for n in range(4)]
    boundaries = []
    for k in range(3):
        lo, hi = levels[k], levels[k + 1]
        mid = (lo + hi) / 2
        margin = frac * (hi - lo) / 2
        boundaries.append(
            {
                "between": [k, k + 1],
                "mid": int(round(mid)),
                "rise": int(round(mid + margin)),
                "fall": int(round(mid - margin)),
            }
        )

    # Tolerances: the magnet higher or lower, the checker off the slot's centre.
    tol = geo["model"]["height_tolerance_mm"]
    h0 = geo["checker"]["magnet_bottom_above_sensor_mm"]
    offsets = geo["model"]["lateral_offsets_mm"]
    by_offset = []
    for n in (1, 2, 3):
        by_offset.append([r1(v * cpm) for v in field.bz(n, offsets)])
    sens = geo["sensor"]
    max_reading_mT = (stack_counts[nmax] + max(worst)) / cpm

    return {
        "schema": 1,
        "generated_by": "hardware/field_model.py (magpylib)",
        "geometry_sha256": geometry_sha256(geo),
        "units": "12-bit ADC counts from the slot's zero level; + white (north up), - black",
        "counts_per_mT": round(cpm, 3),
        "zero_counts_nominal": 1 << (sens["adc_bits"] - 1),
        "colour_sign": {"white": 1, "black": -1},
        "stack": {
            "n": list(range(nmax + 1)),
            "mT": [round(v, 3) for v in stack_mT],
            "counts": [r1(c) for c in stack_counts],
            "layer_counts": [r1(c) for c in layer_counts],
        },
        "thresholds": {
            "levels": [r1(c) for c in levels],
            "level_names": ["empty", "1", "2", "3+"],
            "hysteresis_fraction": frac,
            "boundaries": boundaries,
        },
        "neighbours": {
            "about": "reading[i] += colour_sign(j) * kernels[k].counts[n_j - 1] for each (j, k) in slots[i]",
            "kernels": kernels,
            "slots": flat,
            "min_counts": min_counts,
            "worst_case_counts": r1(max(worst)),
            "ignored_worst_case_counts": r1(max(ignored)),
            "four_at_pitch_counts": r1(four),
        },
        "tolerance": {
            "height_mm": tol,
            "one_checker_counts_at_height": {
                "low": r1(field.bz(1, [0.0], h0 - tol)[0] * cpm),
                "nominal": r1(stack_counts[1]),
                "high": r1(field.bz(1, [0.0], h0 + tol)[0] * cpm),
            },
            "lateral_offsets_mm": offsets,
            "counts_at_offset": {"1": by_offset[0], "2": by_offset[1], "3": by_offset[2]},
            "max_reading_mT": round(max_reading_mT, 2),
            "linear_range_mT": sens["linear_range_mT"],
        },
        "geometry": geo,
    }


def dumps(table):
    """Stable text: one line per short list so the file diffs well."""

    def dump(o, ind):
        sp = "  " * ind
        flat = json.dumps(o)
        if not isinstance(o, (dict, list)) or len(flat) + len(sp) < 96:
            return flat
        if isinstance(o, dict):
            items = [sp + "  " + json.dumps(k) + ": " + dump(v, ind + 1) for k, v in o.items()]
            return "{\n" + ",\n".join(items) + "\n" + sp + "}"
        return "[\n" + ",\n".join(sp + "  " + dump(v, ind + 1) for v in o) + "\n" + sp + "]"

    return dump(table, 0) + "\n"


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description="write or check hardware/field_table.json")
    ap.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    ap.add_argument("--geometry", default=hwspec.GEOMETRY)
    ap.add_argument("--table", default=hwspec.FIELD_TABLE)
    args = ap.parse_args(argv)
    geo = hwspec.load_geometry(args.geometry)
    table = compute(geo)
    text = dumps(table)
    if args.check:
        try:
            with open(args.table) as f:
                old = f.read()
        except OSError:
            old = ""
        if old != text:
            print("field_table.json is stale relative to geometry.json / field_model.py: run `make hardware-update`")
            return 1
        print("field table: fresh (geometry %s)" % table["geometry_sha256"][:12])
        return 0
    with open(args.table, "w") as f:
        f.write(text)
    s = table["stack"]["counts"]
    print("field table: 1/2/3/4 checkers = %s counts; neighbours up to %s counts" % (s[1:], table["neighbours"]["worst_case_counts"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
