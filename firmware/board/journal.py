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
# The snapshot is the state after event B (null and B 0: the empty start). Events follow with
# seq F, F+1, ... (F <= B + 1): those up to B are kept only for since(). A line that is torn
# (no newline), fails its CRC or breaks the sequence ends the journal; opening repairs the file
# so appends never follow a broken line.
#
# Power cuts: an append only adds at the end (a cut leaves at most a torn last line, which
# is dropped); everything rewritten (creation, compaction, repair) is written whole to
# "journal.new", which then replaces the journal by an atomic rename. A leftover
# "journal.new" is an unfinished rewrite and is removed on opening.

import binascii
import io
import json
import random

_NEW = ".new"
_BAD = ".bad"
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


def _header_size(hdr):
    """Bytes of hdr's header line, and the line's CRC."""
    s = _Stream("h")
    json.dump(hdr, s)
    return 10 + s.n, s.crc


def _write_header(out, hdr):
    """Write hdr's header line to out without building it; returns its size."""
    size, crc = _header_size(hdr)
    out.write(("%08x " % crc).encode())
    json.dump(hdr, _Stream("h", out))
    out.write(b"\n")
    return size


def _json_at(line, j):
    """The JSON value of line from j on, parsed without a copy of the line where possible."""
    try:
        return json.loads(memoryview(line)[j:])  # type: ignore[arg-type]  # parsed in place
    except TypeError:
        return json.loads(line[j:])  # CPython wants bytes


class _Lines:
    """The lines of a file, read in chunks (file.readline reads a byte at a time, and with a
    size it allocates that size at once). A line longer than limit comes in pieces."""

    def __init__(self, f, limit):
        self._f = f
        self._limit = limit
        self._buf = b""

    def next(self):
        """The next line with its newline; the last one may lack it; b"" at the end."""
        buf = self._buf
        i = buf.find(b"\n")
        if i < 0 and len(buf) < self._limit:
            # Chunks up to the newline (or the limit), joined once: a long line (a snapshot)
            # grown a chunk at a time would take a new, larger piece of heap per chunk.
            parts = [buf] if buf else []
            n = len(buf)
            while True:
                chunk = self._f.read(256)
                if not chunk:
                    break
                parts.append(chunk)
                n += len(chunk)
                if n >= self._limit or b"\n" in chunk:
                    break
            buf = parts[0] if len(parts) == 1 else b"".join(parts)
            parts = None
            i = buf.find(b"\n")
            if i < 0 and len(buf) < self._limit:  # the end of the file
                self._buf = b""
                return buf
        n = i + 1 if i >= 0 else self._limit
        if n >= len(buf):  # the line is all there is: no copy
            self._buf = b""
            return buf
        self._buf = buf[n:]
        return buf[:n]

    def skip(self):
        """Pass over the next line (a snapshot's header) without holding it whole."""
        buf = self._buf
        while True:
            i = buf.find(b"\n")
            if i >= 0:
                self._buf = buf[i + 1 :]
                return
            buf = self._f.read(256)
            if not buf:
                self._buf = b""
                return

    def close(self):
        self._f.close()


def _check(line):
    """Where the JSON of a whole, intact line starts (after TAG and its space), or 0."""
    n = len(line)
    if n < 13 or line[n - 1] != 10 or line[8] != 32:
        return 0
    try:
        crc = int(line[:8], 16)
    except ValueError:
        return 0
    if binascii.crc32(memoryview(line)[9 : n - 1]) != crc:
        return 0
    return line.find(b" ", 9) + 1


def _seq(line, j):
    """The seq of an intact event line (j from _check), or -1 if it is not an event."""
    if line[9] != 101 or j < 12:  # "e"
        return -1
    try:
        return int(line[10 : j - 1])
    except ValueError:
        return -1


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
        self._snapshot = snapshot
        self.compact_error = None
        self._open()

    # -- reading ----------------------------------------------------------------------
    @property
    def first_seq(self):
        """The oldest event since() can deliver (since(first_seq - 1) is the oldest ask)."""
        return self._first

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
            raise Resync(self._first, self.last_seq)
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
                if seq < 0:
                    self.status = "read error"  # the flash changed under us
                    return
                if seq > after:
                    event = _json_at(line, j)
                    event["seq"] = seq
                    yield event
                    limit -= 1
                    if limit == 0:
                        return
        finally:
            lines.close()

    def _event_lines(self):
        # The lines after the header, streamed from flash, each as (line, where its JSON
        # starts, its seq): j 0 for a line that is not whole and intact, seq -1 for one that
        # is not an event. The file closes at the end, or when the caller closes this.
        f = self._lines()
        try:
            f.skip()
            while True:
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
            self._broken = True  # a part of the line may be there: repair before the next
            raise
        self.last_seq = seq
        self._size += len(line)
        if self._snapshot is not None and self.needs_compact:
            try:
                self.compact(self._snapshot())
                self.compact_error = None
            except Exception as e:  # the event is stored; compaction is tried again later
                self.compact_error = e
        return seq

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
        # The sizes of the last keep event lines, oldest first: keep those that fit.
        sizes = []
        for line, j, seq in self._event_lines():
            if j and seq > last - self.keep:
                sizes.append(len(line))
        i = len(sizes) - 1
        while i >= 0 and sizes[i] <= room:
            room -= sizes[i]
            hdr["first"] -= 1
            i -= 1
        self._rewrite(hdr, last)

    # -- opening and rewriting ---------------------------------------------------------
    def _open(self):
        """Read the journal, repairing a torn or corrupt end; status tells what was found:
        "ok", "new" (no journal), "repaired" (dropped bytes were cut off the end) or
        "corrupt" (unreadable: started empty, the old file kept as <name>.bad)."""
        st = self.storage
        name = self.name
        self._broken = False
        self.dropped = 0
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
        try:
            line = f.next()
            hdr = self._parse_header(line)
            if hdr is not None:
                size = len(line)
                last = hdr["first"] - 1
                while True:
                    line = f.next()
                    if not line:
                        break
                    j = _check(line)
                    if not j or _seq(line, j) != last + 1:
                        self.dropped = len(line)
                        break
                    last += 1
                    size += len(line)
                while line:
                    line = f.next()
                    self.dropped += len(line)
        finally:
            f.close()
        if hdr is None:
            self.status = "corrupt"
            st.rename(name, name + _BAD)
            self._create()
            return
        self.id = hdr["id"]
        self._base = hdr["base"]
        self._first = hdr["first"]
        self._size = size
        self.last_seq = last
        if last < self._base:  # events folded into the snapshot are gone: drop the rest
            self.dropped += 1
            hdr["first"] = self._base + 1
        if self.dropped:
            self.status = "repaired"
            self._rewrite(hdr, max(last, self._base))

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
        self.id = 100000000 + random.getrandbits(29)  # 9 digits: a header's size is fixed
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
                        if seq < 0 or seq > expect:
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
