"""The RP2040's watchdog (board.hw.Watchdog). machine.WDT cannot be stopped once started, but
the chip can: a host that interrupts the firmware to flash it (mpremote's Ctrl-C) must not
be reset in the middle of the copy, so stop() clears the enable bit (RP2040 datasheet,
WATCHDOG CTRL at 0x40058000, ENABLE bit 30; +0x3000 is the register's atomic clear alias)."""

import machine

_CTRL_CLEAR = 0x40058000 + 0x3000
_ENABLE = 1 << 30
_MAX_MS = 8388  # the RP2040's longest timeout


class Rp2Watchdog:
    def __init__(self):
        self._wdt = None
        self._cause = machine.reset_cause()

    def start(self, timeout_ms):
        self._wdt = machine.WDT(timeout=min(timeout_ms, _MAX_MS))

    def feed(self):
        self._wdt.feed()  # type: ignore[union-attr]  # start() comes first

    def stop(self):
        machine.mem32[_CTRL_CLEAR] = _ENABLE

    def caused_reset(self):
        return self._cause == machine.WDT_RESET
