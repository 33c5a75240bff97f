"""Where the emulated Pico's time went: read the file BGBOARD_PICO_PROFILE made the emulator
write, name the sampled PCs by the firmware ELF's function symbols, print the table.

    python tests/bench/pico_profile.py PROFILE.json [ELF] [--top N]
"""

import argparse
import bisect
import json
import os
import sys

from bgboard.pico.stock import ELF_ENV, elf_symbols


def functions(path):
    """[(start, end, name)] of the ELF's function symbols, sorted."""
    return sorted((value & ~1, (value & ~1) + size, name)
                  for name, value, size, kind in elf_symbols(path) if kind == 2 and size)


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
    # The ELF is not kept in the repository (4.6 MB): the uf2's build, see
    # host/bgboard/pico/micropython-rp2/README.md.
    ap.add_argument("elf", nargs="?", default=os.environ.get(ELF_ENV),
                    help="the uf2's ELF (default: $%s)" % ELF_ENV)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    if not args.elf:
        ap.error("give the uf2's ELF (or set %s): micropython-1.28.0-rpi-pico.elf, built "
                 "as host/bgboard/pico/micropython-rp2/README.md says" % ELF_ENV)
    with open(args.profile) as f:
        print(table(json.load(f), args.elf, args.top))


if __name__ == "__main__":
    sys.exit(main())
