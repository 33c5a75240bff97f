r"""The journal of committed game events on flash: append-only, survives a power cut at any
instant, bounded in size. Works on any board.storage.FlashStorage-like object (read lines
from open(name, "rb"), append, open(name, "wb"), rename, remove).

On flash: one file (default "journal") of lines, each
    CCCCCCCC TAG JSON\n
CCCCCCCC is the CRC-32 of the bytes after it up to the newline (board.journal_codec writes
and reads them; this module decides what they hold):
  header (first line) TAG "h", JSON {"id": journal id, "base": B, "first": F,
                                     "snap": snapshot dict or null}
  event               TAG "e<seq>", JSON the event as given (its "seq" is the TAG's)
  restart point       TAG "s<seq>", JSON the snapshot after event seq (mark(): the board
                      writes one as each game begins)
  declared gap        TAG "g<last>", JSON [first, undone]: events first..last were lost to
                      damage (board.journal_repair); it stands in their place
The snapshot is the state after event B (null and B 0: the empty start). Events follow with
seq F, F+1, ... (F <= B + 1): those up to B are kept only for since(). A line that fails its
CRC (an append that failed or was cut off, ended by "!\n" before the next) is passed
over when the next intact line continues the sequence: it never held a committed event. An
intact line that breaks the sequence ends the journal; opening repairs the file so appends
never follow a broken line: a line one flipped bit from intact is put right, otherwise
the first restart point past the damage whose events all follow intact lets the journal go
on from there under the same id, the events before the damage kept and a declared gap for
the ones lost: the damage costs the events up to it (at most the game it lies in), not
everything after it (board.journal_repair).

Compaction replaces the file with a snapshot (the header's) and the last events, what it
drops going to the archive first (board.archive). The board's loop does it in small steps
(step(): board.compaction, a few lines a turn) once the file passes STEPWISE/8 of its
budget, appends and readers going on between the steps; past 3/4, append() does it at once
(compact(), abandoning one in steps), which holds the loop for all of it (a second on a
Pico for 32 KB).

Power cuts and failed writes: an append only adds at the end (a cut leaves at most a torn
last line, which the next append first ends with "!\n"); everything rewritten
(creation, compaction, repair) is written whole to
"journal.new", which then replaces the journal by an atomic rename. A leftover
"journal.new" is an unfinished rewrite and is removed on opening."""

import random

from board import journal_codec as codec

_NEW = ".new"
_BAD = ".bad"
_ENOSPC = 28
_EIO = 5
# Past STEPWISE/8 of max_bytes the board's loop compacts the journal a step a turn (step());
# past 6/8 (needs_compact) append() compacts it at once, holding the loop for all of it.
STEPWISE = 5
KEPT_BYTES = 65536  # the journals kept aside (damaged, or not replayable) take at most this


class Resync(Exception):
    """since(seq) cannot answer: the events after seq are no longer (or not) in the journal.
    first - 1 is the oldest seq since() accepts, last the newest event."""

    def __init__(self, first, last):
        super().__init__("journal has events %d..%d: resync" % (first, last))
        self.first = first
        self.last = last


def _repair():
    import board.journal_repair as repair  # the rare path: loaded only when needed

    return repair


def _new_id():
    return 100000000 + random.getrandbits(29)  # 9 digits: a header's size is fixed


class Journal:
    def __init__(self, storage, max_bytes=32768, keep=128, snapshot=None, name="journal"):
        """storage: a FlashStorage (or a directory name for one). max_bytes: the journal
        file never exceeds it (it compacts in steps from 5/8 of it, at once at 3/4, down to
        at most 1/2 and the events appended meanwhile; an event may take at most 1/4 and a
        snapshot at most 1/2). keep: compaction keeps the last keep events for since()
        (fewer if they would not fit in half the budget). snapshot: an optional function
        called when the journal must compact (inside append() after an event is on flash,
        or as step() begins one): it returns the state after the last event stored."""
        if isinstance(storage, str):
            from board.storage import FlashStorage

            storage = FlashStorage(storage)
        self.storage = storage
        self.name = name
        self.max_bytes = max_bytes
        self.keep = keep
        self.snapshot = snapshot  # board.controller.Controller sets its own
        self.compact_error = None  # why the last compaction (in append() or step()) failed
        self.archive = None  # board.archive.Archive sets itself: it keeps what compaction drops
        self.unkept = None
        self._stepper = None  # a compaction in steps under way (board.compaction.steps)
        self._step_failed = -1  # the last_seq at which one failed: tried again after it
        self.id = self.last_seq = self._base = self._size = 0
        self._first = 1
        try:
            self._open()
        except OSError as e:
            # A repair the flash has no room for (full: another tool's files): the board
            # still boots, on the intact events before the damage (read as they are:
            # since() stops at last_seq), and commits nothing until a repair can be
            # written (every append tries it again).
            self.unkept = "the journal is damaged and the flash is full (%s): nothing " \
                          "can be committed until room is made" % e

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

    @property
    def compacting(self):
        """A compaction in steps is under way (step())."""
        return self._stepper is not None

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
        return self._header()["snap"], self._events(self._base, 0, False)

    def _header(self):
        f = self._lines()
        try:
            line = f.next()
        finally:
            f.close()
        return codec.json_at(line, codec.check(line))

    def _events(self, after, limit, gaps=True):
        # With gaps, a declared gap after `after` is given in its place in the stream as
        # {"lost": [first, last], "undone": bool} (docs/protocol.md, `journal`).
        lines = self._event_lines()
        try:
            for line, j, seq in lines:
                if seq > self.last_seq:  # past a damaged line not yet repaired
                    return
                if seq > after:  # a failed append's line (seq -1) is passed over
                    event = codec.json_at(line, j)
                    if line[9] == codec.GAP:
                        if not gaps:
                            continue
                        event = {"lost": [event[0], seq], "undone": event[1] == 1}
                    else:
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
        # is not an event (a declared gap's seq is its last). Restart points are passed over unread unless points is true. The
        # file closes at the end, or when the caller closes this.
        f = self._lines()
        try:
            f.skip()
            while True:
                if not points and f.tag() == codec.POINT:
                    f.skip()
                    continue
                line = f.next()
                if not line:
                    return
                j = codec.check(line)
                yield line, j, codec.last_of(line, j) if j else -1
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
        line = codec.encode("e%d" % seq, event)
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
            size = codec.header_size(snap, tag)[0]
            if self._size + size > self.max_bytes:
                return False
            out = self.storage.open(self.name, "ab")
            try:
                self._torn = True  # until the whole line is written
                codec.write_header(out, snap, tag)
                out.flush()
                self._torn = False
            finally:
                out.close()
        except Exception:  # noqa: B902 - OSError, MemoryError: the event is stored anyway
            return False
        self._size += size
        return True

    def step(self):
        """One step of a compaction in steps (board.compaction), for the board's loop to call
        each turn: one begins past STEPWISE/8 of max_bytes (with snapshot(), so not without
        it), long before append() would compact at once. A step reads at most
        board.compaction.STEP_LINES lines and writes them at most once. A failure leaves
        the journal as it was; it is kept in compact_error and tried again after the next
        append. Returns whether one is under way."""
        if self._stepper is None and (self._size * 8 <= self.max_bytes * STEPWISE or
                                      self.last_seq == self._step_failed or
                                      self.snapshot is None or self._broken):
            return False  # (the loop's usual turn: no frame with a handler from the heap)
        return self._step()

    def _step(self):
        stepper = self._stepper
        try:
            if stepper is None:
                snapshot = self.snapshot
                if snapshot is None:  # (step() saw to it; for the type checker)
                    return False
                from board.compaction import steps  # (the Pico's main.py loads it at boot)

                stepper = self._stepper = steps(self, snapshot())
            next(stepper)
            return True
        except StopIteration:
            self._stepper = None
            self.compact_error = None
        except Exception as e:  # noqa: B902 - OSError, MemoryError: the journal stays as it was
            self.compact_error = e
            self._step_failed = self.last_seq
            try:
                self._abandon()
            except Exception:  # noqa: B902 - a leftover journal.new: removed on opening
                pass
        return False

    def _abandon(self):
        # A compaction in steps under way stops: journal.new is closed and removed.
        stepper = self._stepper
        if stepper is None:
            return
        self._stepper = None
        try:
            stepper.close()  # its file closes (the generator's finally)
        except Exception:  # noqa: B902 - it is removed all the same
            pass
        self.storage.remove(self.name + _NEW)

    def compact(self, snapshot):
        """Replace the journal with snapshot (the state after event last_seq) and the most
        recent events (up to keep), atomically, at once (a compaction in steps under way is
        abandoned)."""
        self._abandon()
        if self._broken:
            self._open()
        last = self.last_seq
        hdr = {"id": self.id, "base": last, "first": last + 1, "snap": snapshot}
        room = self.max_bytes // 2 - codec.header_size(hdr)[0]
        if room < 0:
            raise ValueError("snapshot too large")
        # Of the last keep events, the most recent that fit: all of them, then the oldest
        # dropped until the rest fit (two reads instead of a list of their sizes). A
        # declared gap is kept or dropped whole, as one line.
        total = 0
        for line, j, seq in self._event_lines():
            if seq > 0 and seq > last - self.keep:
                if not total:
                    hdr["first"] = codec.first_of(line, j, seq)
                total += len(line)
        if total > room:
            lines = self._event_lines()
            try:
                for line, j, seq in lines:
                    if seq > 0 and seq > last - self.keep:
                        total -= len(line)
                        hdr["first"] = seq + 1
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
        self._abandon()  # read again, perhaps rewritten: what it had found no longer holds
        self._step_failed = -1
        self._broken = True
        self._torn = False
        self._read()
        self._broken = False

    def _mend(self):
        # After a failed append: whatever part of its line reached the flash is ended, so
        # that the next line starts whole (two bytes more, not a rewrite). Not with a bare
        # newline: a line cut just before its newline would then read as intact.
        self.storage.append(self.name, codec.MEND)
        self._size = self.storage.size(self.name) or 0
        self._torn = False

    def _read(self, correct=True):
        """Read the journal, repairing a torn or corrupt end; status tells what was found:
        "ok", "new" (no journal), "corrected" (lines with one flipped bit put right: nothing
        lost), "repaired" (dropped bytes were cut off the end, or a torn last line ended; a
        declared gap for lost events; a damaged header rebuilt), "restarted" (a damaged
        header rebuilt without a state to resume: the events are kept, the board starts
        without a match) or
        "corrupt" (unreadable: started empty, the old file kept as self.kept: <name>.bad,
        or .bad-2, .bad-3... when earlier ones are still there)."""
        st = self.storage
        name = self.name
        self.dropped = 0
        self.kept = None  # where an unreadable or damaged journal was set aside
        self.unkept = None  # why a damaged journal could not be kept aside, if it could not
        self.lost = None  # (first, last) seq of committed events a damaged line cut off
        self.undone = False  # lost: the state after them is the one before them
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
        damaged = False  # a whole line failed its check: not a failed append (MEND ends those)
        bad = 0  # such lines after the last event, restart points left out
        tagged = -1  # the newest seq their TAGs spell (two lines run together: two events)
        gap = None  # the last declared gap read, while nothing follows it
        try:
            line = f.next()
            hdr = self._parse_header(line)
            damaged = hdr is None and len(line) > 0
            if hdr is not None:
                hdr["snap"] = None  # not held through the scan: a repair reads it again
                size = len(line)
                last = hdr["first"] - 1
                passed = 0  # lines not intact since the last event: kept if one follows
                torn = False
                while True:
                    if f.tag() == codec.POINT:  # a restart point: kept, passed over unread (a
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
                    j = codec.check(line)
                    if not j:
                        passed += len(line)
                        torn = line[-1] != 10
                        if not torn and len(line) > 12 and line[-2] != 33:
                            damaged = True  # not a failed append: MEND ends those
                            if line[9] != codec.POINT:
                                bad += 1  # an event's line, it seems (a point is a spare)
                            tagged = max(tagged, codec.newest_tag(line))
                        continue
                    seq = codec.seq_of(line, j)
                    gap = None
                    if seq != last + 1:
                        seq = codec.last_of(line, j)
                        if seq < 0 or codec.first_of(line, j, seq) != last + 1:
                            break  # an intact line out of sequence: the journal ends before it
                        gap = (last + 1, seq, codec.json_at(line, j)[1])  # an earlier repair's
                    last = seq
                    size += passed + len(line)
                    passed = 0
                    bad = 0
                    tagged = -1
                    torn = False
                if correct and (line or damaged):  # a damaged line: correct it if one bit
                    pass  # flipped (the rare path, loaded only now), after closing the file
                elif line:  # damage: the rare path, loaded only now
                    found = _repair().scan(f, line, last, hdr["base"])
                    self.dropped = passed + found[0]
                elif bad or tagged > last:  # damaged lines end it: events, lost (the state
                    found = (0, max(last + bad, tagged), 0, 0)  # is the last's)
                    self.dropped = passed
                else:  # only failed appends after the last event: ended, kept
                    size += passed
                    self._torn = torn
                    if torn:
                        self.status = "repaired"
        finally:
            f.close()
        if correct and (line or damaged):
            if _repair().correct(self):
                self.status = "corrected"
                self._read(False)
                if self.status == "ok":
                    self.status = "corrected"
                return
            self._read(False)  # nothing to correct: repaired as it is
            return
        if hdr is None:
            if damaged and _repair().rebuild(self):  # a damaged header, intact events after it
                return
            self.status = "corrupt"
            self.kept = self._keep_aside()
            self._create()
            return
        if gap is not None and last == gap[1]:  # the journal ends in a gap: still news
            self.lost = gap[:2]
            self.undone = gap[2] == 1
        self.id = hdr["id"]
        self._base = hdr["base"]
        self._first = hdr["first"]
        self._size = size
        self.last_seq = last
        if last < self._base:  # events folded into the snapshot are gone: a gap for them
            self.dropped += 1
        if self.dropped:
            self.status = "repaired"
            _repair().mend(self, last, found)

    def set_aside(self):
        """Keep the journal as it is under a name of its own (it will not replay) and start
        an empty one with a new id. Returns the kept file's name."""
        kept = self._keep_aside()
        self.last_seq = self._base = self._size = 0
        self._first = 1
        try:
            self._open()  # finds none: a new journal
        except OSError as e:  # no room for it: made at the first append that has room
            self.unkept = "the flash is full (%s): nothing can be committed until room " \
                          "is made" % e
        self.kept = kept
        return kept

    def _keep_aside(self):
        # Rename the journal to a free name: <name>.bad, then .bad-2, .bad-3...; every one
        # is kept (never overwritten) until the host has fetched it. Returns the name, or
        # None when the kept files' budget is spent: then the journal is removed and unkept
        # says why (the oldest kept files stay, as the archive keeps its oldest).
        kept = self.kept_name(self.storage.size(self.name) or 0)
        if kept is None:
            self.storage.remove(self.name)
            return None
        self.storage.rename(self.name, kept)
        return kept

    def kept_name(self, size):
        """A free name to keep a damaged journal of size bytes under, or None (unkept says
        why) when the kept journals would take more than KEPT_BYTES."""
        prefix = self.name + _BAD
        used = size
        for n in self.storage.names():
            if n.startswith(prefix):
                used += self.storage.size(n) or 0
        if used > KEPT_BYTES:
            self.unkept = "not kept: the kept journals would take over %d KB (bgboard " \
                          "kept fetches and frees them)" % (KEPT_BYTES // 1024)
            return None
        return self._free_name()

    def _free_name(self):
        n = 1
        while True:
            kept = self.name + _BAD + ("-%d" % n if n > 1 else "")
            if self.storage.size(kept) is None:
                return kept
            n += 1

    def _lines(self):
        return codec.Lines(self.storage.open(self.name, "rb"), self.max_bytes)

    def _parse_header(self, line):
        j = codec.check(line)
        if j != 11 or line[9] != 104:  # "h"
            return None
        try:
            hdr = codec.json_at(line, j)
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

    def _rewrite(self, hdr, upto, gap=None):
        """Write hdr and the current events hdr["first"]..upto to a new file that then
        replaces the journal. gap: a declared gap's line, or adjacent ones (journal_repair),
        put in where its first event is due, standing for the events it covers."""
        st = self.storage
        tmp = self.name + _NEW
        expect = hdr["first"]
        if gap is not None:
            line = gap[gap.rfind(b"\n", 0, len(gap) - 1) + 1:]
            gap_last = codec.last_of(line, codec.check(line))
            line = gap[:gap.find(b"\n") + 1]
            gap_first = codec.first_of(line, codec.check(line), 0)
        out = st.open(tmp, "wb")
        try:
            size = codec.write_header(out, hdr)
            if upto >= expect:
                lines = self._event_lines()
                try:
                    for line, j, seq in lines:
                        if gap is not None and seq >= expect == gap_first:
                            out.write(gap)
                            size += len(gap)
                            expect = gap_last + 1
                            gap = None
                            if expect > upto:
                                break
                        if seq < expect:
                            continue  # a failed append's line (-1), or one before: left out
                        first = codec.first_of(line, j, seq)
                        if first > expect:
                            break
                        if first < expect:  # a gap that begins before: it now begins here
                            line = codec.gap_line(expect, seq, codec.json_at(line, j)[1])
                        out.write(line)
                        size += len(line)
                        expect = seq + 1
                        if expect > upto:
                            break
                finally:
                    lines.close()
                if gap is not None and expect == gap_first:
                    out.write(gap)  # the damage ran to the end: the gap ends the journal
                    size += len(gap)
                    expect = gap_last + 1
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
