# The stress soak's table (issue 16): matches on virtual boards built from real parts, per
# condition: matches finished, games, plays, wrong commits, restore requests (`make bench`),
# sensors found dead from play (`dead`), sensors ignored at the end (`untrusted`: faulty at
# calibration or found dead) and of those, sensors that were not broken (`live`: mistakes).
# Run under the MicroPython unix port with a Pico-sized heap; STRESS_MATCHES in the
# environment (CPython) or argv[1] sets the matches per condition.
import sys
import time

from sim.stress import CONDITIONS, HEADER, run

MATCHES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
ONLY = sys.argv[2] if len(sys.argv) > 2 else ""


def main():
    print("stress soak: %d five-point matches per condition, clumsy hands" % MATCHES)
    print(HEADER)
    for cond in CONDITIONS:
        if ONLY and ONLY not in cond[0]:
            continue
        t0 = time.time()
        tally = run(cond, list(range(1, MATCHES + 1)))
        print(tally.row() + "  %ds" % (time.time() - t0))
        if tally.example is not None:
            print("    wrong commit, e.g. %r" % (tally.example,))


main()
