# The USB serial link (board.hw.SerialLink) over MicroPython's stdin/stdout: lines read
# without blocking into a preallocated buffer. The REPL's Ctrl-C stays on, so mpremote can
# always interrupt the firmware to update it.

import io
import select
import sys

MAX_LINE = 2048


class UsbLink(io.IOBase):
    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._buf = bytearray(MAX_LINE)
        self._n = 0

    def readline(self):
        """A complete line (bytes, without its newline) if one has arrived, else None. An
        overlong line comes back as its first MAX_LINE bytes, which the protocol refuses."""
        stdin = sys.stdin.buffer  # type: ignore[attr-defined]
        while self._poll.poll(0):
            c = stdin.read(1)
            if not c:
                return None
            if c == b"\n":
                line = bytes(self._buf[:self._n])
                self._n = 0
                return line
            if c[0] < 32:
                continue  # a terminal's \r, a REPL's Ctrl-B: never part of a JSON line
            if self._n < MAX_LINE:
                self._buf[self._n] = c[0]
                self._n += 1
        return None

    def write(self, data):
        sys.stdout.write(data)
        return len(data)
