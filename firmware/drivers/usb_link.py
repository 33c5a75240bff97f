"""The USB serial link (board.hw.SerialLink) over MicroPython's stdin/stdout: lines read
without blocking, by the contract's line reader (bgwire.lines: one buffer, MAX_LINE + 1
bytes, allocated once). The REPL's Ctrl-C stays on, so mpremote can always interrupt the
firmware to update it. Nothing here allocates while no byte arrives: poll() would make a
list at every call (100 a second from the serial task), each a collection's work later."""

import io
import select
import sys

from bgwire.lines import LineReader


class UsbLink(io.IOBase):
    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._take = LineReader().take  # bound once: binding it allocates
        self._byte = bytearray(1)
        # Where the protocol's json.dump writes: the native stream itself, not write()
        # below, which would cost a Python call and a string per piece (a state reply took
        # 63 ms of a Pico's time that way, 29-34 ms now, most of it building the state).
        self.out = sys.stdout

    def _waiting(self):
        for _ in self._poll.ipoll(0):  # ipoll reuses its tuple
            return True
        return False

    def readline(self):
        """A complete line (bytes, without its newline) if one has arrived, else None. An
        overlong line comes back cut to MAX_LINE + 1 bytes, which the protocol refuses."""
        if not self._waiting():
            return None  # the usual case, 200 times a second
        stdin = sys.stdin.buffer  # type: ignore[attr-defined]
        take = self._take
        byte = self._byte
        while True:
            if not stdin.readinto(byte):
                return None
            line = take(byte[0])
            if line is not None or not self._waiting():
                return line

    def write(self, data):
        sys.stdout.write(data)
        return len(data)
