# One life of the board between two power cuts, in an interpreter of its own (started by
# soak_power.py): a device's RAM goes with its power, so every restart boots the firmware on
# a fresh heap of the same size, resumes from the journal on disk and plays on until the next
# cut. What lives outside the board (the checkers on the table, the players' and the dice's
# random state, the clock, the tally) is kept in world.json beside the journal.
#
# The simulated physical board (sim.world) is built first, then the firmware is loaded and
# boots: a device's heap holds no simulation, so the simulation's buffers must not take the
# pieces of heap the firmware needs once the imports have fragmented it.
#
# usage: micropython -X heapsize=H -m power_life SEED DIR
# Exit status: 0 the match is over, CUT the power was cut (world.json saved), else a failure.
import binascii
import json
import sys

from sim.world import World

CUT = 3
MATCH = 5  # points
TALLY = ("cuts", "games", "plays", "stuck", "resumed_wrong", "mismatches")


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


def _cut(ap):
    ap.cuts += 1
    save_world(ap)
    sys.exit(CUT)


def live(seed, path):
    physical = World(seed)

    from board.controller import IDLE
    from board.journal import Journal
    from board.storage import FlashStorage
    from sim.power_cuts import CuttingAutoplay
    from sim.virtual_board import VirtualBoard

    def journal():
        return Journal(FlashStorage(path), max_bytes=8192, keep=32)

    try:
        with open(path + "/world.json") as f:
            saved = json.load(f)
    except OSError:
        saved = None
    if saved is None:  # the first power-up: a new match
        vb = VirtualBoard(seed=seed, journal=journal(), world=physical)
        ap = CuttingAutoplay(vb, seed=seed, cut_pct=12, journal_factory=journal)
        vb.board.new_match(MATCH)
    else:
        vb = VirtualBoard(seed=seed, power=False, world=physical)
        ap = CuttingAutoplay(vb, seed=seed, cut_pct=12, journal_factory=journal)
        vb.clock.advance(saved["clock"])
        white, black = [binascii.unhexlify(side) for side in saved["table"]]
        vb.table.set_position(white, black)  # a checker in hand at the cut: in the tray
        vb.model.rng.state, vb.dice.state, vb.hands.rng.state, ap.rng.state = saved["random"]
        for name in TALLY:
            setattr(ap, name, saved[name])
        ap.committed = tuple(saved["committed"]) if saved["committed"] else None
        vb.power_up(journal)
        ap.check_resumed()
    ap.dir = path
    ap.power_cut = lambda: _cut(ap)  # instead of a restart in this interpreter
    steps = 0
    while vb.board.phase != IDLE:
        ap.step()
        steps += 1
        if steps > 100000:
            raise AssertionError("match %d does not end" % seed)
    save_world(ap)


if __name__ == "__main__":
    live(int(sys.argv[1]), sys.argv[2])
