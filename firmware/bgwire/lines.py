"""The line reader both ends' serial links use (drivers/usb_link.py on a Pico, the virtual
board's stdio link): bytes in, one at a time, complete lines out, in a buffer allocated once.

- A line is what comes before a newline (0x0A), without it.
- Other bytes below 0x20 are dropped: a terminal's \\r, mpremote's Ctrl-B after a reset, a
  NUL. (Ctrl-C never gets here: it interrupts the firmware first.)
- A line longer than `limit` bytes is handed on as its first limit + 1 bytes, so the
  protocol refuses it as too long; the rest of it up to its newline is dropped and counted
  in `overlong`. The next line starts clean.
- Bytes are not decoded here: invalid UTF-8 is the parser's to refuse.
"""

from bgwire import MAX_LINE


class LineReader:
    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self._buf = bytearray(limit + 1)
        self._n = 0
        self.overlong = 0  # lines cut short since start

    def take(self, c):
        """Take one byte (an int); the line (bytes) when c ends one, else None."""
        if c == 10:
            n = self._n
            self._n = 0
            if n > self.limit:
                self.overlong += 1
            return bytes(self._buf[:n])
        if c < 32:
            return None
        n = self._n
        if n <= self.limit:
            self._buf[n] = c
            self._n = n + 1
        return None

    def pending(self):
        """Bytes of the line begun so far (at most limit + 1)."""
        return self._n
