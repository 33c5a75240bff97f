# Restart points (board.journal's "s" lines, written as each game begins): a damaged line
# (more than one flipped bit: test_journal_damage has those) costs the events up to the next
# restart point, never the games after it; the journal goes on from that point under the
# same id, a declared gap in place of the lost events, says what it lost and keeps the
# damaged file. CPython and MicroPython alike.
import os

from board.journal import Journal
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from faulty_storage import FailingStorage, FaultyStorage, FullFlash, PowerCut

from test_journal import _check_events, _clear, _event, _put, _raw, _state


def _flip(path, seq):
    # Three bytes of event seq's line overwritten (not one bit: that is corrected); returns
    # the damaged file.
    whole = _raw(path)
    at = whole.index(b" e%d {" % seq) + 12
    damaged = whole[:at] + b"###" + whole[at + 3:]
    _put(path, damaged)
    return damaged


def _day(storage):
    # Events 1..12, restart points after 5 and 9 (two games begin there).
    j = Journal(storage)
    for i in range(1, 13):
        j.append(_event(i))
        if i in (5, 9):
            j.mark(lambda: _state(i))
    return j


def test_a_damaged_line_costs_only_the_events_up_to_the_next_restart_point():
    d = tmpdir("bgboard-restart")
    try:
        old = _day(FlashStorage(d)).id
        damaged = _flip(d, 3)
        j = Journal(FlashStorage(d))
        assert j.status == "repaired" and j.lost == (3, 5) and j.id == old
        assert j.kept == "journal.bad" and _raw(d, "journal.bad") == damaged
        assert (j.first_seq, j.last_seq) == (1, 12)  # every later game's events stay
        served = list(j.since(0))
        assert served[2] == {"lost": [3, 5], "undone": False}  # 1, 2, the gap, 6..12
        _check_events(served[:2], 1, 2)
        _check_events(served[3:], 6, 12)
        snap, events = j.recover()
        assert snap == _state(5)  # the game after the damage resumes exactly
        _check_events(list(events), 6, 12)
        assert j.append(_event(13)) == 13
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.lost is None and j.last_seq == 13
    finally:
        rmtree(d)


def test_restart_points_are_passed_over_by_readers_and_dropped_by_compaction():
    d = tmpdir("bgboard-restart")
    try:
        j = _day(FlashStorage(d))
        assert j.size == len(_raw(d))
        assert _raw(d).count(b" s5 ") == 1 and _raw(d).count(b" s9 ") == 1
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.size == len(_raw(d))
        _check_events(list(j.since(0)), 1, 12)  # the host never sees them
        snap, events = j.recover()
        assert snap is None
        _check_events(list(events), 1, 12)
        j.compact(_state(12))
        assert b" s5 " not in _raw(d) and b" s9 " not in _raw(d)
        assert not j.mark(lambda: _state(12))  # after a compaction the header is the point
        assert b" s12 " not in _raw(d)
    finally:
        rmtree(d)


def test_damage_after_the_last_restart_point_cuts_off_the_rest_as_before():
    d = tmpdir("bgboard-restart")
    try:
        _day(FlashStorage(d))
        _flip(d, 11)
        j = Journal(FlashStorage(d))
        assert j.lost == (11, 12) and j.undone and j.last_seq == 12  # the next is 13
        snap, events = j.recover()
        assert snap is None
        _check_events(list(events), 1, 10)  # the state before the damage
    finally:
        rmtree(d)


def test_a_second_damage_after_a_restart_point_voids_it():
    d = tmpdir("bgboard-restart")
    try:
        _day(FlashStorage(d))
        _flip(d, 3)
        _flip(d, 7)  # events 6, 8.. follow the point at 5 with a gap: the one at 9 serves
        j = Journal(FlashStorage(d))
        assert j.lost == (3, 9) and (j.first_seq, j.last_seq) == (1, 12)
        assert j.recover()[0] == _state(9)
        _clear(d)
        _day(FlashStorage(d))
        for seq in (3, 7, 11):  # no point past the damage that every later event follows
            _flip(d, seq)
        j = Journal(FlashStorage(d))
        assert j.lost == (3, 12) and j.undone and j.last_seq == 12
        _check_events(list(j.recover()[1]), 1, 2)
    finally:
        rmtree(d)


def test_damage_under_the_snapshot_goes_on_from_the_snapshot_with_the_events_after_it():
    d = tmpdir("bgboard-restart")
    try:
        j = Journal(FlashStorage(d), keep=5)
        for i in range(1, 9):
            j.append(_event(i))
        j.compact(_state(8))  # events 4..8 stay for the host
        for i in range(9, 12):
            j.append(_event(i))
        _flip(d, 5)
        j = Journal(FlashStorage(d), keep=5)
        assert j.lost == (5, 8) and (j.first_seq, j.last_seq) == (4, 11)  # 4 still served
        snap, events = j.recover()
        assert snap == _state(8)
        _check_events(list(events), 9, 11)
    finally:
        rmtree(d)


def test_a_restart_point_that_fails_to_write_is_ended_and_passed_over():
    d = tmpdir("bgboard-restart")
    try:
        st = FailingStorage(d)
        j = Journal(st)
        for i in range(1, 6):
            j.append(_event(i))
        st.cut_at = st.steps + 25  # the flash fails in the middle of the line
        assert not j.mark(lambda: _state(5)) and st.failures == 1

        def no_heap():
            raise MemoryError("memory allocation failed")

        assert not j.mark(no_heap)  # a board short of heap goes on without the point
        for i in range(6, 9):
            j.append(_event(i))
        assert j.mark(lambda: _state(8))
        j.append(_event(9))
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.lost is None
        _check_events(list(j.since(0)), 1, 9)
        _flip(d, 2)
        j = Journal(FlashStorage(d))  # the whole restart point after 8 still serves
        assert j.lost == (2, 8) and j.recover()[0] == _state(8)  # the torn one was passed
    finally:
        rmtree(d)


def test_a_power_cut_at_any_step_leaves_a_journal_that_reads_whole():
    d = tmpdir("bgboard-restart")
    try:
        clean = FaultyStorage(d)
        _day(clean)
        total = clean.steps
        for n in range(0, total + 1, 3):
            for name in os.listdir(d):
                os.remove(d + "/" + name)
            try:
                _day(FaultyStorage(d, cut_at=n))
            except PowerCut:
                pass
            j = Journal(FlashStorage(d))
            assert j.lost is None, (n, j.lost)
            _check_events(list(j.since(0)), 1, j.last_seq)
            assert j.append(_event(j.last_seq + 1)) == j.last_seq
    finally:
        rmtree(d)


def _bad_files(path):
    return sorted(n for n in os.listdir(path) if ".bad" in n)


def test_a_damaged_journal_on_a_full_flash_opens_on_its_intact_events_and_leaves_no_copy():
    # Issue 29: App() raised OSError 28 from the repair's copy, and every boot left another
    # empty journal.bad-N. Now: nothing is copied or rewritten, the journal serves the
    # intact events before the damage, commits nothing, and says why.
    d = tmpdir("bgboard-restart")
    try:
        old = _day(FlashStorage(d)).id
        damaged = _flip(d, 7)
        for _ in range(2):  # two boots
            j = Journal(FullFlash(d))
            assert _bad_files(d) == [] and _raw(d) == damaged
            assert "flash is full" in j.unkept and j.id == old
            assert j.last_seq == 6
            snap, events = j.recover()
            _check_events(list(events), 1, 6)
            _check_events(list(j.since(0)), 1, 6)
            try:
                j.append(_event(7))
                raise AssertionError("committed on a full flash")
            except OSError as e:
                assert e.args[0] == 28
        # Room made (the junk removed): the next append repairs and commits.
        flash = FullFlash(d, room=16384)
        j = Journal(flash)
        assert j.unkept is None and j.kept == "journal.bad" and j.lost == (7, 9)
        assert _raw(d, "journal.bad") == damaged
        assert j.append(_event(13)) == 13
    finally:
        rmtree(d)


def test_a_repair_with_room_for_the_journal_but_not_its_copy_keeps_no_part_of_a_copy():
    d = tmpdir("bgboard-restart")
    try:
        _day(FlashStorage(d))
        _flip(d, 7)
        room = len(_raw(d)) - 100  # a copy needs all of it; the rewrite lacks 7..9 and s5
        j = Journal(FullFlash(d, room=room))
        assert _bad_files(d) == [] and j.kept is None
        assert "not kept: the flash is full" in j.unkept or "was not kept" in j.unkept
        assert j.lost == (7, 9) and (j.first_seq, j.last_seq) == (1, 12)
    finally:
        rmtree(d)


def test_the_journals_kept_aside_take_at_most_their_budget():
    # Never deleted, never past KEPT_BYTES: the oldest stay, a new one is not kept and the
    # journal says so (the host is told in hello's "unkept").
    from board.journal import KEPT_BYTES

    d = tmpdir("bgboard-restart")
    try:
        kept = []
        for _ in range(200):
            FlashStorage(d).remove("journal")
            _day(FlashStorage(d))
            _flip(d, 7)
            j = Journal(FlashStorage(d))
            if j.kept:
                kept.append(j.kept)
            else:
                assert "not kept" in j.unkept, j.unkept
                break
        else:
            raise AssertionError("every damaged journal kept: no budget")
        total = sum(os.stat(d + "/" + n)[6] for n in _bad_files(d))
        assert total <= KEPT_BYTES and len(_bad_files(d)) == len(kept) > 1
    finally:
        rmtree(d)
