"""Where the emulated Pico's time went: read the file BGBOARD_PICO_PROFILE made the emulator
write, name the sampled PCs by the firmware ELF's function symbols, print the table.

    python tests/bench/pico_profile.py PROFILE.json [ELF] [--top N]
"""

import argparse
import bisect
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ELF = os.path.join(HERE, "..", "..", "..", "shared", "pico",
                           "micropython-1.28.0-rpi-pico.elf")


def functions(path):
    """[(start, end, name)] of the ELF's FUNC symbols, sorted (32-bit little-endian ELF)."""
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1:
        raise ValueError("%s: not a 32-bit ELF" % path)
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize)
                for i in range(shnum)]
    out = []
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]][4]
        for at in range(sh[4], sh[4] + sh[5], 16):
            name, value, size, info = struct.unpack_from("<IIIB", elf, at)
            if info & 0xF == 2 and size:  # STT_FUNC
                end = elf.index(b"\0", strtab + name)
                start = value & ~1
                out.append((start, start + size, elf[strtab + name:end].decode()))
    out.sort()
    return out


def table(profile, elf, top=25):
    funcs = functions(elf)
    starts = [f[0] for f in funcs]
    counts = {}
    for pc, n in profile["pcs"].items():
        pc = int(pc)
        i = bisect.bisect_right(starts, pc) - 1
        name = funcs[i][2] if i >= 0 and pc < funcs[i][1] else "?%08x" % pc
        counts[name] = counts.get(name, 0) + n
    total = sum(counts.values()) or 1
    ns = profile["executed_ns"] + profile["delay_ns"] + profile["sleep_ns"] or 1
    lines = ["emulated %.1f s: executed %.1f%%, busy waits skipped %.1f%%, asleep %.1f%%"
             % (ns / 1e9, 100 * profile["executed_ns"] / ns, 100 * profile["delay_ns"] / ns,
                100 * profile["sleep_ns"] / ns)]
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1])[:top]:
        lines.append("%6.2f%%  %s" % (100 * n / total, name))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("elf", nargs="?", default=DEFAULT_ELF)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    with open(args.profile) as f:
        print(table(json.load(f), args.elf, args.top))


if __name__ == "__main__":
    sys.exit(main())
