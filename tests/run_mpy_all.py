"""Run test modules on the MicroPython unix port, one interpreter per file (as a device
would run one program), on bytecode compiled by mpy-cross. Prints one summary line in
pytest's words and exits non-zero on any failure or crash.

usage: run_mpy_all.py MICROPYTHON HEAPSIZE PATH[:PATH...] TEST_FILE[@HEAPSIZE]...
Files run two at a time (CI has two cores); FILE@HEAPSIZE gives a file its own heap.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run_file(micropython, path, f, size):
    """Run one test file at heap `size`: (passed, failed, the finished process); a module
    that crashed before its summary (e.g. MemoryError) counts one failure."""
    proc = subprocess.run(
        [micropython, "-X", "heapsize=" + size, "tests/core/run_mpy.py", f],
        # .frozen: asyncio and co.; BGBOARD_HEAP: for a test that starts interpreters itself
        env=dict(os.environ, MICROPYPATH=path + ":.frozen", BGBOARD_HEAP=size),
        capture_output=True, text=True,
    )
    m = re.search(r"micropython: (\d+) passed, (\d+) failed", proc.stdout)
    if not m:
        return 0, 1, proc
    failed = int(m.group(2))
    return int(m.group(1)), failed or (1 if proc.returncode else 0), proc


def main(argv):
    micropython, heap, path, files = argv[1], argv[2], argv[3], argv[4:]

    def run(arg):
        f, _, own = arg.partition("@")
        size = own or heap
        return (f, size) + run_file(micropython, path, f, size)

    passed = failed = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, files))
    for f, file_heap, ok, bad, proc in results:
        passed += ok
        failed += bad
        if bad:
            sys.stdout.write("--- %s (heap %s)\n%s%s" % (f, file_heap, proc.stdout, proc.stderr))
    print("micropython (heap %s): %d passed, %d failed" % (heap, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
