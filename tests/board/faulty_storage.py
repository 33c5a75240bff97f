# A FlashStorage whose power fails at a chosen step, for power-cut tests (CPython and
# MicroPython). Steps, counted in order: each file opened for writing (created or
# truncated), each byte written, each rename, each remove of an existing file. With
# cut_at=N the first N steps happen and the next raises PowerCut, leaving the files as a
# real cut would: the bytes written so far are on disk (a write is cut in the middle), no
# later rename or remove happens. After the cut every further write step raises again (the
# board is off). Reading is not a step. A clean run (cut_at=-1) counts its steps in .steps.
# Beside it: FailingStorage (writes that fail, the board powered), FullFlash (a full flash)
# and Metered (what is read and written, counted: a compaction's steps).
from board.storage import FlashStorage


class PowerCut(BaseException):
    """Not an Exception: code under test must not catch and survive it."""


class FaultyStorage(FlashStorage):
    def __init__(self, root, cut_at=-1):
        super().__init__(root)
        self.cut_at = cut_at
        self.steps = 0

    def _step(self):
        if 0 <= self.cut_at <= self.steps:
            self._fail("")
        self.steps += 1

    def _fail(self, where):
        raise PowerCut("power cut at step %d%s" % (self.steps, where))

    def open(self, name, mode="rb"):
        if "r" in mode:
            return super().open(name, mode)
        self._step()
        return _File(self, super().open(name, mode))

    def rename(self, old, new):
        self._step()
        super().rename(old, new)

    def remove(self, name):
        if self.size(name) is None:
            return
        self._step()
        super().remove(name)


class _File:
    def __init__(self, storage, f):
        self._st = storage
        self._f = f

    def write(self, data):
        st = self._st
        room = len(data) if st.cut_at < 0 else st.cut_at - st.steps
        if room < len(data):
            if room > 0:
                self._f.write(data[:room])
                st.steps += room
            self._f.flush()
            st._fail(" (in a write)")
        self._f.write(data)
        st.steps += len(data)
        return len(data)

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


class FailingStorage(FaultyStorage):
    """A flash whose writes fail now and then with OSError 28 (full, or a worn block), the
    board staying powered: the step at which one fails (counted as above; a write may fail
    in its middle, leaving a part of its bytes) raises, and the next steps work until the
    next failure. fail_next() makes the next step fail; with rng (randint) and span, a
    failure comes every 1..span steps at random. failures counts them."""

    def __init__(self, root, rng=None, span=0):
        super().__init__(root)
        self.rng = rng
        self.span = span
        self.failures = 0
        self._arm()

    def _arm(self):
        self.cut_at = self.steps + self.rng.randint(1, self.span) if self.rng else -1

    def fail_next(self):
        self.cut_at = self.steps

    def _fail(self, where):
        self.failures += 1
        self._arm()
        raise OSError(28, "no space at step %d%s" % (self.steps, where))


class FullFlash(FlashStorage):
    """A flash of `room` bytes more than its folder holds when made (as a Pico's filled by
    another tool's files): a write past it raises OSError 28 after the bytes that fit, as a
    full littlefs does. make_room(n) frees n bytes (the junk file removed)."""

    def __init__(self, root, room=0):
        super().__init__(root)
        self.capacity = self._used() + room

    def _used(self):
        return sum(self.size(n) or 0 for n in self.names())

    def make_room(self, n):
        self.capacity += n

    def open(self, name, mode="rb"):
        f = super().open(name, mode)
        return f if "r" in mode else _Bounded(self, f)


class _Bounded:
    def __init__(self, flash, f):
        self._flash = flash
        self._f = f

    def write(self, data):
        self._f.flush()
        room = self._flash.capacity - self._flash._used()
        if room < len(data):
            if room > 0:
                self._f.write(data[:room])
            raise OSError(28, "no space left on the flash")
        return self._f.write(data)

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()


class Metered(FlashStorage):
    """Counts what a step reads and writes: the files opened to read, the bytes read, the
    lines written (newlines, to journal.new and journal.arc alike)."""

    def __init__(self, root):
        FlashStorage.__init__(self, root)
        self.reset()

    def reset(self):
        self.opened = self.bytes_read = self.lines = 0

    def open(self, name, mode="rb"):
        f = FlashStorage.open(self, name, mode)
        if "r" in mode:
            self.opened += 1
        return _Metered(self, f)

    def longest(self, name):
        """The file's longest line: a compaction's step reads at most STEP_LINES of them,
        each twice at most (board.journal_codec.Lines: measured, then read whole)."""
        from board.journal_codec import Lines

        r = Lines(FlashStorage.open(self, name, "rb"), 1 << 16)
        try:
            n = 0
            while True:
                line = r.next()
                if not line:
                    return n
                n = max(n, len(line))
        finally:
            r.close()


class _Metered:
    def __init__(self, st, f):
        self._st = st
        self._f = f

    def readinto(self, buf):
        n = self._f.readinto(buf)
        self._st.bytes_read += n or 0
        return n

    def seek(self, at):
        return self._f.seek(at)

    def read(self, n=-1):  # FlashStorage.read (an App's calibration)
        data = self._f.read(n)
        self._st.bytes_read += len(data)
        return data

    def write(self, data):
        self._st.lines += bytes(data).count(b"\n")
        return self._f.write(data)

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()
