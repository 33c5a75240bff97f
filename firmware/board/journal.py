# The journal of committed game events on flash: append-only, survives a power cut at any
# instant, bounded in size. Works on any board.storage.FlashStorage-like object (read lines
# from open(name, "rb"), append, open(name, "wb"), rename, remove).
#
# On flash: one file (default "journal") of lines, each
#     CCCCCCCC TAG JSON\n
# CCCCCCCC is the CRC-32 (8 lowercase hex digits) of the bytes after it up to the newline.
#   header (first line) TAG "h", JSON {"id": journal id, "base": B, "first": F,
#                                      "snap": snapshot dict or null}
#   event               TAG "e<seq>", JSON the event as given (its "seq" is the TAG's)
#   restart point       TAG "s<seq>", JSON the snapshot after event seq (mark(): the board
#                       writes one as each game begins)
# The snapshot is the state after event B (null and B 0: the empty start). Events follow with
# seq F, F+1, ... (F <= B + 1): those up to B are kept only for since(). A line that fails its
# CRC (an append that failed or was cut off, ended by "!\n" before the next) is passed
# over when the next intact line continues the sequence: it never held a committed event. An
# intact line that breaks the sequence ends the journal; opening repairs the file so appends
# never follow a broken line. Past such damage, the first restart point whose events all
# follow intact lets the journal go on from there: the damage costs the events up to it (at
# most the game it lies in), not everything after it.
#
# Power cuts and failed writes: an append only adds at the end (a cut leaves at most a torn
# last line, which the next append first ends with "!\n"); everything rewritten
# (creation, compaction, repair) is written whole to
# "journal.new", which then replaces the journal by an atomic rename. A leftover
# "journal.new" is an unfinished rewrite and is removed on opening.

import binascii
import io
import json
import random

_NEW = ".new"
_MEND = b"!\n"  # ends a torn line: no record ends in "!" (JSON does not), so it stays bad
_BAD = ".bad"
_POINT = 115  # "s": a restart point's TAG
_ENOSPC = 28
_EIO = 5


class Resync(Exception):
    """since(seq) cannot answer: the events after seq are no longer (or not) in the journal.
    first - 1 is the oldest seq since() accepts, last the newest event."""

    def __init__(self, first, last):
        super().__init__("journal has events %d..%d: resync" % (first, last))
        self.first = first
        self.last = last


def _record(tag, data):
    text = json.dumps(data)
    try:
        json.loads(text)  # MicroPython writes what it cannot encode as "<object>" or nan
    except ValueError:
        raise TypeError("not plain JSON data")
    body = ("%s %s" % (tag, text)).encode()
    return ("%08x " % binascii.crc32(body)).encode() + body + b"\n"


class _Stream(io.IOBase):
    """What json.dump writes a line's JSON into: it keeps the CRC-32 and length of what
    passes and hands it on to out (a file), so a long line (a snapshot) is never one piece
    of heap (json.dump streams; MicroPython hands each piece over in a stack buffer)."""

    def __init__(self, tag, out=None):
        self.out = out
        self.crc = 0
        self.n = 0
        self.write(tag + " ")

    def write(self, buf):
        if isinstance(buf, str):  # CPython's json writes str
            buf = buf.encode()
        self.crc = binascii.crc32(buf, self.crc)
        self.n += len(buf)
        if self.out is not None:
            self.out.write(buf)
        return len(buf)


def _header_size(hdr, tag="h"):
    """Bytes of hdr's header line (or of a line with another tag), and the line's CRC."""
    s = _Stream(tag)
    json.dump(hdr, s)
    return 10 + s.n, s.crc


def _write_header(out, hdr, tag="h"):
    """Write hdr's line (a header, or a restart point's tag) to out without building it;
    returns its size."""
    size, crc = _header_size(hdr, tag)
    out.write(("%08x " % crc).encode())
    json.dump(hdr, _Stream(tag, out))
    out.write(b"\n")
    return size


def _json_at(line, j):
    """The JSON value of line from j on, parsed without a copy of the line where possible."""
    try:
        return json.loads(memoryview(line)[j:])  # type: ignore[arg-type]  # parsed in place
    except TypeError:
        return json.loads(line[j:])  # CPython wants bytes


_CHUNK = 128


class _Lines:
    """The lines of a file, read through one buffer of _CHUNK bytes made once per reader, so
    that each line is one new piece of heap of its own size (file.readline reads a byte at a
    time; read(n) makes a new piece of n bytes per chunk, and the small heap fragments). A
    line longer than the buffer is measured first, then read whole into its own piece. A
    line longer than limit comes in pieces."""

    def __init__(self, f, limit):
        self._f = f
        self._limit = limit
        self._buf = bytearray(_CHUNK)
        self._pos = 0  # the unread part of _buf: _pos.._end
        self._end = 0
        self._at = 0  # where the file is: the offset of _buf's end

    def _fill(self):
        n = self._f.readinto(self._buf) or 0
        self._pos = 0
        self._end = n
        self._at += n
        return n

    def next(self):
        """The next line (a bytearray) with its newline; the last one may lack it; empty at
        the end."""
        buf = self._buf
        if self._pos == self._end and not self._fill():
            return bytearray()
        i = buf.find(b"\n", self._pos, self._end)
        if i >= 0 and i + 1 - self._pos <= self._limit:
            line = buf[self._pos : i + 1]
            self._pos = i + 1
            return line
        start = self._at - (self._end - self._pos)
        n = self.skip()
        line = bytearray(n)
        self._f.seek(start)
        view = memoryview(line)
        got = 0
        while got < n:
            k = self._f.readinto(view[got:])
            if not k:
                break
            got += k
        self._at = start + got
        self._pos = self._end = 0
        return line

    def tag(self):
        """Byte 9 of the next line (its TAG's first letter), read without taking the line;
        -1 at the end or for a line shorter than that."""
        if self._end - self._pos < 10:  # the unread part to the front, and fill behind it
            n = self._end - self._pos
            view = memoryview(self._buf)
            view[0:n] = view[self._pos:self._end]
            k = self._f.readinto(view[n:]) or 0
            self._pos = 0
            self._end = n + k
            self._at += k
            if self._end < 10:
                return -1
        if self._buf.find(b"\n", self._pos, self._pos + 9) >= 0:
            return -1
        return self._buf[self._pos + 9]

    def skip(self):
        """Pass over the next line (at most limit bytes) without holding it; returns its
        length (whole: whether a newline ended it)."""
        buf = self._buf
        n = 0
        self.whole = False
        while n < self._limit:
            if self._pos == self._end and not self._fill():
                break
            i = buf.find(b"\n", self._pos, self._end)
            stop = i + 1 if i >= 0 else self._end
            if n + stop - self._pos > self._limit:
                stop = self._pos + self._limit - n
                i = -1
            n += stop - self._pos
            self._pos = stop
            if i >= 0:
                self.whole = True
                break
        return n

    def close(self):
        self._f.close()


def _number(line, start, end, base):
    """The number line[start:end] spells in base 10 or 16 (lowercase), or -1; read in place
    (int() takes no bytearray on MicroPython)."""
    if start >= end:
        return -1
    v = 0
    for i in range(start, end):
        c = line[i]
        if 48 <= c <= 57:
            d = c - 48
        elif base == 16 and 97 <= c <= 102:
            d = c - 87
        else:
            return -1
        v = v * base + d
    return v


def _check(line):
    """Where the JSON of a whole, intact line starts (after TAG and its space), or 0."""
    n = len(line)
    if n < 13 or line[n - 1] != 10 or line[8] != 32 or line[n - 2] == 33:  # _MEND
        return 0
    crc = _number(line, 0, 8, 16)
    if crc < 0:
        return 0
    if binascii.crc32(memoryview(line)[9 : n - 1]) != crc:
        return 0
    return line.find(b" ", 9) + 1


def _seq(line, j, tag=101):
    """The seq of an intact event line (j from _check), or -1 if it is not an event; with
    tag _POINT, of a restart point."""
    if line[9] != tag or j < 12:  # "e" (or "s")
        return -1
    return _number(line, 10, j - 1, 10)


def _repair():
    import board.journal_repair as repair  # the rare path: loaded only when needed

    return repair


def _new_id():
    return 100000000 + random.getrandbits(29)  # 9 digits: a header's size is fixed


class Journal:
    def __init__(self, storage, max_bytes=32768, keep=128, snapshot=None, name="journal"):
        """storage: a FlashStorage (or a directory name for one). max_bytes: the journal
        file never exceeds it (it compacts at 3/4 of it down to at most 1/2; an event may
        take at most 1/4 and a snapshot at most 1/2). keep: compaction keeps the last keep
        events for since() (fewer if they would not fit in half the budget). snapshot: an
        optional function called inside append() after an event is on flash when the
        journal must compact: it returns the state with that event already applied."""
        if isinstance(storage, str):
            from board.storage import FlashStorage

            storage = FlashStorage(storage)
        self.storage = storage
        self.name = name
        self.max_bytes = max_bytes
        self.keep = keep
        self.snapshot = snapshot  # board.controller.Controller sets its own
        self.compact_error = None  # why the last compaction inside append() failed
        self.archive = None  # board.archive.Archive sets itself: it keeps what compaction drops
        self._open()

    # -- reading ----------------------------------------------------------------------
    @property
    def first_seq(self):
        """The oldest event since() can deliver (since(first_seq - 1) is the oldest ask),
        from the archive if there is one."""
        return self._first if self.archive is None else self.archive.first_seq_of_both()

    @property
    def base_seq(self):
        """The last event folded into the snapshot (0: no snapshot)."""
        return self._base

    @property
    def size(self):
        """Bytes of the journal file."""
        return self._size

    @property
    def needs_compact(self):
        return self._size > self.max_bytes * 3 // 4

    def since(self, seq, limit=0):
        """The events with seq greater than the given one, oldest first, each a new dict
        with its "seq", streamed from flash (at most limit of them if limit > 0). Raises
        Resync if seq is older than the journal keeps or newer than its last event."""
        if seq < self._first - 1 or seq > self.last_seq:
            if self.archive is None or seq > self.last_seq:
                raise Resync(self.first_seq, self.last_seq)
            return self.archive.since_of_both(seq, limit)
        return self._events(seq, limit)

    def recover(self):
        """(snapshot or None, the events after it, streamed like since()): the state to
        resume from. Consume the events before appending or compacting."""
        return self._header()["snap"], self._events(self._base, 0)

    def _header(self):
        f = self._lines()
        try:
            line = f.next()
        finally:
            f.close()
        return _json_at(line, _check(line))

    def _events(self, after, limit):
        lines = self._event_lines()
        try:
            for line, j, seq in lines:
                if seq > after:  # a failed append's line (seq -1) is passed over
                    event = _json_at(line, j)
                    event["seq"] = seq
                    yield event
                    limit -= 1
                    if limit == 0:
                        return
        finally:
            lines.close()

    def _event_lines(self, points=False):
        # The lines after the header, streamed from flash, each as (line, where its JSON
        # starts, its seq): j 0 for a line that is not whole and intact, seq -1 for one that
        # is not an event. Restart points are passed over unread unless points is true. The
        # file closes at the end, or when the caller closes this.
        f = self._lines()
        try:
            f.skip()
            while True:
                if not points and f.tag() == _POINT:
                    f.skip()
                    continue
                line = f.next()
                if not line:
                    return
                j = _check(line)
                yield line, j, _seq(line, j) if j else -1
        finally:
            f.close()

    # -- writing ----------------------------------------------------------------------
    def append(self, event):
        """Store a committed event (a dict of plain JSON data, without "seq") and return its
        seq; it is on flash when this returns."""
        if self._broken:
            self._open()
        elif self._torn:
            self._mend()
        if "seq" in event:
            raise ValueError("event has a seq")
        seq = self.last_seq + 1
        line = _record("e%d" % seq, event)
        if len(line) > self.max_bytes // 4:
            raise ValueError("event too large")
        if self._size + len(line) > self.max_bytes:
            raise OSError(_ENOSPC)  # the journal is full: compact() first
        try:
            self.storage.append(self.name, line)
        except OSError:
            self._torn = True  # a part of the line may be there: ended before the next
            raise
        self.last_seq = seq
        self._size += len(line)
        if self.snapshot is not None and self.needs_compact:
            try:
                self.compact(self.snapshot())
                self.compact_error = None
            except Exception as e:  # the event is stored; compaction is tried again later
                self.compact_error = e
        return seq

    def mark(self, snapshot):
        """Write a restart point: snapshot() gives the state after the last event. A damaged
        line before it then costs the events up to it, not the rest (opening). Skipped
        while the file's end needs mending or lacks room, and right after a compaction; a
        spare, so a failure is passed over (the next append ends a torn line). Returns
        whether it was written."""
        if self._broken or self._torn or self._base == self.last_seq:
            return False
        tag = "s%d" % self.last_seq
        try:
            snap = snapshot()
            size = _header_size(snap, tag)[0]
            if self._size + size > self.max_bytes:
                return False
            out = self.storage.open(self.name, "ab")
            try:
                self._torn = True  # until the whole line is written
                _write_header(out, snap, tag)
                out.flush()
                self._torn = False
            finally:
                out.close()
        except Exception:  # noqa: B902 - OSError, MemoryError: the event is stored anyway
            return False
        self._size += size
        return True

    def compact(self, snapshot):
        """Replace the journal with snapshot (the state after event last_seq) and the most
        recent events (up to keep), atomically."""
        if self._broken:
            self._open()
        last = self.last_seq
        hdr = {"id": self.id, "base": last, "first": last + 1, "snap": snapshot}
        room = self.max_bytes // 2 - _header_size(hdr)[0]
        if room < 0:
            raise ValueError("snapshot too large")
        # Of the last keep events, the most recent that fit: all of them, then the oldest
        # dropped until the rest fit (two reads instead of a list of their sizes).
        total = 0
        for line, j, seq in self._event_lines():
            if j and seq > last - self.keep:
                total += len(line)
                hdr["first"] -= 1
        if total > room:
            lines = self._event_lines()
            try:
                for line, j, seq in lines:
                    if j and seq > last - self.keep:
                        total -= len(line)
                        hdr["first"] += 1
                        if total <= room:
                            break
            finally:
                lines.close()  # the file: MicroPython does not close what is left unfinished
        if self.archive is not None:
            self.archive.take(hdr["first"])  # what is dropped, before it is dropped
        self._rewrite(hdr, last)

    # -- opening and rewriting ---------------------------------------------------------
    def _open(self):
        # Until it is read (and repaired) whole: a write that fails in a repair leaves it
        # broken, and the next append opens it again.
        self._broken = True
        self._torn = False
        self._read()
        self._broken = False

    def _mend(self):
        # After a failed append: whatever part of its line reached the flash is ended, so
        # that the next line starts whole (two bytes more, not a rewrite). Not with a bare
        # newline: a line cut just before its newline would then read as intact.
        self.storage.append(self.name, _MEND)
        self._size = self.storage.size(self.name) or 0
        self._torn = False

    def _read(self):
        """Read the journal, repairing a torn or corrupt end; status tells what was found:
        "ok", "new" (no journal), "repaired" (dropped bytes were cut off the end, or a torn
        last line ended) or
        "corrupt" (unreadable: started empty, the old file kept as self.kept: <name>.bad,
        or .bad-2, .bad-3... when earlier ones are still there)."""
        st = self.storage
        name = self.name
        self.dropped = 0
        self.kept = None  # where an unreadable or damaged journal was set aside
        self.lost = None  # (first, last) seq of committed events a damaged line cut off
        self.status = "ok"
        self.last_seq = 0
        st.remove(name + _NEW)
        if st.size(name) is None:
            self.status = "new"
            self._create()
            return
        f = self._lines()
        hdr = None
        size = 0
        last = 0
        found = (0, 0, 0, 0)  # what board.journal_repair.scan found past a damaged line
        try:
            line = f.next()
            hdr = self._parse_header(line)
            if hdr is not None:
                hdr["snap"] = None  # not held through the scan: a repair reads it again
                size = len(line)
                last = hdr["first"] - 1
                passed = 0  # lines not intact since the last event: kept if one follows
                torn = False
                while True:
                    if f.tag() == _POINT:  # a restart point: kept, passed over unread (a
                        n = f.skip()  # snapshot is long); checked only when it is needed
                        if f.whole:
                            size += passed + n
                            passed = 0
                        else:
                            passed += n
                        torn = not f.whole
                        continue
                    line = f.next()
                    if not line:
                        break
                    j = _check(line)
                    if not j:
                        passed += len(line)
                        torn = line[-1] != 10
                        continue
                    if _seq(line, j) != last + 1:
                        break  # an intact line out of sequence: the journal ends before it
                    last += 1
                    size += passed + len(line)
                    passed = 0
                    torn = False
                if line:  # damage: the rare path, loaded only now
                    found = _repair().scan(f, line, last, hdr["base"])
                    self.dropped = passed + found[0]
                else:  # only failed appends after the last event: ended, kept
                    size += passed
                    self._torn = torn
                    if torn:
                        self.status = "repaired"
        finally:
            f.close()
        if hdr is None:
            self.status = "corrupt"
            self.kept = self._keep_aside()
            self._create()
            return
        self.id = hdr["id"]
        self._base = hdr["base"]
        self._first = hdr["first"]
        self._size = size
        self.last_seq = last
        if last < self._base:  # events folded into the snapshot are gone: drop the rest
            self.dropped += 1
            self._first = self._base + 1
        if self.dropped:
            self.status = "repaired"
            _repair().mend(self, last, found)

    def set_aside(self):
        """Keep the journal as it is under a name of its own (it will not replay) and start
        an empty one with a new id. Returns the kept file's name."""
        kept = self._keep_aside()
        self._open()  # finds none: a new journal
        self.kept = kept
        return kept

    def _keep_aside(self):
        # Rename the journal to a free name: <name>.bad, then .bad-2, .bad-3...; every one
        # is kept (never overwritten) until the host has fetched it. Returns the name.
        kept = self._free_name()
        self.storage.rename(self.name, kept)
        return kept

    def _free_name(self):
        n = 1
        while True:
            kept = self.name + _BAD + ("-%d" % n if n > 1 else "")
            if self.storage.size(kept) is None:
                return kept
            n += 1

    def _lines(self):
        return _Lines(self.storage.open(self.name, "rb"), self.max_bytes)

    def _parse_header(self, line):
        j = _check(line)
        if j != 11 or line[9] != 104:  # "h"
            return None
        try:
            hdr = _json_at(line, j)
            b = hdr["base"]
            f = hdr["first"]
            if not isinstance(hdr["id"], int) or b < 0 or f < 1 or f > b + 1:
                return None
        except (ValueError, KeyError, TypeError):
            return None
        return hdr

    def _create(self):
        self.id = _new_id()
        self._rewrite({"id": self.id, "base": 0, "first": 1, "snap": None}, 0)

    def _rewrite(self, hdr, upto):
        """Write hdr and the current events hdr["first"]..upto to a new file that then
        replaces the journal."""
        st = self.storage
        tmp = self.name + _NEW
        expect = hdr["first"]
        out = st.open(tmp, "wb")
        try:
            size = _write_header(out, hdr)
            if upto >= expect:
                lines = self._event_lines()
                try:
                    for line, _, seq in lines:
                        if seq < 0:
                            continue  # a failed append's line: left out
                        if seq > expect:
                            break
                        if seq == expect:
                            out.write(line)
                            size += len(line)
                            expect += 1
                            if expect > upto:
                                break
                finally:
                    lines.close()
            out.flush()
        finally:
            out.close()
        if expect <= upto:  # an event could not be read back (the flash went bad)
            st.remove(tmp)
            if upto != hdr["base"]:
                raise OSError(_EIO)
            hdr["first"] = upto + 1  # the snapshot holds them all: keep none
            self._rewrite(hdr, upto)
            return
        st.rename(tmp, self.name)
        self._base = hdr["base"]
        self._first = hdr["first"]
        self._size = size
        self.last_seq = upto
