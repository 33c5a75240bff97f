"""The six buttons (board.hw.Buttons), polled and debounced: a press counts once its level has
held for DEBOUNCE_MS. It takes its buttons from main.py as a table: (machine.Pin input, its
bit as the contract numbers them (bgwire), the level it reads while pressed), each Pin set
up with its pull as the board is wired (hardware/pinmap.json)."""

import time

DEBOUNCE_MS = 30


class Rp2Buttons:
    def __init__(self, buttons):
        """buttons: (pin, bit, active) for each button; pin.value() == active while held."""
        # Each pin's value method bound once (polled 100 times a second; on the emulated
        # RP2040 a poll of the six costs 0.15 ms either way: the calls are the cost).
        self._buttons = [(pin.value, bit, active) for pin, bit, active in buttons]
        self._stable = 0  # mask of buttons held down, debounced
        self._seen = 0  # mask read last time
        self._since = time.ticks_ms()
        self._pressed = 0

    def _poll(self):
        now = 0
        for value, bit, active in self._buttons:
            if value() == active:
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
