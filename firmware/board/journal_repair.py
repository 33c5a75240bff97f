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
        journal.id = _new_id()
        snap = (journal._header()["snap"] if restart == journal._base
                else _restart_point(journal, restart))
        journal._rewrite({"id": journal.id, "base": restart, "first": restart + 1,
                          "snap": snap}, upto)
        return
    hdr = journal._header()
    hdr["first"] = journal._first
    if newest > last:  # committed events are cut off: a new timeline, and the
        journal.lost = (last + 1, newest)  # damaged file kept as it was
        journal.kept = _keep_copy(journal)
        journal.id = hdr["id"] = _new_id()
    journal._rewrite(hdr, max(last, journal._base))


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
    # Copy the journal to a free name (the repair still reads it), a chunk at a time.
    st = journal.storage
    kept = journal._free_name()
    src = st.open(journal.name, "rb")
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
    return kept
