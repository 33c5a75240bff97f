# Faults in whole matches on MicroPython's unix port with a Pico's heap (APP_HEAP, Makefile):
# clumsy simulated hands play while the flash fails writes at random. The board must never
# be ahead of its journal: each refused action is done again by the players, every play
# committed is the hands' play, and each event the host is told is the one on flash.
#
# The simulated world (sensors, checkers) of each match is built before the firmware is
# loaded, as in power_life.py: a device's heap holds no simulation.
import gc

from sim.world import World


def _replayed(path):
    # What a board powered up on this flash comes back to.
    from board.controller import Controller
    from board.journal import Journal
    from board.storage import FlashStorage
    from board_support import Dice
    from sim.sensor_model import SimClock

    again = Controller(SimClock(), Dice(), Journal(FlashStorage(path)), None, lambda m: None)
    again.resume()
    return again.snapshot()


def test_writes_failing_at_random_never_put_the_board_ahead_of_its_journal():
    # Matches by clumsy simulated hands while the flash fails a write every 1..8000 steps
    # (bytes, opens, renames) at random, compactions included: every refused action is
    # done again by the players, every play committed is the hands' play, and each event
    # the host is told is the one on flash, each once, in order.
    failures = events = 0
    for seed in (1, 2, 3):
        world = World(seed)
        from board.controller import IDLE
        from board.journal import Journal
        from board_support import check_autoplay, rmtree, tmpdir
        from faulty_storage import FailingStorage
        from sim.autoplay import Autoplay
        from sim.rng import Rng
        from sim.virtual_board import VirtualBoard

        path = tmpdir()
        try:
            storage = FailingStorage(path)
            journal = Journal(storage, max_bytes=8192, keep=32)  # compacts often
            vb = VirtualBoard(seed=seed, clumsy=15, journal=journal, world=world)
            ap = Autoplay(vb, seed=seed)
            told = [0]

            def tell(msg, watch=ap.on_message):
                if "ev" in msg:  # checked as it comes: the heap holds no list of them
                    assert msg["seq"] == told[0] + 1, (told[0], msg)
                    stored = next(journal.since(told[0]))
                    assert stored == msg, "seed %d: told %r, stored %r" % (seed, msg, stored)
                    told[0] += 1
                watch(msg)

            vb.emit = tell
            storage.rng = Rng(seed)
            storage.span = 8000
            storage._arm()
            while vb.board.match is None:  # the new match itself may fail to be stored
                try:
                    vb.board.new_match(3)
                except ValueError:
                    pass
            steps = 0
            while vb.board.phase != IDLE:
                ap.step()
                steps += 1
                assert steps < 20000, "match %d does not end" % seed
            check_autoplay(ap, "match %d" % seed)
            assert told[0] == journal.last_seq and journal.base_seq > 0  # it compacted
            assert vb.board.snapshot() == _replayed(path)
            failures += storage.failures
            events += told[0]
        finally:
            vb = ap = journal = world = None
            gc.collect()
            rmtree(path)
    assert failures >= 5, failures
    print("write ahead: %d events, %d failed writes in 3 matches, none of them seen in the "
          "journal" % (events, failures))
