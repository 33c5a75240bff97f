"""gnubg's post-match analysis time on this machine (`make bench`): a 1-point and a 3-point
match played against the engine by the simulated hands on the virtual board (`bgboard
engine --sim --autoplay --no-analysis --log`), then analysed as `bgboard analyse` does
(bgboard.analysis.analyse_file: gnubg's start, import, `analyse game` for each game at its
default analysis settings, the JSON and the HTML with its pictures)."""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from bgboard.analysis import analyse_file

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")
CASES = ((1, "3"), (3, "5"))  # (match length, seed)


def main():
    print("post-match analysis by gnubg (bgboard analyse; wall time on this machine):")
    for length, seed in CASES:
        folder = tempfile.mkdtemp(prefix="bgboard-bench-analysis-")
        try:
            subprocess.run([BGBOARD, "engine", "--sim", "--autoplay", "--seed", seed,
                            "--match", str(length), "--log", folder, "--no-analysis"],
                           check=True, capture_output=True)
            (mat,) = [f for f in os.listdir(folder) if f.endswith(".mat")]
            t0 = time.perf_counter()
            summary, _, _ = analyse_file(os.path.join(folder, mat))
            took = time.perf_counter() - t0
            moves = sum(p["moves"] for p in summary["players"])
            cube = sum(p["cube"]["decisions"] for p in summary["players"])
            print("  %d-point match (seed %s): %d game(s), %d plays, %d cube decisions: "
                  "%.1f s (%.0f ms a play)" % (length, seed, summary["games"], moves, cube,
                                               took, 1000 * took / max(moves, 1)))
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
