# One life of the board between two power cuts, in an interpreter of its own (started by
# soak_power.py): a device's RAM goes with its power, so every restart boots the firmware on
# a fresh heap of the same size, resumes from the journal on disk and plays on until the next
# cut. What lives outside the board (the checkers on the table, the players' and the dice's
# random state, the clock, the tally) is kept in world.json beside the journal.
#
# usage: micropython -X heapsize=H -m power_life SEED DIR
# Exit status: 0 the match is over, CUT the power was cut (world.json saved), else a failure.
import binascii
import json
import sys

# As a device boots: the sensing tables first, while the heap is still in one piece.
from board.sensing import default_field

default_field()

from board.journal import Journal  # noqa: E402
from board.storage import FlashStorage  # noqa: E402
from board.controller import IDLE  # noqa: E402
from sim.autoplay import Autoplay  # noqa: E402
from sim.virtual import VirtualBoard  # noqa: E402

CUT = 3
MATCH = 5  # points
TALLY = ("cuts", "games", "plays", "stuck", "resumed_wrong", "mismatches")


class Life(Autoplay):
    def power_cut(self):
        self.cuts += 1
        save_world(self)
        sys.exit(CUT)


def _hex(counts):  # a string: a list of 26 ints would take more heap than there is spare
    return binascii.hexlify(counts).decode()


def save_world(ap):
    vb = ap.vb
    world = {
        "clock": vb.clock.ticks_ms(),
        "table": [_hex(vb.table.count[0]), _hex(vb.table.count[1])],
        "random": [vb.model.rng.state, vb.dice.state, vb.hands.rng.state, ap.rng.state],
        "committed": ap.committed,
    }
    for name in TALLY:
        world[name] = getattr(ap, name)
    world["mismatches"] = world["mismatches"][:3]
    with open(ap.dir + "/world.json", "w") as f:
        json.dump(world, f)


def live(seed, path):
    def journal():
        return Journal(FlashStorage(path), max_bytes=8192, keep=32)

    try:
        with open(path + "/world.json") as f:
            world = json.load(f)
    except OSError:
        world = None
    if world is None:  # the first power-up: a new match
        vb = VirtualBoard(seed=seed, journal=journal())
        ap = Life(vb, seed=seed, cut_pct=12, journal_factory=journal)
        vb.board.new_match(MATCH)
    else:
        vb = VirtualBoard(seed=seed, power=False)
        ap = Life(vb, seed=seed, cut_pct=12, journal_factory=journal)
        vb.clock.advance(world["clock"])
        white, black = [binascii.unhexlify(side) for side in world["table"]]
        vb.table.set_position(white, black)  # a checker in hand at the cut: in the tray
        vb.model.rng.state, vb.dice.state, vb.hands.rng.state, ap.rng.state = world["random"]
        for name in TALLY:
            setattr(ap, name, world[name])
        ap.committed = tuple(world["committed"]) if world["committed"] else None
        vb.power_up(journal)
        ap.check_resumed()
    ap.dir = path
    steps = 0
    while vb.board.phase != IDLE:
        ap.step()
        steps += 1
        if steps > 100000:
            raise AssertionError("match %d does not end" % seed)
    save_world(ap)


if __name__ == "__main__":
    live(int(sys.argv[1]), sys.argv[2])
