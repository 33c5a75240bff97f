# The six buttons (board.hw.Buttons), polled and debounced: a press counts once its level has
# held for DEBOUNCE_MS. Bits as the contract numbers them (bgwire).

import time

from bgwire import DOUBLE, DROP, MENU, ROLL, TAKE, UNDO
from machine import Pin

DEBOUNCE_MS = 30
# Pin map name (hardware/pinmap.json) -> bit.
BITS = (("roll", ROLL), ("double", DOUBLE), ("take", TAKE), ("drop", DROP),
        ("undo_verify", UNDO), ("menu", MENU))


class Rp2Buttons:
    def __init__(self, pinmap):
        buttons = pinmap["gpio"]["buttons"]
        self._pins = []
        self._active = []
        for name, bit in BITS:
            b = buttons[name]
            pull = Pin.PULL_UP if b.get("pull") == "up" else Pin.PULL_DOWN
            self._pins.append((Pin(b["pin"], Pin.IN, pull), bit))
            self._active.append(b.get("active", 0))
        self._stable = 0  # mask of buttons held down, debounced
        self._seen = 0  # mask read last time
        self._since = time.ticks_ms()
        self._pressed = 0

    def _poll(self):
        now = 0
        for i in range(len(self._pins)):
            pin, bit = self._pins[i]
            if pin.value() == self._active[i]:
                now |= bit
        t = time.ticks_ms()
        if now != self._seen:
            self._seen = now
            self._since = t
        elif now != self._stable and time.ticks_diff(t, self._since) >= DEBOUNCE_MS:
            self._pressed |= now & ~self._stable  # newly down
            self._stable = now

    def pressed(self):
        """Bit mask of the buttons pressed since the last call."""
        self._poll()
        mask = self._pressed
        self._pressed = 0
        return mask
