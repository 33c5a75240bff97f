"""The rare path of board.journal: a journal found damaged when it is opened (a line that
fails its CRC with intact events after it). Imported only then, so a board's heap does
not hold this code in play.

The damage costs the events up to the first restart point past it that every later event
follows (the header's snapshot if the damage lies in the events before it): the journal
goes on from there under a new id. With no such point it ends before the damage, as a
journal cut short, and its next events reuse the lost seqs under a new id. Either way the
damaged file is kept as it was (<name>.bad-N) and `lost` names the events it cost."""

from board.journal import _new_id
from board.journal_codec import CHUNK, POINT, check, json_at, seq_of


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
            seq = seq_of(line, j)
            point = seq_of(line, j, POINT)
            if point > last and point >= newest and not restart:
                restart = upto = point  # the first: the fewest events lost
            elif seq > 0:
                if seq > upto:
                    if seq != upto + 1:
                        restart = 0  # a gap after it (or none yet)
                    upto = seq
                newest = max(newest, seq)
        line = f.next()
    return dropped, newest, restart, upto


def mend(journal, last, found):
    """Rewrite the damaged journal (last: its last event before the damage; found: scan()'s
    answer) and say what it cost in journal.lost and journal.kept."""
    _, newest, restart, upto = found
    if restart:  # go on from the restart point
        journal.lost = (last + 1, restart)
        journal.kept = _keep_copy(journal)
        new = _new_id()  # the journal's once it is rewritten (a full flash may refuse it)
        snap = (journal._header()["snap"] if restart == journal._base
                else _restart_point(journal, restart))
        journal._rewrite({"id": new, "base": restart, "first": restart + 1,
                          "snap": snap}, upto)
        journal.id = new
        return
    hdr = journal._header()
    hdr["first"] = journal._first
    if newest > last:  # committed events are cut off: a new timeline, and the
        journal.lost = (last + 1, newest)  # damaged file kept as it was
        journal.kept = _keep_copy(journal)
        hdr["id"] = _new_id()
    journal._rewrite(hdr, max(last, journal._base))
    journal.id = hdr["id"]


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
