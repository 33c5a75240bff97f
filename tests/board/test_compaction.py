# The journal's compaction in steps (board.compaction, Journal.step: one step a turn of the
# board's loop): it writes what the compaction at once writes, keeps every event appended
# while it runs, reads and writes a few lines a step, survives a failed write or a power cut
# at any step, and gives way to the compaction at once. CPython and MicroPython alike.
import os

from board import compaction
from board.archive import Archive
from board.journal import STEPWISE, Journal
from board.journal_codec import CHUNK
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from faulty_storage import FailingStorage, FaultyStorage, Metered, PowerCut

from test_journal import _check_events, _event, _raw, _state, _verify_after_cut
from test_journal_damage import _served, _smash

MAX = 2000  # the journal's budget: steps from 1250 bytes, at once past 1500
KEEP = 4


def _open(storage, keep=KEEP, archive=60000):
    j = Journal(storage, max_bytes=MAX, keep=keep)
    j.snapshot = lambda: _state(j.last_seq)
    if archive:
        Archive(j, archive)
    return j


def _play(j, upto):
    while j.last_seq < upto:
        j.append(_event(j.last_seq + 1))


def _past_five_eighths(j):
    while j.size * 8 <= j.max_bytes * STEPWISE:
        j.append(_event(j.last_seq + 1))
    assert not j.needs_compact


def _copy(src, dst):
    # The same flash twice (the same journal id): one compacts at once, one in steps.
    for name in os.listdir(dst):
        os.remove(dst + "/" + name)
    for name in os.listdir(src):
        f = open(src + "/" + name, "rb")
        try:
            data = f.read()
        finally:
            f.close()
        f = open(dst + "/" + name, "wb")
        try:
            f.write(data)
        finally:
            f.close()


def _archived(d):
    # The archive's own events (as `bgboard log` would get them from it), first and last.
    arc = Journal(FlashStorage(d), max_bytes=60000, keep=0, name="journal.arc")
    seqs = [e["seq"] for e in arc.since(arc.first_seq - 1) if "seq" in e]
    return seqs[0], seqs[-1], len(seqs)


def _day(d):
    # A journal that has compacted at once before (an archive, a snapshot in its header),
    # now past 5/8 of its budget: where a compaction in steps begins.
    j = _open(FlashStorage(d))
    _play(j, 70)
    _past_five_eighths(j)
    assert j.base_seq > 0 and j.archive.last_seq > 0
    return j


def test_in_steps_it_writes_the_journal_and_archive_the_compaction_at_once_writes():
    a, b, c = tmpdir("bgboard-compact"), tmpdir("bgboard-compact"), tmpdir("bgboard-compact")
    try:
        ja = _day(a)
        _copy(a, c)  # the day, for the second round
        last = ja.last_seq
        _copy(a, b)
        jb = _open(FlashStorage(b))
        assert jb.id == ja.id and jb.last_seq == last
        ja.compact(_state(last))
        steps = 0
        while jb.step():
            steps += 1
            assert jb.compacting and jb.base_seq < last  # the old journal until the last step
        assert not jb.compacting and jb.compact_error is None and steps > 5
        print("%d bytes compacted in %d steps" % (ja.size, steps))
        assert jb.base_seq == last and jb.first_seq == 1
        assert _raw(a) == _raw(b) and _raw(a, "journal.arc") == _raw(b, "journal.arc")
        assert sorted(os.listdir(b)) == ["journal", "journal.arc"]

        # Again from the same day, events appended and restart points written between the
        # steps: they follow the snapshot taken when it began (the points left out, as at
        # once), and since() answers the same throughout.
        _copy(c, a)
        _copy(c, b)
        ja = _open(FlashStorage(a))
        jb = _open(FlashStorage(b))
        ja.compact(_state(last))
        turn = 0
        while jb.step():
            turn += 1
            if turn % 4 == 0:
                jb.append(_event(jb.last_seq + 1))
            if turn == 7:
                assert jb.mark(lambda: _state(jb.last_seq))
            _check_events(jb.since(0), 1, jb.last_seq)
        assert jb.compact_error is None and jb.base_seq == last and jb.last_seq >= last + 2
        _check_events(jb.since(0), 1, jb.last_seq)
        recovered, events = jb.recover()
        assert recovered == _state(last)
        _check_events(events, last + 1, jb.last_seq)
        _play(ja, jb.last_seq)
        assert _raw(a) == _raw(b) and _raw(a, "journal.arc") == _raw(b, "journal.arc")
        # The archive holds what was dropped, each event once, up to the journal's first.
        own = Journal(FlashStorage(b), max_bytes=MAX, keep=KEEP)
        first, end, n = _archived(b)
        assert first == 1 and end == own.first_seq - 1 and n == end
    finally:
        for d in (a, b, c):
            rmtree(d)


def test_a_declared_gap_is_archived_or_kept_as_at_once():
    # A gap a damaged line left (board.journal_repair) in the events the compaction drops
    # (keep 4) and in those it keeps (keep 40): the same files either way.
    a, b = tmpdir("bgboard-compact"), tmpdir("bgboard-compact")
    try:
        for keep in (KEEP, 40):
            for d in (a, b):
                for name in os.listdir(d):
                    os.remove(d + "/" + name)
            j = _open(FlashStorage(a), keep)
            _play(j, 30)
            _smash(a, 23)
            j = _open(FlashStorage(a), keep)
            assert j.lost is not None and j.last_seq == 30
            gap = b" g%d [%d, " % (j.lost[1], j.lost[0])
            _past_five_eighths(j)
            _copy(a, b)
            last = j.last_seq
            served = _served(j)
            assert ("lost", j.lost[0], j.lost[1], j.undone) in served
            j.compact(_state(last))
            jb = _open(FlashStorage(b), keep)
            while jb.step():
                assert _served(jb) == served
            assert jb.compact_error is None and jb.base_seq == last
            assert _served(jb) == served
            assert _raw(a) == _raw(b) and _raw(a, "journal.arc") == _raw(b, "journal.arc")
            assert (gap in _raw(b)) == (keep == 40) and (gap in _raw(b, "journal.arc")) == \
                (keep == KEEP)
    finally:
        rmtree(a)
        rmtree(b)


def test_each_step_reads_and_writes_a_few_lines():
    d, once = tmpdir("bgboard-compact"), tmpdir("bgboard-compact")
    try:
        _day(d)
        _copy(d, once)
        st = Metered(once)
        j = _open(st)
        st.reset()
        j.compact(_state(j.last_seq))
        at_once = st.bytes_read  # the compaction at once, in one call
        st = Metered(d)
        j = _open(st)
        size = j.size
        longest = st.longest("journal")
        bound = compaction.STEP_LINES * (2 * longest + CHUNK) + CHUNK  # a long line twice
        steps = read = 0
        while True:
            st.reset()
            going = j.step()
            assert st.opened <= 1, st.opened  # the journal, once
            assert st.bytes_read <= bound, (st.bytes_read, bound)
            assert st.lines <= compaction.STEP_LINES, st.lines
            steps += 1
            read += st.bytes_read
            if not going:
                break
            if steps % 4 == 0:
                j.append(_event(j.last_seq + 1))
        assert j.base_seq > 0 and j.compact_error is None
        # In all it reads the journal twice (once more what it drops) where the compaction
        # at once reads it four times, in a number of steps that grows with its lines.
        assert size < read < at_once * 2 // 3, (read, at_once)
        assert steps >= size // longest // compaction.STEP_LINES, steps
        print("compaction in steps: %d bytes in %d steps, %d bytes read (at once: %d)" % (
            size, steps, read, at_once))
    finally:
        rmtree(d)
        rmtree(once)


class _Noting(FaultyStorage):
    """A clean run that notes the steps that open a file to write or rename one."""

    def __init__(self, root):
        FaultyStorage.__init__(self, root)
        self.marks = []

    def open(self, name, mode="rb"):
        if "r" not in mode:
            self.marks.append(self.steps)
        return FaultyStorage.open(self, name, mode)

    def rename(self, old, new):
        self.marks.append(self.steps)
        FaultyStorage.rename(self, old, new)


def test_a_write_that_fails_in_any_step_leaves_the_journal_and_a_later_one_finishes():
    day, d = tmpdir("bgboard-compact"), tmpdir("bgboard-compact")
    try:
        _day(day)
        _copy(day, d)
        clean = _Noting(d)
        j = _open(clean)
        last = j.last_seq
        while j.step():
            pass
        total = clean.steps
        assert j.base_seq == last and total > 500
        # Each open and rename, and every 11th byte written (to the archive, then journal.new).
        points = sorted(set(clean.marks + list(range(0, total, 11))))
        for n in points:
            _copy(day, d)
            st = FailingStorage(d)
            j = _open(st)
            st.cut_at = st.steps + n
            while j.step():
                pass
            assert st.failures == 1 and isinstance(j.compact_error, OSError), n
            assert j.base_seq < last and not j.compacting
            assert sorted(os.listdir(d)) == ["journal", "journal.arc"], n
            for jj in (j, _open(FlashStorage(d))):  # as it was, every event once
                assert jj.last_seq == last
                _check_events(jj.since(0), 1, last)
            writes = st.steps
            assert not j.step() and st.steps == writes  # not again before the next append
            j.append(_event(last + 1))
            while j.step():
                pass
            assert j.compact_error is None and j.base_seq == last + 1, n
            for jj in (j, _open(FlashStorage(d))):
                _check_events(jj.since(0), 1, last + 1)
            own = Journal(FlashStorage(d), max_bytes=MAX, keep=KEEP)  # without its archive
            assert _archived(d) == (1, own.first_seq - 1, own.first_seq - 1), n
        print("a write failed at %d of %d steps" % (len(points), total))
    finally:
        rmtree(day)
        rmtree(d)


def test_the_compaction_at_once_abandons_one_in_steps():
    d, day = tmpdir("bgboard-compact"), tmpdir("bgboard-compact")
    try:
        # compact() itself (the controller calls it before an event when the last one
        # failed), at each step of one under way, journal.new written or not.
        _day(d)
        _copy(d, day)
        j = _open(FlashStorage(d))
        last = j.last_seq
        turns = 0
        while j.step():
            turns += 1
        for stop in range(1, turns):
            _copy(day, d)
            j = _open(FlashStorage(d))
            for _ in range(stop):
                assert j.step()
            j.compact(_state(last))
            assert not j.compacting and j.base_seq == last
            assert sorted(os.listdir(d)) == ["journal", "journal.arc"], stop
            _check_events(j.since(0), 1, last)
            assert not j.step()  # nothing more to do: under 5/8 now
            j.append(_event(last + 1))
            _check_events(_open(FlashStorage(d)).since(0), 1, last + 1)

        # append() past 3/4, the compaction in steps not done yet: at once, in append().
        j = _open(FlashStorage(d))
        _past_five_eighths(j)
        assert j.step() and j.step() and j.step() and j.compacting
        while not j.needs_compact:
            before = j.base_seq
            j.append(_event(j.last_seq + 1))
            if j.base_seq != before:
                break
        assert not j.compacting and j.base_seq == j.last_seq and j.compact_error is None
        assert sorted(os.listdir(d)) == ["journal", "journal.arc"]

        # A compaction at once that fails (a snapshot too large) still abandons it.
        _past_five_eighths(j)
        assert j.step() and j.step() and j.step() and j.step() and j.compacting
        try:
            j.compact({"big": "x" * MAX})
            raise AssertionError("a snapshot over half the budget was taken")
        except ValueError:
            pass
        assert not j.compacting and sorted(os.listdir(d)) == ["journal", "journal.arc"]
        while j.step():  # and one in steps begins again
            pass
        assert j.compact_error is None and j.base_seq == j.last_seq
    finally:
        rmtree(d)
        rmtree(day)


# -- power cuts -------------------------------------------------------------------------
_CUT_MAX = 1000  # steps from 625 bytes, at once past 750: two events between
_CUT_TURNS = 6  # turns of the loop between two events


def _life(storage, log):
    """A board's life compacting in steps: events with turns of the loop between them, a
    restart point now and then, a restart. log: as test_journal's _run keeps it, and how
    many compactions ended in steps."""
    state = {"k": 0}

    def snapshot():
        log["snaps"].append(state["k"])
        return _state(state["k"])

    j = Journal(storage, max_bytes=_CUT_MAX, keep=3, snapshot=snapshot)
    for i in range(1, 27):
        if i == 19:  # a restart: RAM is lost, a compaction under way with it
            j = Journal(storage, max_bytes=_CUT_MAX, keep=3, snapshot=snapshot)
            assert j.last_seq == 18
        state["k"] = i
        log["trying"] = i
        base = j.base_seq
        assert j.append(_event(i)) == i
        log["done"] = i
        if j.base_seq != base:
            log["at once"] += 1
        if i % 6 == 0:
            j.mark(lambda: _state(i))
        for _ in range(_CUT_TURNS):
            base = j.base_seq
            j.step()
            if j.base_seq != base:
                log["in steps"] += 1


def test_power_cut_at_every_step_of_a_life_compacting_in_steps():
    d = tmpdir("bgboard-compact")
    try:
        clean = FaultyStorage(d)
        log = _new_log()
        _life(clean, log)
        total = clean.steps
        # The restart loses the compaction under way, and the one begun after it is cut
        # short by append()'s at 3/4: that one too, as it abandons the one in steps.
        assert log["in steps"] >= 3 and log["at once"] == 1, log
        done = log["in steps"]
        for n in range(total + 1):
            _clear(d)
            log = _new_log()
            try:
                _life(FaultyStorage(d, cut_at=n), log)
            except PowerCut:
                assert n < total
            _verify_after_cut(d, log, _CUT_MAX)
        print("power cut at %d steps (%d compactions in steps, 1 at once)" % (total + 1, done))
    finally:
        rmtree(d)


def _new_log():
    return {"done": 0, "trying": 0, "snaps": [0], "in steps": 0, "at once": 0}


def _clear(d):
    for name in os.listdir(d):
        os.remove(d + "/" + name)


def test_power_cut_in_steps_with_an_archive_loses_and_duplicates_nothing():
    # As test_archive's power cut, compacting in steps: every 11th storage step.
    d = tmpdir("bgboard-compact")

    def life(storage, log):
        j = _open(storage, archive=8000)
        while log["done"] < 60:
            log["trying"] = j.last_seq + 1
            log["done"] = j.append(_event(j.last_seq + 1))
            for _ in range(4):
                base = j.base_seq
                j.step()
                if j.base_seq != base:
                    log["in steps"] = log.get("in steps", 0) + 1

    try:
        clean = FaultyStorage(d)
        log = {"done": 0}
        life(clean, log)
        assert log["in steps"] == 3 and clean.size("journal.arc") > 2000, log  # all in steps
        total = clean.steps
        for n in range(0, total + 1, 11):
            _clear(d)
            log = {"done": 0, "trying": 0}
            try:
                life(FaultyStorage(d, cut_at=n), log)
            except PowerCut:
                pass
            j = _open(FlashStorage(d), archive=8000)
            last = j.last_seq
            assert log["done"] <= last <= max(log["trying"], 60), (n, log, last)
            assert j.first_seq == 1, n
            _check_events(j.since(0), 1, last)
            assert j.append(_event(last + 1)) == last + 1
            assert sorted(os.listdir(d)) == ["journal", "journal.arc"], n
        print("archive in steps: power cut at %d of %d steps" % (total // 11 + 1, total + 1))
    finally:
        rmtree(d)
