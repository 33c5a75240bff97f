# bgboard firmware on a Raspberry Pi Pico: the Pico's drivers wired to the board's logic.
# The pin map is hardware/pinmap.json, copied to the board's flash as pinmap.json; the field
# table, when present, as field.json (the bgboard flash tool writes both).

import gc
import json
import random
import time
from array import array

from board.app import App, Hardware
from board.sensing import Field
from board.storage import FlashStorage
from drivers.rp2_buttons import Rp2Buttons
from drivers.rp2_leds import Rp2Leds
from drivers.rp2_sensors import Rp2Sensors
from drivers.usb_link import UsbLink


def _load(name):
    try:
        with open(name) as f:
            return json.load(f)
    except OSError:
        return None


def main():
    # The big buffers first, before anything fragments the heap.
    raw = array("H", bytes(256))
    pinmap = _load("pinmap.json")
    if pinmap is None:
        raise SystemExit("pinmap.json is missing: flash the firmware with bgboard flash")
    scanner = Rp2Sensors(pinmap)
    leds = Rp2Leds(pinmap)
    buttons = Rp2Buttons(pinmap)
    table = _load("field.json")
    field = Field.from_table(table) if table else None
    del table
    hw = Hardware(scanner, time, random, FlashStorage("/"), UsbLink(), leds, buttons,
                  {"leds": pinmap["leds"]}, field)
    del pinmap  # the drivers have taken what they need
    gc.collect()
    app = App(hw, raw)
    app.start()
    import asyncio
    asyncio.run(app.run())


main()
