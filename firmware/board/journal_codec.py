"""The journal's lines on flash, written and read (board.journal, and board.archive, a
journal of its own): the record codec and the line reader, apart from what the journal does
with them.

A line is
    CCCCCCCC TAG JSON\n
CCCCCCCC the CRC-32 (8 lowercase hex digits) of the bytes after it up to the newline; TAG
"h" a header, "e<seq>" an event, "s<seq>" a restart point, "g<last>" a declared gap
(board.journal says what each holds). A line that fails its CRC, or a torn one ended by MEND, reads as not intact
(check() is 0). encode() makes a short line; write_header() streams a long one (a snapshot)
to a file without building it; Lines reads a file's lines through one small buffer.
"""

import binascii
import io
import json

MEND = b"!\n"  # ends a torn line: no record ends in "!" (JSON does not), so it stays bad
POINT = 115  # "s": a restart point's TAG
EVENT = 101  # "e": an event's
GAP = 103  # "g": a declared gap's (events a damaged line cost)


def encode(tag, data):
    """The whole line that holds `data` (plain JSON data) under `tag`; TypeError for data
    JSON cannot hold."""
    text = json.dumps(data)
    try:
        json.loads(text)  # MicroPython writes what it cannot encode as "<object>" or nan
    except ValueError:
        raise TypeError("not plain JSON data")
    body = ("%s %s" % (tag, text)).encode()
    return ("%08x " % binascii.crc32(body)).encode() + body + b"\n"


class Stream(io.IOBase):
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


def header_size(hdr, tag="h"):
    """Bytes of hdr's header line (or of a line with another tag), and the line's CRC."""
    s = Stream(tag)
    json.dump(hdr, s)
    return 10 + s.n, s.crc


def write_header(out, hdr, tag="h", known=None):
    """Write hdr's line (a header, or a restart point's tag) to out without building it;
    returns its size. known: header_size(hdr, tag) if it was had (a compaction in steps
    has it a step before: each is a pass over the snapshot)."""
    size, crc = known or header_size(hdr, tag)
    out.write(("%08x " % crc).encode())
    json.dump(hdr, Stream(tag, out))
    out.write(b"\n")
    return size


def json_at(line, j):
    """The JSON value of line from j on, parsed without a copy of the line where possible."""
    try:
        return json.loads(memoryview(line)[j:])  # type: ignore[arg-type]  # parsed in place
    except TypeError:
        return json.loads(line[j:])  # CPython wants bytes


CHUNK = 128


class Lines:
    """The lines of a file, read through one buffer of CHUNK bytes made once per reader, so
    that each line is one new piece of heap of its own size (file.readline reads a byte at a
    time; read(n) makes a new piece of n bytes per chunk, and the small heap fragments). A
    line longer than the buffer is measured first, then read whole into its own piece. A
    line longer than limit comes in pieces."""

    def __init__(self, f, limit, at=0):
        self._limit = limit
        self._buf = bytearray(CHUNK)
        self.start(f, at)

    def start(self, f, at=0):
        """Read f from byte `at` on (a compaction's steps read on where the last one stopped,
        each with the file opened again, through one reader and its buffer)."""
        if at:
            f.seek(at)
        self._f = f
        self._pos = 0  # the unread part of _buf: _pos.._end
        self._end = 0
        self._at = at  # where the file is: the offset of _buf's end

    def tell(self):
        """Where the next line starts in the file."""
        return self._at - (self._end - self._pos)

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
        start = self.tell()
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


def check(line):
    """Where the JSON of a whole, intact line starts (after TAG and its space), or 0."""
    n = len(line)
    if n < 13 or line[n - 1] != 10 or line[8] != 32 or line[n - 2] == 33:  # MEND
        return 0
    crc = _number(line, 0, 8, 16)
    if crc < 0:
        return 0
    if binascii.crc32(memoryview(line)[9 : n - 1]) != crc:
        return 0
    return line.find(b" ", 9) + 1


def newest_tag(line):
    """The newest seq an event's or a declared gap's TAG spells anywhere in a damaged line,
    or -1. Damage over the newline between two lines runs them together: the one damaged
    line then stands for two events, and the journal must not hand out the second's seq
    again. (A TAG: a hex digit, a space, "e" or "g", digits, a space.)"""
    newest = -1
    i = line.find(b" ")
    while i > 0:
        end = line.find(b" ", i + 2)
        if end < 0:
            break
        c = line[i - 1]
        if (48 <= c <= 57 or 97 <= c <= 102) and line[i + 1] in (EVENT, GAP):
            seq = _number(line, i + 2, end, 10)
            if seq > newest:
                newest = seq
        i = end
    return newest


def seq_of(line, j, tag=EVENT):
    """The seq of an intact event line (j from _check), or -1 if it is not an event; with
    tag POINT, of a restart point; with GAP, the last seq a gap covers."""
    if line[9] != tag or j < 12:  # "e" (or "s", "g")
        return -1
    return _number(line, 10, j - 1, 10)


def last_of(line, j):
    """The last seq an intact line covers: an event's seq, a gap's last; -1 for others."""
    if line[9] == GAP:
        return seq_of(line, j, GAP)
    return seq_of(line, j)


def first_of(line, j, last):
    """The first seq an intact line covers (last: last_of's answer): a gap's JSON is
    [first, undone] (read in place), an event covers its own seq."""
    if line[9] != GAP:
        return last
    return _number(line, j + 1, line.find(b",", j), 10)


def gap_line(first, last, undone):
    """The line declaring that events first..last are lost: undone 1 if the state after it
    is the one after first - 1 (the damage lay after the last restart point), 0 if it is
    the one after last (a restart point's snapshot holds what they did)."""
    return encode("g%d" % last, [first, undone])
