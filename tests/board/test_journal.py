# The journal of committed events on flash (board.journal): appends, since, recovery,
# compaction, the size bound, damaged files, and a power cut at every step of a run.
# Runs under pytest and under MicroPython (tests/core/run_mpy.py): files go to a fresh
# folder under /tmp, removed afterwards.
import os
import random
import time

from board.journal import Journal, Resync
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from faulty_storage import FaultyStorage, PowerCut


def raises(exc_type, fn, *args, **kwargs):
    """support.raises without importing support: that pulls in bgcore (about 75 KB of the
    160 KB heap), which the journal does not need."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (fn, exc_type.__name__))


def _clear(path):
    for name in os.listdir(path):
        os.remove(path + "/" + name)


def _event(i):
    """The event a test appends as the i-th (its seq is i in a fresh journal)."""
    return {"t": "play", "n": i, "m": [[i % 24, (i * 7) % 24]], "who": "w" if i % 2 else "b"}


def _state(k):
    """The game state after events 1..k: what a snapshot must say."""
    return {"applied": k, "sum": k * (k + 1) // 2, "pos": "4HPwATDgc/ABMA"}


def _strip(ev):
    ev = dict(ev)
    del ev["seq"]
    return ev


def _check_events(events, first, last):
    """events (any iterable, read once: a journal's answer is a stream, which a board never
    holds whole either) are exactly the events first..last."""
    want = first
    for e in events:
        assert e["seq"] == want, (e, want)
        assert _strip(e) == _event(want)
        want += 1
    assert want == last + 1, (want, last)


def _raw(path, name="journal"):
    f = open(path + "/" + name, "rb")
    try:
        return f.read()
    finally:
        f.close()


def _put(path, data, name="journal"):
    f = open(path + "/" + name, "wb")
    try:
        f.write(data)
    finally:
        f.close()


def test_append_since_last_seq():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d))
        assert j.status == "new" and j.last_seq == 0 and j.first_seq == 1
        assert list(j.since(0)) == []
        for i in range(1, 6):
            assert j.append(_event(i)) == i
        assert j.last_seq == 5
        _check_events(list(j.since(0)), 1, 5)
        _check_events(list(j.since(3)), 4, 5)
        assert list(j.since(5)) == []
        _check_events(list(j.since(1, 2)), 2, 3)  # at most limit events
        e = raises(Resync, j.since, 6)  # newer than the board knows: another history
        assert e.first == 1 and e.last == 5
        raises(Resync, j.since, -1)
        snap, events = j.recover()
        assert snap is None
        _check_events(list(events), 1, 5)
    finally:
        rmtree(d)


def test_reopen_after_clean_shutdown():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(d)  # a folder name is enough
        for i in range(1, 4):
            j.append(_event(i))
        ident = j.id
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.last_seq == 3 and j.id == ident
        assert j.append(_event(4)) == 4
        j = Journal(FlashStorage(d))
        _check_events(list(j.since(0)), 1, 4)
        assert sorted(os.listdir(d)) == ["journal"]
    finally:
        rmtree(d)


def test_event_checks():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), max_bytes=1000)
        raises(ValueError, j.append, {"seq": 3})
        raises(ValueError, j.append, {"t": "x" * 300})  # more than a quarter of the budget
        raises(TypeError, j.append, {"t": object()})
        assert j.last_seq == 0
        assert j.append({"t": "ünïcode\nline", "l": [1, [2, {"a": None}]], "b": True}) == 1
        j = Journal(FlashStorage(d), max_bytes=1000)
        ev = list(j.since(0))[0]
        assert ev == {"t": "ünïcode\nline", "l": [1, [2, {"a": None}]], "b": True, "seq": 1}
    finally:
        rmtree(d)


def test_compact_recover_and_resync():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), keep=3)
        for i in range(1, 11):
            j.append(_event(i))
        j.compact(_state(10))
        assert j.base_seq == 10 and j.first_seq == 8 and j.last_seq == 10
        for i in range(11, 13):
            j.append(_event(i))
        for jj in (j, Journal(FlashStorage(d), keep=3)):
            snap, events = jj.recover()
            assert snap == _state(10)
            _check_events(list(events), 11, 12)
            _check_events(list(jj.since(7)), 8, 12)  # the kept tail still answers
            e = raises(Resync, jj.since, 6)
            assert e.first == 8 and e.last == 12
            raises(Resync, jj.since, 0)
        # keep=0: only the snapshot
        j.compact(_state(12))
        j = Journal(FlashStorage(d), keep=0)
        j.compact(_state(12))
        assert j.first_seq == 13 and list(j.since(12)) == []
        snap, events = j.recover()
        assert snap == _state(12) and list(events) == []
        assert j.append(_event(13)) == 13
    finally:
        rmtree(d)


def test_compaction_keeps_only_what_fits():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), max_bytes=1000, keep=100)
        for i in range(1, 9):
            j.append(_event(i))
        j.compact(_state(8))
        assert j.size <= 500 and j.first_seq > 1  # half the budget, newest events first
        _check_events(list(j.since(j.first_seq - 1)), j.first_seq, 8)
        raises(ValueError, j.compact, {"big": "x" * 600})  # a snapshot over half the budget
        assert Journal(FlashStorage(d), max_bytes=1000).recover()[0] == _state(8)
    finally:
        rmtree(d)


def test_size_bounded_over_thousands_of_events():
    d = tmpdir("bgboard-journal")
    try:
        st = FlashStorage(d)
        state = {"k": 0}
        j = Journal(st, keep=128, snapshot=lambda: _state(state["k"]))
        biggest = 0
        compactions = 0
        n = 3000
        for i in range(1, n + 1):
            state["k"] = i  # the event is applied before append: the snapshot includes it
            base = j.base_seq
            assert j.append(_event(i)) == i
            if j.base_seq != base:
                compactions += 1
            size = st.size("journal")
            assert size == j.size
            biggest = max(biggest, size)
        assert biggest <= 32768, biggest
        assert compactions >= 10
        assert j.compact_error is None
        # a host that is at most keep events behind can read on
        _check_events(j.since(n - 128), n - 127, n)
        raises(Resync, j.since, 1)
        j = Journal(FlashStorage(d))
        snap, events = j.recover()
        assert snap is not None
        _check_events(list(events), snap["applied"] + 1, n)
        print("journal: %d events, %d compactions, largest file %d bytes (budget 32768)"
              % (n, compactions, biggest))
    finally:
        rmtree(d)


def test_no_callback_needs_compact_then_full():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), max_bytes=1000)
        i = 0
        while not j.needs_compact:
            i += 1
            j.append(_event(i))
        assert j.size > 750
        e = None
        while e is None:
            try:
                i += 1
                j.append(_event(i))
            except OSError as err:
                e = err
                i -= 1
        assert j.size <= 1000 and j.last_seq == i
        j.compact(_state(i))
        assert not j.needs_compact
        assert j.append(_event(i + 1)) == i + 1
    finally:
        rmtree(d)


def test_failing_snapshot_does_not_lose_the_event():
    d = tmpdir("bgboard-journal")
    try:
        def bad():
            raise RuntimeError("no state")

        j = Journal(FlashStorage(d), max_bytes=1000, snapshot=bad)
        for i in range(1, 15):
            assert j.append(_event(i)) == i
        assert isinstance(j.compact_error, RuntimeError)
        _check_events(list(Journal(FlashStorage(d), max_bytes=1000).since(0)), 1, 14)
    finally:
        rmtree(d)


def test_a_torn_tail_is_passed_over_and_ended_before_the_next_append():
    # A cut in an append (or an append that failed) leaves a part of its line: it never
    # held a committed event. The next append ends it (not with a bare newline: a line cut
    # just before its newline, line6[:-1], would then read as an intact event 5 again).
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d))
        for i in range(1, 6):
            j.append(_event(i))
        whole = _raw(d)
        line6 = whole[-(len(whole) // 6) :]  # about one line of bytes
        for torn in (b"1", b"0123abcd e6 {\"t\"", line6[:-1], b"\n", b"\x00\xff" * 40):
            _put(d, whole + torn)
            j = Journal(FlashStorage(d))
            ended = torn.endswith(b"\n")
            assert j.status == ("ok" if ended else "repaired") and j.dropped == 0, torn
            assert j.last_seq == 5
            _check_events(list(j.since(0)), 1, 5)
            assert j.append(_event(6)) == 6
            assert _raw(d).startswith(whole + torn + (b"" if ended else b"!\n"))
            j = Journal(FlashStorage(d))
            assert j.status == "ok" and j.size == len(_raw(d))
            _check_events(list(j.since(0)), 1, 6)
    finally:
        rmtree(d)


def test_corrupt_line_in_the_middle():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d))
        for i in range(1, 6):
            j.append(_event(i))
        whole = _raw(d)
        lines = whole.split(b"\n")
        at = whole.index(lines[3])  # event 3: three bytes (one flipped bit is corrected)
        flipped = whole[: at + 20] + b"###" + whole[at + 23 :]
        _put(d, flipped)
        old = j.id
        j = Journal(FlashStorage(d))
        assert j.status == "repaired" and j.last_seq == 5
        served = list(j.since(0))
        _check_events(served[:2], 1, 2)
        # Events 3..5 were committed (a host may have them): the journal keeps its id, a gap
        # stands for them (undone: the board is back to the state after 2), and the next
        # event is 6, so they are never taken for new ones; it says what was lost.
        assert served[2:] == [{"lost": [3, 5], "undone": True}]
        assert j.id == old and j.lost == (3, 5) and j.undone
        assert j.kept == "journal.bad" and _raw(d, "journal.bad") == flipped
        assert j.append(_event(6)) == 6
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.lost is None and j.kept is None and j.last_seq == 6
    finally:
        rmtree(d)


def test_lost_events_under_the_snapshot():
    # The snapshot is intact but events it covers are damaged: resume from the snapshot.
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), keep=5)
        for i in range(1, 9):
            j.append(_event(i))
        j.compact(_state(8))
        whole = _raw(d)
        _put(d, whole[:-30])
        j = Journal(FlashStorage(d), keep=5)
        assert j.status == "repaired" and j.last_seq == 8 and j.first_seq == 4
        assert j.lost == (8, 8) and not j.undone  # the snapshot holds what 8 did
        snap, events = j.recover()
        assert snap == _state(8) and list(events) == []
        assert j.append(_event(9)) == 9
    finally:
        rmtree(d)


def test_garbage_starts_empty_with_status():
    d = tmpdir("bgboard-journal")
    try:
        rng = random.getrandbits
        garbage = [
            b"",
            b"hello world\n",
            b"\n\n\n",
            bytes([rng(8) for _ in range(3000)]),
            b"{\"seq\": 1}\n" * 50,
            b"00000000 h {}\n",
        ]
        # a header with a good checksum but nonsense fields
        _clear(d)  # (a damaged header with intact events after it: test_journal_damage)
        from board.journal_codec import encode

        garbage.append(encode("h", {"id": 1, "base": 3, "first": 9, "snap": None}))
        garbage.append(encode("h", [1, 2]))
        garbage.append(encode("e1", {"id": 1, "base": 0, "first": 1, "snap": None}))
        for g in garbage:
            _clear(d)
            _put(d, g)
            j = Journal(FlashStorage(d))
            assert j.status == "corrupt" and j.last_seq == 0, (g[:40], j.status)
            assert _raw(d, "journal.bad") == g  # kept for a post-mortem
            snap, events = j.recover()
            assert snap is None and list(events) == []
            assert j.append(_event(1)) == 1
            assert Journal(FlashStorage(d)).status == "ok"
    finally:
        rmtree(d)


def test_leftover_rewrite_is_removed():
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d))
        j.append(_event(1))
        _put(d, b"half a compaction", "journal.new")
        j = Journal(FlashStorage(d))
        assert j.status == "ok" and j.last_seq == 1
        assert sorted(os.listdir(d)) == ["journal"]
    finally:
        rmtree(d)


# -- power cuts -------------------------------------------------------------------------
_CUT_MAX = 900
_CUT_KEEP = 3


def _run(storage, log):
    """A board's life: create, appends with automatic compactions, an explicit compaction,
    a restart, more appends. log: seqs whose append returned, compactions begun."""
    state = {"k": 0}

    def snapshot():
        log["snaps"].append(state["k"])
        return _state(state["k"])

    j = Journal(storage, max_bytes=_CUT_MAX, keep=_CUT_KEEP, snapshot=snapshot)
    for i in range(1, 17):
        state["k"] = i
        log["trying"] = i
        assert j.append(_event(i)) == i
        log["done"] = i
    log["snaps"].append(16)
    j.compact(_state(16))
    j = Journal(storage, max_bytes=_CUT_MAX, keep=_CUT_KEEP, snapshot=snapshot)
    assert j.last_seq == 16
    for i in range(17, 20):
        state["k"] = i
        log["trying"] = i
        assert j.append(_event(i)) == i
        log["done"] = i


def _verify_after_cut(d, log, max_bytes=_CUT_MAX):
    j = Journal(FlashStorage(d), max_bytes=max_bytes, keep=_CUT_KEEP)
    assert j.status in ("ok", "repaired", "new"), j.status
    assert j.status != "new" or log["done"] == 0
    last = j.last_seq
    # every append that returned is there, at most the one in flight besides
    assert log["done"] <= last <= log["trying"], (log, last)
    snap, events = j.recover()
    base = j.base_seq
    if snap is None:
        assert base == 0
    else:  # the old or the new snapshot, whole and matching its seq
        assert base in log["snaps"] and snap == _state(base), (base, snap)
    _check_events(list(events), base + 1, last)
    _check_events(list(j.since(j.first_seq - 1)), j.first_seq, last)
    # the numbering goes on without a gap or a duplicate
    assert j.append(_event(last + 1)) == last + 1
    j = Journal(FlashStorage(d), max_bytes=max_bytes, keep=_CUT_KEEP)
    assert j.status == "ok" and j.last_seq == last + 1
    _check_events(list(j.since(j.first_seq - 1)), j.first_seq, last + 1)
    assert sorted(os.listdir(d)) == ["journal"]


def _new_log():
    return {"done": 0, "trying": 0, "snaps": [0]}


def test_power_cut_at_every_step():
    d = tmpdir("bgboard-journal")
    try:
        clean = FaultyStorage(d)
        log = _new_log()
        _run(clean, log)
        total = clean.steps
        compactions = len(log["snaps"]) - 1
        assert compactions >= 3, log  # automatic ones and the explicit one
        t0 = time.time()
        for n in range(total + 1):
            _clear(d)
            log = _new_log()
            cut = False
            try:
                _run(FaultyStorage(d, cut_at=n), log)
            except PowerCut:
                cut = True
            assert cut == (n < total), n
            _verify_after_cut(d, log)
        print("power cut at %d steps (%d compactions) in %.1f s"
              % (total + 1, compactions, time.time() - t0))
    finally:
        rmtree(d)


def test_power_cut_while_ending_a_torn_tail():
    # The torn line is ended by the next append: a cut at any step of that append (in the
    # mend or in the line after it) leaves a journal that still reads and goes on.
    d = tmpdir("bgboard-journal")
    try:
        j = Journal(FlashStorage(d), max_bytes=_CUT_MAX, keep=_CUT_KEEP)
        for i in range(1, 7):
            j.append(_event(i))
        torn = _raw(d) + b"0badc0de e7 {\"t\": \"pl"
        clean = FaultyStorage(d)
        _put(d, torn)
        Journal(clean, max_bytes=_CUT_MAX, keep=_CUT_KEEP).append(_event(7))
        total = clean.steps
        assert total > 2
        for n in range(total + 1):
            _clear(d)
            _put(d, torn)
            try:
                Journal(FaultyStorage(d, cut_at=n), max_bytes=_CUT_MAX,
                        keep=_CUT_KEEP).append(_event(7))
                done = 7
            except PowerCut:
                assert n < total
                done = 6
            _verify_after_cut(d, {"done": done, "trying": 7, "snaps": [0]})
    finally:
        rmtree(d)


def test_every_damaged_journal_is_kept_under_a_name_of_its_own():
    d = tmpdir("bgboard-journal")
    try:
        ids = []
        for k in range(3):
            garbage = b"damage %d \xfe\n" % k
            _put(d, garbage)
            j = Journal(FlashStorage(d))
            assert j.status == "corrupt" and j.kept == ("journal.bad-%d" % (k + 1) if k
                                                      else "journal.bad")
            ids.append(j.id)
        assert _raw(d, "journal.bad") == b"damage 0 \xfe\n"
        assert _raw(d, "journal.bad-2") == b"damage 1 \xfe\n"
        assert _raw(d, "journal.bad-3") == b"damage 2 \xfe\n"
        assert len(set(ids)) == 3  # each restart of the journal has an id of its own
        assert Journal(FlashStorage(d)).kept is None
    finally:
        rmtree(d)


def test_power_cut_while_setting_a_corrupt_journal_aside():
    d = tmpdir("bgboard-journal")
    try:
        garbage = b"\x00\x01 not a journal \xfe\n" * 20
        clean = FaultyStorage(d)
        _put(d, garbage)
        Journal(clean, max_bytes=_CUT_MAX)
        total = clean.steps
        for n in range(total + 1):
            _clear(d)
            _put(d, garbage)
            try:
                Journal(FaultyStorage(d, cut_at=n), max_bytes=_CUT_MAX)
            except PowerCut:
                assert n < total
            j = Journal(FlashStorage(d), max_bytes=_CUT_MAX)
            # set aside but no new journal yet: "new"; nothing done yet: "corrupt" again
            assert j.status == ("ok" if n == total else "corrupt" if n == 0 else "new")
            assert j.last_seq == 0
            assert _raw(d, "journal.bad") == garbage
            assert j.append(_event(1)) == 1
            assert Journal(FlashStorage(d), max_bytes=_CUT_MAX).last_seq == 1
    finally:
        rmtree(d)


def test_flash_storage():
    d = tmpdir("bgboard-journal")
    try:
        st = FlashStorage(d + "/")
        assert st.read("a") is None and st.size("a") is None
        st.write("a", b"one")
        st.append("a", b"+two")
        assert st.read("a") == b"one+two" and st.size("a") == 7
        st.write("a", b"three")  # replaces whole
        st.rename("a", "b")
        assert st.read("b") == b"three" and st.read("a") is None
        st.write("c", b"x")
        st.rename("c", "b")  # replaces
        assert st.read("b") == b"x" and sorted(st.names()) == ["b"]
        st.remove("b")
        st.remove("b")  # already gone: fine
        assert st.names() == []
        # write is atomic: a cut at any step leaves the old or the new data
        st.write("f", b"old data")
        clean = FaultyStorage(d)
        clean.write("f", b"new data!")
        for n in range(clean.steps + 1):
            st.write("f", b"old data")
            try:
                FaultyStorage(d, cut_at=n).write("f", b"new data!")
            except PowerCut:
                pass
            assert st.read("f") in (b"old data", b"new data!")
            st.remove("f.tmp")
        sub = FlashStorage(d + "/sub")  # the root folder is made if missing
        sub.write("x", b"1")
        assert sub.read("x") == b"1"
        sub.remove("x")
        os.rmdir(d + "/sub")
    finally:
        rmtree(d)
