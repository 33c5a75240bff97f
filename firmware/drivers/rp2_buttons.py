# The six buttons (board.hw.Buttons), polled and debounced: a press counts once its level has
# held for DEBOUNCE_MS. It takes its buttons from main.py as a table: (machine.Pin input, its
# bit as the contract numbers them (bgwire), the level it reads while pressed), each Pin set
# up with its pull as the board is wired (hardware/pinmap.json).

import time

DEBOUNCE_MS = 30


class Rp2Buttons:
    def __init__(self, buttons):
        """buttons: (pin, bit, active) for each button; pin.value() == active while held."""
        self._pins = [(pin, bit) for pin, bit, _ in buttons]
        self._active = [active for _, _, active in buttons]
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
