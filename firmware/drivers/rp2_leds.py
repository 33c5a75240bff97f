"""The WS2812 chain (board.hw.Leds) through MicroPython's neopixel: the renderer's RGB frame is
copied into the driver's own buffer in the strip's colour order, no allocation per frame.
The CPU bit-bangs the frame (4.6 ms for 152 LEDs, the caller waits): the fallback for ports
without PIO (an ESP32's neopixel uses its RMT) or a pin map's leds "driver": "neopixel";
drivers/pio_leds.py sends it in the background.
Like neopixel itself it takes the data pin (a machine.Pin, from main.py), the number of
LEDs and their colour order (hardware/pinmap.json's "leds")."""

import micropython
from neopixel import NeoPixel


class Rp2Leds:
    def __init__(self, pin, count, order="GRB"):
        """pin: the chain's data line (machine.Pin); count: LEDs on it; order: the colour
        order of each LED's 3 bytes on the wire."""
        self.count = count
        self._np = NeoPixel(pin, count)
        # Where red, green and blue go within each LED's 3 bytes.
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")

    def show(self, rgb, scale=256):
        _copy(self._np.buf, rgb, 3 * self.count, self._r, self._g, self._b, scale)
        self._np.write()


@micropython.viper
def _copy(dst, src, n: int, r: int, g: int, b: int, scale: int):
    # Colour order and current cap in one pass: 0.2 ms for 152 LEDs on an RP2040, where
    # the same loop in bytecode took 4.7 ms (as long as sending the frame).
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < n:
        d[i + r] = (s[i] * scale) >> 8
        d[i + g] = (s[i + 1] * scale) >> 8
        d[i + b] = (s[i + 2] * scale) >> 8
        i += 3
