# The archive of what the journal's compaction drops (board.archive): since() answers from
# the first event of the day, the host's ack frees it, a full archive refuses instead of
# forgetting, a failed write or a power cut at any step loses and duplicates nothing, and an
# archive its journal no longer continues is kept aside. CPython and MicroPython alike.
import os

from board.archive import Archive
from board.journal import Journal, Resync
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from faulty_storage import FailingStorage, FaultyStorage, PowerCut
from sim.rng import Rng

from test_journal import _check_events, _event, _state, _strip, raises

MAX = 2000  # the journal's budget: compacts about every 20 events
KEEP = 4


def _open(storage, archive_bytes=60000):
    j = Journal(storage, max_bytes=MAX, keep=KEEP)
    j.snapshot = lambda: _state(j.last_seq)
    Archive(j, archive_bytes)
    return j


def _check_stream(events, first, last):
    # As _check_events, one event at a time: a day's events would not fit a device's heap.
    seq = first - 1
    for e in events:
        seq += 1
        assert e["seq"] == seq and _strip(e) == _event(seq), (seq, e)
    assert seq == last, (seq, last)


def _play(j, upto):
    while j.last_seq < upto:
        j.append(_event(j.last_seq + 1))


def test_every_event_since_the_first_is_kept_across_compactions_and_reopening():
    d = tmpdir("bgboard-archive")
    try:
        j = _open(FlashStorage(d))
        _play(j, 300)
        assert j.base_seq > 250 and j.size <= MAX  # the journal stays short
        for jj in (j, _open(FlashStorage(d))):
            assert jj.first_seq == 1
            _check_stream(jj.since(0), 1, 300)
            _check_events(list(jj.since(137, 5)), 138, 142)  # pages, across the seam
            seam = jj.archive.last_seq
            _check_events(list(jj.since(seam - 2, 4)), seam - 1, seam + 2)
        assert sorted(os.listdir(d)) == ["journal", "journal.arc"]
    finally:
        rmtree(d)


def test_the_hosts_ack_frees_the_archive_and_only_up_to_what_it_has():
    d = tmpdir("bgboard-archive")
    try:
        j = _open(FlashStorage(d))
        _play(j, 200)
        before = j.archive.size
        j.archive.trim(150)
        assert j.first_seq == 151 and j.archive.size < before / 3
        _check_events(list(j.since(150)), 151, 200)
        e = raises(Resync, j.since, 149)
        assert (e.first, e.last) == (151, 200)
        j.archive.trim(120)  # an old ack changes nothing
        assert j.first_seq == 151
        j.archive.trim(200)  # all of it: the archive is empty, the journal answers alone
        assert j.archive.last_seq < j.archive.first_seq and j.first_seq == j.archive.first_seq
        _play(j, 260)  # and the archive goes on from where the journal drops
        j = _open(FlashStorage(d))
        _check_events(list(j.since(j.first_seq - 1)), j.first_seq, 260)
        assert j.first_seq <= 201
    finally:
        rmtree(d)


def test_a_full_archive_refuses_to_drop_events_and_takes_them_once_the_host_has_some():
    d = tmpdir("bgboard-archive")
    try:
        j = _open(FlashStorage(d), archive_bytes=6000)
        assert not j.archive.full
        while j.compact_error is None:
            j.append(_event(j.last_seq + 1))
        assert j.compact_error.args[0] == 28 and "archive is full" in str(j.compact_error)
        assert j.archive.full  # a new match is refused long before (board.controller)
        while True:  # the journal then fills: nothing is dropped unseen
            try:
                j.append(_event(j.last_seq + 1))
            except OSError as e:
                assert e.args[0] == 28
                break
        last = j.last_seq
        _check_stream(j.since(0), 1, last)
        j.archive.trim(last - 10)  # the host comes and takes them
        j.compact(_state(last))  # as the board does before its next event (controller)
        assert j.append(_event(last + 1)) == last + 1
        assert not j.archive.full
        _check_events(list(j.since(last - 10)), last - 9, last + 1)
    finally:
        rmtree(d)


def test_failed_writes_lose_and_duplicate_nothing():
    d = tmpdir("bgboard-archive")
    try:
        st = FailingStorage(d, Rng(7), 2500)
        j = _open(st)
        stored = 0
        while stored < 400:
            try:
                if j.needs_compact:  # as the board does before an event (controller)
                    j.compact(_state(j.last_seq))
                stored = j.append(_event(j.last_seq + 1))
            except OSError:
                pass  # the board refuses the action; the player tries again
        assert st.failures > 10, st.failures
        assert sorted(os.listdir(d)) == ["journal", "journal.arc"]  # a failed write is no damage
        for jj in (j, _open(FlashStorage(d))):
            _check_stream(jj.since(0), 1, 400)
    finally:
        rmtree(d)


def _run(storage, log):
    j = _open(storage, archive_bytes=8000)
    while log["done"] < 70:
        log["trying"] = j.last_seq + 1
        log["done"] = j.append(_event(j.last_seq + 1))
    j.archive.trim(30)
    log["acked"] = 30
    _play(j, 90)


def test_a_power_cut_at_any_step_loses_and_duplicates_nothing():
    d = tmpdir("bgboard-archive")
    try:
        clean = FaultyStorage(d)
        _run(clean, {"done": 0})
        total = clean.steps
        for n in range(0, total + 1, 7):  # every 7th step: bytes, renames, removes
            for name in os.listdir(d):
                os.remove(d + "/" + name)
            log = {"done": 0, "trying": 0, "acked": 0}
            try:
                _run(FaultyStorage(d, cut_at=n), log)
            except PowerCut:
                pass
            j = _open(FlashStorage(d), archive_bytes=8000)
            last = j.last_seq
            assert log["done"] <= last <= max(log["trying"], 90), (n, log, last)
            first = j.first_seq
            assert first == 1 or (log["acked"] and first <= 31), (n, first)
            _check_stream(j.since(first - 1), first, last)
            assert j.append(_event(last + 1)) == last + 1
        print("archive: power cut at %d of %d steps" % (total // 7 + 1, total + 1))
    finally:
        rmtree(d)


def test_an_archive_its_journal_does_not_continue_is_kept_aside():
    d = tmpdir("bgboard-archive")
    try:
        j = _open(FlashStorage(d))
        _play(j, 100)
        archived = j.archive.last_seq
        j.set_aside()  # the journal would not replay: a new one, a new id
        assert j.first_seq == 1 and j.archive.kept == "journal.bad-2"
        assert sorted(os.listdir(d)) == ["journal", "journal.arc", "journal.bad",
                                         "journal.bad-2"]
        kept = Journal(FlashStorage(d), name="journal.bad-2")  # as `bgboard kept` reads it
        _check_events(list(kept.since(0)), 1, archived)
        _play(j, 50)
        j = _open(FlashStorage(d))
        assert j.archive.kept is None  # said once, at the start that found it
        _check_events(list(j.since(0)), 1, 50)
    finally:
        rmtree(d)

