# The USB serial link (board.hw.SerialLink) over MicroPython's stdin/stdout: lines read
# without blocking, by the contract's line reader (bgwire.lines: one buffer, MAX_LINE + 1
# bytes, allocated once). The REPL's Ctrl-C stays on, so mpremote can always interrupt the
# firmware to update it.

import io
import select
import sys

from bgwire.lines import LineReader


class UsbLink(io.IOBase):
    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._reader = LineReader()

    def readline(self):
        """A complete line (bytes, without its newline) if one has arrived, else None. An
        overlong line comes back cut to MAX_LINE + 1 bytes, which the protocol refuses."""
        stdin = sys.stdin.buffer  # type: ignore[attr-defined]
        take = self._reader.take
        while self._poll.poll(0):
            c = stdin.read(1)
            if not c:
                return None
            line = take(c[0])
            if line is not None:
                return line
        return None

    def write(self, data):
        sys.stdout.write(data)
        return len(data)
