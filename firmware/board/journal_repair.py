"""The rare path of board.journal: a journal found damaged when it is opened (a line that
fails its CRC with intact events after it, or a whole line that fails it). Imported only
then, so a board's heap does not hold this code in play.

First correct(): a line one flipped bit away from intact (CRC-32 tells which bit) is put
right, and nothing is lost. Otherwise the damage costs the events up to the first restart
point past it that every later event follows (the header's snapshot if the damage lies in
the events before it): the journal goes on from there under the same id, the events
before the damage still served and a declared gap line ("g") standing for the events lost.
With no such point the journal goes back to the state before the damage: the gap then
covers every event from the damage to the newest one found past it ("undone"), and the
next event follows the gap. Either way the damaged file is kept as it was (<name>.bad-N)
and `lost` names the events it cost."""

import binascii

from board.journal_codec import (CHUNK, POINT, check, first_of, gap_line, json_at, last_of,
                                 seq_of)

_POLY = 0xEDB88320  # CRC-32's, bit-reversed (binascii.crc32's)


def correct(journal):
    """Put right every whole line of the journal that fails its check and is one flipped
    bit away from intact; returns how many (0: the file is left as it was, untouched)."""
    if not _fixes(journal, None):  # read first: unfixable damage writes nothing
        return 0
    st = journal.storage
    tmp = journal.name + ".new"
    try:
        out = st.open(tmp, "wb")
        try:
            fixed = _fixes(journal, out)
        finally:
            out.close()
    except OSError:  # no room for the corrected copy: repaired as it is
        st.remove(tmp)
        return 0
    st.rename(tmp, journal.name)
    return fixed


def _fixes(journal, out):
    # How many lines _fix puts right; each line, put right or not, written to out if given.
    fixed = 0
    f = journal._lines()
    try:
        while True:
            line = f.next()
            if not line:
                return fixed
            if line[-1] == 10 and (len(line) < 2 or line[-2] != 33) and not check(line):
                good = _fix(line)
                if good is not None:
                    line = good
                    fixed += 1
            if out is not None:
                out.write(line)
    finally:
        f.close()


def _fix(line):
    # line (whole, failing its check) with one bit flipped back, or None.
    n = len(line)
    if n < 13:
        return None
    crc = binascii.crc32(memoryview(line)[9:n - 1])
    head = ("%08x " % crc).encode()
    wrong = 0  # bits by which the CRC's digits and the space differ from the body's CRC
    for i in range(9):
        wrong += _ones(line[i] ^ head[i])
    if wrong == 1:  # the flip is in the CRC's digits or the space after them
        for i in range(9):
            line[i] = head[i]
        return line
    stored = _hex(line)
    if stored >= 0:  # the flip is in the body: the syndrome says where
        at = _where(crc ^ stored, n - 10)
        if at >= 0:
            line[9 + at // 8] ^= 1 << (at % 8)
            if check(line):
                return line
            line[9 + at // 8] ^= 1 << (at % 8)
    for k in range(9, n - 1):  # a newline flipped: two lines read as one
        if _ones(line[k] ^ 10) == 1:
            c = line[k]
            line[k] = 10
            if check(line[:k + 1]) and check(line[k + 1:]):
                return line
            line[k] = c
    return None


def _ones(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


def _hex(line):
    v = 0
    for i in range(8):
        c = line[i]
        d = c - 48 if 48 <= c <= 57 else c - 87 if 97 <= c <= 102 else -1
        if d < 0:
            return -1
        v = v * 16 + d
    return v


def _table(x):
    for _ in range(8):
        x = (x >> 1) ^ (_POLY if x & 1 else 0)
    return x


def _where(syndrome, n):
    """The bit (8 * byte + bit, LSB first) of a body of n bytes whose flip changes its
    CRC-32 by syndrome, or -1. CRC-32 is linear: a flip at byte i changes it by the CRC of
    that bit followed by n - 1 - i zero bytes, found from the last byte backwards."""
    if not syndrome:
        return -1
    delta = [_table(1 << b) for b in range(8)]  # for a flip in the last byte
    for i in range(n - 1, -1, -1):
        for b in range(8):
            if delta[b] == syndrome:
                return 8 * i + b
            d = delta[b]
            delta[b] = _table(d & 0xFF) ^ (d >> 8)  # one zero byte more after it
    return -1


def scan(f, line, last, base):
    """The lines from the damage on (line: the first, f: the journal_codec.Lines reader;
    last: the last event before the damage; base: the header's). Returns (their bytes, the
    newest intact event among them, the restart point to go on from or 0, its last
    event)."""
    dropped = newest = 0
    restart = upto = base if last < base else 0
    while line:
        dropped += len(line)
        j = check(line)
        if j:
            seq = last_of(line, j)  # an event, or an earlier repair's gap (its last)
            point = seq_of(line, j, POINT)
            if point > last and point >= newest and not restart:
                restart = upto = point  # the first: the fewest events lost
            elif seq > 0:
                if seq > upto:
                    if first_of(line, j, seq) != upto + 1:
                        restart = 0  # a gap after it (or none yet)
                    upto = seq
                newest = max(newest, seq)
        line = f.next()
    return dropped, newest, restart, upto


def mend(journal, last, found):
    """Rewrite the damaged journal (last: its last event before the damage; found: scan()'s
    answer) and say what it cost in journal.lost and journal.kept. Its id stays: the
    events before the damage are served as they were, and a gap line stands for the lost
    ones, so a host that holds them keeps them."""
    _, newest, restart, upto = found
    hdr = journal._header()
    base = hdr["base"]
    if not restart and last < base:  # cut short before the snapshot, which holds them
        if newest > base:  # and a hole after it: back to the snapshot's state
            journal.lost = (last + 1, newest)
            journal.undone = True
            journal.kept = _keep_copy(journal)
            journal._rewrite(hdr, newest, gap_line(last + 1, base, 0) +
                             gap_line(base + 1, newest, 1))
            return
        restart = upto = base
    if restart:  # go on from the restart point: the events up to it are lost, not undone
        journal.lost = (last + 1, restart)
        journal.kept = _keep_copy(journal)
        if restart != base:
            hdr["snap"] = _restart_point(journal, restart)
            hdr["base"] = restart
        journal._rewrite(hdr, upto, gap_line(last + 1, restart, 0))
        return
    if newest > last:  # committed events are cut off: back to the state before them
        journal.lost = (last + 1, newest)
        journal.undone = True
        journal.kept = _keep_copy(journal)
        journal._rewrite(hdr, newest, gap_line(last + 1, newest, 1))
        return
    journal._rewrite(hdr, max(last, base))


def rebuild(journal):
    """A journal whose header is damaged (and not one bit away from intact): a new header
    for its intact events, under the id of its archive (which continues it) so that the
    host and the archive go on with it; the state from the last restart point, or from the
    start (no compaction yet), else none (status "restarted": the events are kept, the
    board starts without a match). The damaged file is kept. Returns whether it was done."""
    first = last = point = 0
    lines = journal._event_lines(True)
    try:
        for line, j, seq in lines:
            if not j:
                continue
            at = seq_of(line, j, POINT)
            if at > 0 and first and first - 1 <= at <= last:
                point = at
            elif seq > 0:
                start = first_of(line, j, seq)
                if first and start != last + 1:
                    break  # more damage: the events up to it
                first = first or start
                last = seq
    finally:
        lines.close()
    if not first:
        return False
    ident, arc = _archive(journal)
    kept = _keep_copy(journal)
    if point:
        hdr = {"id": ident, "base": point, "first": first,
               "snap": _restart_point(journal, point)}
    else:
        hdr = {"id": ident, "base": 0 if first == 1 else last, "first": first, "snap": None}
    gap = None
    if 0 <= arc < first - 1:  # events between the archive and the first intact one: lost
        hdr["first"] = arc + 1
        gap = gap_line(arc + 1, first - 1, 0)
    journal._rewrite(hdr, last, gap)
    journal._read(False)
    journal.kept = kept
    if gap is not None:
        journal.lost = (arc + 1, first - 1)
    journal.status = "repaired" if point or first == 1 else "restarted"
    return True


def _archive(journal):
    # (the id in the header of the journal's archive, its last event): board.archive
    # continues the journal under its id. (A new id, -1) without an intact archive.
    from board.journal import _new_id
    from board.journal_codec import Lines

    st = journal.storage
    name = journal.name + ".arc"
    if st.size(name) is None:
        return _new_id(), -1
    f = Lines(st.open(name, "rb"), journal.max_bytes)
    try:
        line = f.next()
        j = check(line)
        if j != 11:  # the archive's header is damaged too
            return _new_id(), -1
        try:
            hdr = json_at(line, j)
            ident, last = hdr["id"], hdr["base"]
        except (ValueError, KeyError, TypeError):
            return _new_id(), -1
        while True:
            line = f.next()
            if not line:
                break
            j = check(line)
            if j and first_of(line, j, last_of(line, j)) == last + 1:
                last = last_of(line, j)
    finally:
        f.close()
    return (ident, last) if isinstance(ident, int) else (_new_id(), -1)


def _restart_point(journal, seq):
    # The snapshot of the restart point after event seq (scan() found it there).
    lines = journal._event_lines(True)
    try:
        for line, j, _ in lines:
            if j and seq_of(line, j, POINT) == seq:
                return json_at(line, j)
    finally:
        lines.close()


def _keep_copy(journal):
    # Copy the journal to a free name (the repair still reads it), a chunk at a time. None
    # when it cannot be kept (journal.unkept says why): the kept files' budget is spent, or
    # the flash is full; a copy begun is removed, never left empty or cut short.
    st = journal.storage
    kept = journal.kept_name(st.size(journal.name) or 0)
    if kept is None:
        return None
    try:
        _copy(st, journal.name, kept)
    except OSError as e:
        st.remove(kept)
        journal.unkept = "the damaged journal was not kept: the flash is full (%s)" % e
        return None
    return kept


def _copy(st, name, kept):
    src = st.open(name, "rb")
    try:
        out = st.open(kept, "wb")
        try:
            buf = bytearray(CHUNK)
            while True:
                n = src.readinto(buf)
                if not n:
                    break
                out.write(buf if n == CHUNK else buf[:n])
        finally:
            out.close()
    finally:
        src.close()
