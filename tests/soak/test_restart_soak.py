# A damaged line in whole matches (the unix port at APP_HEAP, Makefile): clumsy simulated hands
# play 3-point matches; then three bytes of an event in a game that is not the last are
# overwritten (one flipped bit is corrected). The board powered up again resumes exactly where
# the match stood (the damage costs the events up to the next game's restart point, not the
# games after it) under the same journal id, the events before the damage still served, and
# says which events it lost.
import gc

from sim.world import World


def _replayed(path):
    # What a board powered up on this flash comes back to, and its journal.
    from board.controller import Controller
    from board.journal import Journal
    from board.storage import FlashStorage
    from board_support import Dice
    from sim.sensor_model import SimClock

    journal = Journal(FlashStorage(path), max_bytes=131072)
    again = Controller(SimClock(), Dice(), journal, None, lambda m: None)
    again.resume()
    return again.snapshot(), journal


def _game_starts(path):
    # The seqs of the "game" events on flash, from the raw lines; and how many results and
    # ends of the match it holds.
    starts = []
    ends = [0, 0]
    f = open(path + "/journal", "rb")
    try:
        for line in f:
            if b'"ev": "game"' in line:
                starts.append(int(line[10:line.index(b" ", 10)]))
            ends[0] += b'"ev": "result"' in line
            ends[1] += b'"ev": "match_over"' in line
    finally:
        f.close()
    return starts, ends


def _flip(path, seq):
    # Three bytes of event seq's line, overwritten in place (the file would not fit the heap).
    tag = b" e%d {" % seq
    at = 0
    f = open(path + "/journal", "rb")
    try:
        for line in f:
            if tag in line:
                at += line.index(tag) + 12
                break
            at += len(line)
    finally:
        f.close()
    f = open(path + "/journal", "r+b")
    try:
        f.seek(at)
        f.write(b"###")  # three bytes: one flipped bit is corrected
    finally:
        f.close()


def test_a_damaged_line_costs_at_most_the_game_it_lies_in():
    recovered = 0
    for seed in (1, 2, 3, 4):
        world = World(seed)
        from board.controller import IDLE
        from board.journal import Journal
        from board.storage import FlashStorage
        from board_support import check_autoplay, rmtree, tmpdir
        from sim.autoplay import Autoplay
        from sim.virtual_board import VirtualBoard

        path = tmpdir()
        try:
            journal = Journal(FlashStorage(path), max_bytes=131072)  # never compacts here
            vb = VirtualBoard(seed=seed, clumsy=15, journal=journal, world=world)
            ap = Autoplay(vb, seed=seed)
            vb.board.new_match(3)
            while vb.board.phase != IDLE:
                ap.step()
            check_autoplay(ap, "match %d" % seed)
            final = vb.board.snapshot()
            last = journal.last_seq
            old = journal.id
            vb = ap = journal = None
            gc.collect()
            starts, ends = _game_starts(path)
            assert ends == [len(starts), 1], (seed, starts, ends)  # each game ends once
            if len(starts) < 2:
                continue  # one game: no later restart point to go on from
            hit = (starts[0] + starts[1]) // 2  # in the middle of the first game
            _flip(path, hit)
            state, journal = _replayed(path)
            assert journal.lost == (hit, starts[1]), (seed, journal.lost, starts)
            assert journal.id == old and journal.kept == "journal.bad"
            assert (journal.first_seq, journal.last_seq) == (1, last)
            assert state == final, "seed %d: the board did not resume where it stood" % seed
            recovered += 1
        finally:
            vb = ap = journal = world = None
            gc.collect()
            rmtree(path)
    assert recovered >= 2, recovered
    print("restart points: %d of 4 matches resumed exactly after a damaged line in their "
          "first game" % recovered)
