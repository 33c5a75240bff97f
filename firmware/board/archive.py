"""The events a journal's compaction drops, kept on flash until the host has them: a day of
play without the host is not forgotten (the journal itself keeps only its last events).

The file ("journal.arc") is a journal of its own (board.journal's lines, no snapshot):
header {"id": the journal's id, "base": B, "first": B + 1, "snap": null}, then events
B+1, B+2, ... byte for byte as the journal held them. Compaction appends the events it is
about to drop (before the journal is rewritten: a power cut between leaves them in both,
never in neither); in steps (board.compaction), a step's lines at a time, each counted in
once written and closed, so that the host's reads and acks go on between them. The host's
"ack" of seq N (bgboard log, once they are on its disk) rewrites the file without the events
up to N.

Full: compaction cannot drop what the archive cannot take, so the journal fills and the
board refuses actions until the host takes the archive. Before that, a new match is
refused (board.controller) while less than 1/RESERVE of the archive is free (at least a
whole journal, what one compaction may drop; at most half): the match in play can finish.
An archive left by another journal (its id differs) is kept aside like a damaged journal
(journal.bad-N, for `bgboard kept`) and a new one begins."""

from board.journal import _EIO, Journal, Resync

RESERVE = 8  # a new match needs 1/RESERVE of the archive free: room to finish it
_ENOSPC = 28


class Archive(Journal):
    def __init__(self, journal, max_bytes):
        """journal: the board.journal.Journal whose dropped events this keeps; max_bytes:
        the archive file never exceeds it."""
        self._owner = journal
        Journal.__init__(self, journal.storage, max_bytes, 0, None, journal.name + ".arc")
        journal.archive = self
        try:
            self.ready()
        except OSError:  # a full flash: the board boots; ready() tries again when asked
            self._broken = True

    @property
    def full(self):
        """No room for a new match: the host must take the archive first."""
        m = self.max_bytes
        reserve = min(max(m // RESERVE, self._owner.max_bytes), m // 2)
        return self._size + reserve > m

    # -- its owner's since() and first_seq, when they reach back into the archive -----------
    def first_seq_of_both(self):
        owner = self._owner
        return self._first if self.ready() and self._first < owner._first else owner._first

    def since_of_both(self, seq, limit):
        """The archive's events after seq, then its journal's after the archive's last (a
        power cut in a compaction may leave some in both); Resync if seq is older."""
        owner = self._owner
        if not self.ready() or seq < self._first - 1:
            raise Resync(owner.first_seq, owner.last_seq)
        return self._both(seq, limit)

    def _both(self, seq, limit):
        for event in self._events(seq, limit):
            yield event
            limit -= 1
            if limit == 0:
                return
        for event in self._owner._events(max(seq, self.last_seq), limit):
            yield event

    def no_room(self):
        """Why a new match is refused (the archive has no room to finish one), or None."""
        if self.full:
            return ("the archive of past matches is full (%d KB): connect the host and run "
                    "bgboard log before a new match" % (self._size // 1024))
        return None

    def ready(self):
        """Whether the archive continues its journal (opened again after a failed write; a
        new one begun, the old one kept aside, if the journal's id changed)."""
        if self._broken:
            self._open()
        owner = self._owner
        if self.id != owner.id or self.last_seq < owner._first - 1:
            if self.last_seq >= self._first:  # events the host may not have: keep them
                self.kept = self._keep_aside()
            self._create()
        return self.last_seq >= owner._first - 1

    def take(self, first):
        """Append the journal's events before `first` that are not here yet; OSError 28
        (nothing written) if they do not fit."""
        if not self.ready():
            return
        last = self.last_seq
        total = 0
        for line, j, seq in self._owner._event_lines():
            if last < seq < first:
                total += len(line)
        if total == 0:
            return
        self.room_for(total)
        out = self.writer(last)
        try:
            lines = self._owner._event_lines()
            try:
                for line, j, seq in lines:
                    if last < seq < first:
                        out.write(line)
                        last = seq
            finally:
                lines.close()
        finally:
            out.close()
        self.put(last, total)

    # -- a take in parts (board.compaction: a step's lines at a time) --------------------------
    def room_for(self, total):
        """Before a take: a torn line a failed one left is ended; OSError 28 (nothing more
        written) if total more bytes do not fit."""
        if self._torn:
            self._mend()
        if self._size + total > self.max_bytes:
            raise OSError(_ENOSPC, "the archive is full (%d of %d bytes): connect the host "
                          "and run bgboard log" % (self._size, self.max_bytes))

    def writer(self, last):
        """The file opened to append lines after event `last`: once they are written and it
        is closed, put() counts them in. OSError 5 if the archive no longer ends at last (a
        part that failed: ready() reads it again)."""
        if self._broken or self.last_seq != last:
            raise OSError(_EIO)
        self._broken = True  # until the lines are written: read again if one fails
        return self.storage.open(self.name, "ab")

    def put(self, last, n):
        """writer()'s lines, n bytes up to event last, are on flash."""
        self.last_seq = last
        self._size += n
        self._broken = False

    def trim(self, upto):
        """The host has every event up to `upto`: drop those kept here."""
        if not self.ready():
            return
        base = min(upto, self.last_seq)
        if base >= self._first:
            self._rewrite({"id": self.id, "base": base, "first": base + 1, "snap": None},
                          self.last_seq)

    # -- a journal of its own, named after its owner ------------------------------------------
    def _create(self):
        self.id = self._owner.id
        base = self._owner._first - 1
        self._rewrite({"id": self.id, "base": base, "first": base + 1, "snap": None}, base)

    def _free_name(self):
        return self._owner._free_name()  # journal.bad-N: `kept` lists them all

    def kept_name(self, size):
        # Past matches the host may not have: kept whatever the damaged journals' budget.
        return self._free_name()
