"""Simulated LEDs, buttons and serial link (board.hw interfaces) for the virtual board and
the tests."""

import io


class SimLeds:
    """A WS2812 chain whose shown frame can be read back: shown[3 * i:3 * i + 3] is LED i's
    (red, green, blue)."""

    def __init__(self, n):
        self.shown = bytearray(3 * n)
        self.frames = 0

    def show(self, rgb, scale=256):
        self.shown[:] = rgb
        if scale != 256:
            shown = self.shown
            for i in range(len(shown)):
                shown[i] = shown[i] * scale >> 8
        self.frames += 1

    def pixel(self, i):
        return tuple(self.shown[3 * i:3 * i + 3])


class SimButtons:
    """Buttons pressed by whoever holds this object (press(mask))."""

    def __init__(self):
        self._mask = 0

    def press(self, mask):
        self._mask |= mask

    def pressed(self):
        mask = self._mask
        self._mask = 0
        return mask


class LineLink(io.IOBase):
    """A serial link in memory: `feed` lines in; `sent` holds the lines written out (bytes,
    without their newline), however the writer split them. A stream (io.IOBase), so that
    json.dump can write to it on MicroPython."""

    def __init__(self):
        self.incoming = []
        self.sent = []
        self._partial = bytearray()

    def feed(self, line):
        self.incoming.append(line)

    def readline(self):
        return self.incoming.pop(0) if self.incoming else None

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        for b in data:
            if b == 10:
                self.sent.append(bytes(self._partial))
                self._partial = bytearray()
            else:
                self._partial.append(b)
        return len(data)
