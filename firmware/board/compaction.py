"""A journal's compaction in small steps (board.journal.Journal.step: one step a turn of the
board's loop), so that the board goes on scanning while its journal compacts: done at once,
a 32 KB journal's compaction held the loop for a second on a Pico. The Pico's main.py loads
it at boot with the loop's other modules (loaded in the middle of a match, it would land
wherever the heap had room); elsewhere it is loaded when the first one begins.

It keeps what Journal.compact() keeps: the snapshot taken as it begins (the state after that
moment's last event) is the new header's; of the last `keep` events, the most recent that
fit in half the budget are kept; what is dropped goes to the archive first (its full check
before anything is written); the rest goes to "journal.new", which then replaces the
journal by a rename. Events appended while it runs follow in the new file (restart points
are left out, as compact() leaves them).

Between two steps the loop may append to the journal and the host read it, so no step
keeps the journal open: each opens it, reads on from the byte where the last one stopped
and closes it. The archive takes whole lines a step, opened and closed as an append is
(the host's ack may rewrite it between), each step's counted in once closed (Archive.put).
Only journal.new stays open between steps (no one else uses it; opened again to append,
littlefs would copy its last block each time). The copy reads on to the journal's end,
appends included, and the step that finds nothing more renames: no append falls between
the copy and the rename. A power cut at any step leaves the old journal (journal.new is
removed on opening) or the new one, each with every event whose append returned."""

from board import journal_codec as codec
from board.journal import _EIO, _NEW  # the journal's own: one source for each

# Lines read a step (a restart point passed over, the header included), each written once
# at most. Measured on the unix port (tests/bench/bench_compact.py, a 32 KB journal at 5/8):
# a step of 8 lines takes 0.07 ms (16: 0.13 ms), about 3.5 ms on a Pico (some 50 times
# slower) beside its 10 ms turn; 67 steps compact it. Each pass over the snapshot is a step
# of its own: its size and its CRC 0.16 ms each, its writing 0.6 ms (an OS write a JSON
# piece on this port: on littlefs a copy into the file's cache); the last step's flush and
# rename 0.35 ms (an fsync here).
STEP_LINES = 8


def steps(j, snap):
    """A generator: each next() is one step of compacting journal j into snap (the state
    after its last event now, so the first step follows the snapshot at once);
    StopIteration once the new journal is in place. An exception ends it with the journal
    as it was; close() abandons it (Journal._abandon removes journal.new)."""
    last = j.last_seq
    end = j.storage.size(j.name) or 0  # the lines up to last end here; appends follow
    arch = j.archive
    if arch is not None and not arch.ready():
        arch = None
    held = arch.last_seq if arch is not None else last  # the archive has events up to held
    hdr = {"id": j.id, "base": last, "first": last + 1, "snap": snap}
    yield
    room = j.max_bytes // 2 - codec.header_size(hdr)[0]
    if room < 0:
        raise ValueError("snapshot too large")
    r = codec.Lines(None, j.max_bytes)  # one reader and its buffer for every step
    yield

    # Of the last keep events, those that fit in room, and the bytes the archive takes.
    total = taken = 0
    keep_at = take_at = -1  # where the first kept and the first archived line start
    oldest = last - j.keep  # the last keep events are after it
    lines = _lines(j, r, 0, end)
    try:
        for item in lines:
            if item is None:
                yield
                continue
            line, k, seq, at = item
            if seq <= 0:
                continue
            if seq > held:
                if take_at < 0:
                    take_at = at
                taken += len(line)
            if seq > oldest:
                if keep_at < 0:
                    keep_at = at
                    hdr["first"] = codec.first_of(line, k, seq)
                total += len(line)
    finally:
        lines.close()  # MicroPython does not close a generator left unfinished
    if keep_at < 0:
        keep_at = r.tell()
    yield
    if total > room:  # the oldest dropped until the rest fit (seldom: a second reading)
        lines = _lines(j, r, keep_at, end)
        try:
            for item in lines:
                if item is None:
                    yield
                    continue
                line, k, seq, at = item
                if seq > 0:
                    total -= len(line)
                    hdr["first"] = seq + 1
                    if total <= room:
                        break
        finally:
            lines.close()
        keep_at = r.tell()
        yield
    first = hdr["first"]

    # What is dropped and not yet archived, appended to the archive a step at a time.
    if arch is not None and first > held + 1 and taken > total:
        arch.room_for(taken - total)  # the kept lines are the ones from first on
        yield
        out = None
        n = 0
        lines = _lines(j, r, take_at, end)
        try:
            for item in lines:
                if item is None:
                    if out is not None:
                        out.close()
                        out = None
                        arch.put(held, n)
                        n = 0
                    yield
                    continue
                line, k, seq, at = item
                if seq >= first:
                    break
                if seq > held:
                    if out is None:
                        out = arch.writer(held)
                    out.write(line)
                    held = seq
                    n += len(line)
            if out is not None:
                out.close()
                out = None
                arch.put(held, n)
        finally:
            lines.close()
            if out is not None:  # a write failed: the archive reads its file again
                out.close()
        yield

    # The new journal: the header, then the kept events and every one appended since.
    known = codec.header_size(hdr)
    yield
    tmp = j.name + _NEW
    out = j.storage.open(tmp, "wb")
    try:
        size = codec.write_header(out, hdr, "h", known)
        hdr = snap = None  # on flash: its RAM goes
        yield
        expect = first
        lines = _lines(j, r, keep_at, -1)
        try:
            for item in lines:
                if item is None:
                    yield
                    continue
                line, k, seq, at = item
                if seq < expect:
                    continue  # a failed append's line (-1), or one before: left out
                at = codec.first_of(line, k, seq)  # (where it starts is done with)
                if at > expect:
                    break
                if at < expect:  # a gap that begins before: it now begins here
                    line = codec.gap_line(expect, seq, codec.json_at(line, k)[1])
                out.write(line)
                size += len(line)
                expect = seq + 1
        finally:
            lines.close()
        out.flush()
    finally:
        out.close()
    if expect != j.last_seq + 1:  # an event could not be read back: the journal stays
        raise OSError(_EIO)
    j.storage.rename(tmp, j.name)
    j._base = last
    j._first = first
    j._size = size
    j._torn = False  # the new file ends whole: nothing to end before the next append


def _lines(j, r, at, end):
    """The journal's lines from byte `at` (0: after the header) up to byte `end` (-1: to its
    end, appends included), as (line, where its JSON starts, its seq: -1 if not whole and
    intact, where it starts); restart points passed over unread. At most STEP_LINES a step,
    then None, with the file closed in between. Its end (-1) is where a step finds no line:
    the step that copies the last one is not also the one that renames."""
    while True:
        r.start(j.storage.open(j.name, "rb"), at)
        try:
            n = STEP_LINES
            if at == 0:
                r.skip()  # the header
                n -= 1
            while n:
                n -= 1
                at = r.tell()
                if at >= end >= 0:
                    return
                if r.tag() == codec.POINT:
                    r.skip()
                    continue
                line = r.next()
                if not line:
                    if n == STEP_LINES - 1:
                        return
                    break
                k = codec.check(line)
                yield line, k, codec.last_of(line, k) if k else -1, at
            at = r.tell()
        finally:
            r.close()
        yield None
