# The WS2812 chain (board.hw.Leds) through MicroPython's neopixel: the renderer's RGB frame is
# copied into the driver's own buffer in the strip's colour order, no allocation per frame.

from machine import Pin
from neopixel import NeoPixel


class Rp2Leds:
    def __init__(self, pinmap):
        """pinmap: hardware/pinmap.json as loaded (gpio.led_data, leds.count, leds.order)."""
        leds = pinmap["leds"]
        self.count = leds["count"]
        self._np = NeoPixel(Pin(pinmap["gpio"]["led_data"]["pin"], Pin.OUT), self.count)
        order = leds.get("order", "GRB")
        # Where red, green and blue go within each LED's 3 bytes.
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")

    def show(self, rgb, scale=256):
        buf = self._np.buf
        r = self._r
        g = self._g
        b = self._b
        for i in range(0, 3 * self.count, 3):  # colour order and current cap in one pass
            buf[i + r] = rgb[i] * scale >> 8
            buf[i + g] = rgb[i + 1] * scale >> 8
            buf[i + b] = rgb[i + 2] * scale >> 8
        self._np.write()
