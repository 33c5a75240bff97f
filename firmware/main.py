# bgboard firmware on a Raspberry Pi Pico: the Pico's entry, and only the Pico's: its drivers
# wired to the board's logic. The pin map is hardware/pinmap.json, copied to the board's flash
# as pinmap.json; the field table, when present, as field.json (the bgboard flash tool writes
# both). The virtual board on the MicroPython unix port has its own entry beside its
# simulated hardware (sim/device.py starts sim.serial_board where a Pico runs main.py).

import gc
import json
import sys

# The oldest MicroPython the firmware runs on: asyncio as it ships since 1.21.
MICROPYTHON_MIN = (1, 21)


def _check_version():
    have = tuple(sys.implementation.version[:2])
    if sys.implementation.name == "micropython" and have < MICROPYTHON_MIN:
        raise SystemExit("bgboard needs MicroPython %d.%d or later; this board has %d.%d: "
                         "put a newer MicroPython on it" % (MICROPYTHON_MIN + have))


def _load(name):
    try:
        with open(name) as f:
            return json.load(f)
    except OSError:
        return None


def main():
    _check_version()
    pinmap = _load("pinmap.json")
    if pinmap is None:
        raise SystemExit("pinmap.json is missing: flash the firmware with bgboard flash")
    return pico(pinmap)


def pico(pinmap):
    import random
    import time
    from array import array

    from board.app import App, Hardware
    from board.sensing import Field
    from board.storage import FlashStorage
    from drivers.rp2_buttons import Rp2Buttons
    from drivers.rp2_leds import Rp2Leds
    from drivers.rp2_sensors import Rp2Sensors
    from drivers.rp2_supply import Rp2Supply
    from drivers.rp2_watchdog import Rp2Watchdog
    from drivers.usb_link import UsbLink

    # The big buffers first, before anything fragments the heap.
    raw = array("H", bytes(256))
    scanner = Rp2Sensors(pinmap)
    leds = Rp2Leds(pinmap)
    buttons = Rp2Buttons(pinmap)
    table = _load("field.json")
    field = Field.from_table(table) if table else None
    del table
    watchdog = Rp2Watchdog()
    hw = Hardware(scanner, time, random, FlashStorage("/"), UsbLink(), leds, buttons,
                  {"leds": pinmap["leds"]}, field, Rp2Supply(pinmap), watchdog)
    del pinmap  # the drivers have taken what they need
    gc.collect()
    app = App(hw, raw)
    app.start()
    import asyncio
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:  # the host wants the REPL (bgboard flash, mpremote): no reset
        watchdog.stop()  # in the middle of its work. Anything else that ends the loop
        raise  # leaves the watchdog armed: the board resets and resumes.


main()
