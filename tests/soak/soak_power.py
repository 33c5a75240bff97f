# Power cuts in whole matches played by clumsy simulated hands on the MicroPython unix port:
# after each cut the board must come back at its last committed event, read from its journal
# on disk. Each life of the board between two cuts is an interpreter of its own with the
# same heap (power_life.py): the RAM goes with the power, as on a device.
#
# The heap is 168K (Makefile), about a Pico's on this 64-bit port (where code and objects take about
# 1.6 times what they take on the RP2040).
import os
import sys

from board_support import rmtree, tmpdir

CUT_SEEDS = range(101, 113)  # 12 five-point matches with a cut in about one play in eight
CUT = 3


def _lives(seed, path, heap):
    command = "%s -X heapsize=%s -m power_life %d %s" % (sys.executable, heap, seed, path)
    for lives in range(1, 500):
        status = os.system(command)
        status = status >> 8 if status > 255 else status  # a wait status on this port
        if status == 0:
            return lives
        assert status == CUT, "match %d: the board failed (exit %d)" % (seed, status)
    raise AssertionError("match %d: no end after 500 power cuts" % seed)


def test_power_cuts_resume_at_the_last_committed_event():
    import json

    heap = os.getenv("BGBOARD_HEAP") or "168K"
    cuts = games = 0
    for seed in CUT_SEEDS:
        path = tmpdir("bgboard-soak")
        try:
            lives = _lives(seed, path, heap)
            with open(path + "/world.json") as f:
                tally = json.load(f)
        finally:
            rmtree(path)
        what = "match %d with power cuts" % seed
        assert tally["cuts"] == lives - 1, (what, tally["cuts"], lives)
        assert not tally["mismatches"], "%s: board committed other plays: %r" % (
            what, tally["mismatches"])
        assert tally["stuck"] == 0, "%s: board disagreed with the hands %d times" % (
            what, tally["stuck"])
        assert tally["resumed_wrong"] == 0, "%s: %d restarts did not resume where the " \
                                            "journal ended" % (what, tally["resumed_wrong"])
        cuts += tally["cuts"]
        games += tally["games"]
    assert cuts >= 50, cuts
    print("power cuts: %d in %d games, each resumed at the last committed event in a fresh "
          "interpreter" % (cuts, games))
