"""The least heap each MicroPython test file passes at (make bench): a measurement, not a
test. Each file is run as `make test-mpy` runs it (tests/run_mpy_all.py: one interpreter,
bytecode) at heaps found by bisection in 4K steps; prints the least that passed, the
budget it runs at in test-mpy and the margin between them, in KB of the 64-bit unix port
(about 1.6 times what the same objects take on a Pico).

usage: mpy_heaps.py MICROPYTHON BUDGET PATH[:PATH...] TEST_FILE[@BUDGET]...
(the arguments of a run_mpy_all.py line: the same files at the same budgets)
"""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from run_mpy_all import run_file  # noqa: E402

STEP = 4  # KB


def kb(size):
    size = size.upper()
    return int(size[:-1]) if size.endswith("K") else int(size) // 1024


def least_heap(micropython, path, test, budget):
    """The least heap in KB (a multiple of STEP) at which `test` passes, or None when it
    fails at twice its budget too."""
    def passes(k):
        return run_file(micropython, path, test, "%dK" % k)[1] == 0

    hi = budget
    if not passes(hi):
        hi = 2 * budget
        if not passes(hi):
            return None
    lo = 0  # fails (or is not worth trying): the answer lies in (lo, hi]
    while hi - lo > STEP:
        mid = (lo + hi) // 2 // STEP * STEP
        if mid <= lo:
            break
        if passes(mid):
            hi = mid
        else:
            lo = mid
    return hi


def main(argv):
    micropython, heap, path, files = argv[1], argv[2], argv[3], argv[4:]
    jobs = []
    for arg in files:
        f, _, own = arg.partition("@")
        jobs.append((f, kb(own or heap)))
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(lambda j: least_heap(micropython, path, j[0], j[1]), jobs))
    for (f, budget), least in zip(jobs, found):
        if least is None:
            print("%-44s fails at %dK and %dK" % (f, budget, 2 * budget))
        else:
            print("%-44s least %4dK  budget %4dK  margin %4dK (%2d%%)"
                  % (f, least, budget, budget - least, 100 * (budget - least) // budget))
    return 1 if None in found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
