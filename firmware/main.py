"""bgboard firmware on a Raspberry Pi Pico: the Pico's entry, and only the Pico's. It builds
the machine.Pin and ADC objects from the pin map (hardware/pinmap.json, copied to
the board's flash as pinmap.json by bgboard flash; the field table, when present, as
field.json), hands them to the drivers (drivers/, which read no pin map), and wires the
drivers to the board's logic (board.app). The virtual board on the MicroPython unix port
has its own entry beside its simulated hardware (sim/unix_pico.py, sim.main_unix)."""

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


def _gpio(entry):
    # A pin map GPIO entry: its number, or {"pin": n, ...}.
    return entry["pin"] if isinstance(entry, dict) else entry


def make_scanner(pinmap):
    """The hall-sensor scanner on the pin map's mux and bank lines, its ADC and slot table."""
    from machine import ADC, Pin

    from board import forget
    from board.wiring import slot_table
    from drivers.rp2_sensors import Rp2Sensors

    gpio = pinmap["gpio"]
    sensors = pinmap["sensors"]
    enable = gpio["bank_enable"]
    on = enable.get("active", 0) if isinstance(enable, dict) else 0
    table = slot_table(sensors)
    forget("wiring")  # read once: not resident
    return Rp2Sensors([Pin(n, Pin.OUT, value=0) for n in gpio["mux_select"]],
                      [Pin(n, Pin.OUT, value=0) for n in gpio["bank_select"]],
                      Pin(_gpio(enable), Pin.OUT, value=1 - on),  # all banks off
                      ADC(Pin(_gpio(gpio["adc"]))), table, on,
                      sensors.get("bank_power_up_us", 500), sensors.get("mux_settle_us", 0))


def make_leds(pinmap):
    """The LED chain's driver: a PIO state machine fed by DMA (drivers.pio_leds: no scan waits
    for a frame) where the port has rp2's PIO, else neopixel's bit-banging (drivers.rp2_leds,
    an ESP32's). The pin map's leds "driver": "neopixel" chooses the latter on a Pico too."""
    from machine import Pin

    leds = pinmap["leds"]
    pin = Pin(_gpio(pinmap["gpio"]["led_data"]), Pin.OUT)
    order = leds.get("order", "GRB")
    if leds.get("driver", "pio") == "pio":
        try:
            from drivers.pio_leds import PioLeds
        except ImportError:  # no rp2 module: not an RP2040
            pass
        else:
            return PioLeds(pin, leds["count"], order)
    from drivers.rp2_leds import Rp2Leds

    return Rp2Leds(pin, leds["count"], order)


def make_buttons(pinmap):
    """The six buttons: the pin map names them, the contract (bgwire) numbers their bits."""
    from machine import Pin

    from bgwire import DOUBLE, DROP, MENU, ROLL, TAKE, VERIFY
    from drivers.rp2_buttons import Rp2Buttons

    buttons = pinmap["gpio"]["buttons"]
    table = []
    for name, bit in (("roll", ROLL), ("double", DOUBLE), ("take", TAKE), ("drop", DROP),
                      ("undo_verify", VERIFY), ("menu", MENU)):
        b = buttons[name]
        pull = Pin.PULL_UP if b.get("pull") == "up" else Pin.PULL_DOWN
        table.append((Pin(b["pin"], Pin.IN, pull), bit, b.get("active", 0)))
    return Rp2Buttons(table)


def make_supply(pinmap):
    from machine import Pin

    from drivers.rp2_supply import Rp2Supply

    sense = pinmap["gpio"]["power_sense"]
    return Rp2Supply(Pin(_gpio(sense), Pin.IN), sense.get("active", 1))


def main():
    _check_version()
    pinmap = _load("pinmap.json")
    if pinmap is None:
        raise SystemExit("pinmap.json is missing: flash the firmware with bgboard flash")

    # Every module the loop needs is imported first (asyncio too): code imported later lands
    # above the garbage of what came before (the journal's replay at start()), and once that
    # garbage is collected it splits the free heap (20 KB of 113 KB in one piece, not 73).
    import asyncio
    import random
    import time
    from array import array

    import board.compaction  # noqa: F401 - the journal's compaction in steps, a loop's task
    from board.app import App, Hardware
    from board.sensing import Field
    from board.storage import FlashStorage
    from drivers.rp2_watchdog import Rp2Watchdog
    from drivers.usb_link import UsbLink

    gc.collect()  # the imports' garbage gone: the long-lived objects pack low in the heap
    raw = array("H", bytes(256))
    scanner = make_scanner(pinmap)
    leds = make_leds(pinmap)
    buttons = make_buttons(pinmap)
    table = _load("field.json")
    field = Field.from_table(table) if table else None
    del table
    watchdog = Rp2Watchdog()
    hw = Hardware(scanner, time, random, FlashStorage("/"), UsbLink(), leds, buttons,
                  {"leds": pinmap["leds"]}, field, make_supply(pinmap), watchdog)
    del pinmap  # the drivers have taken what they need
    gc.collect()
    app = App(hw, raw)
    app.start()
    gc.collect()  # the replay's garbage gone before the loop's tasks are made: they pack low
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:  # the host wants the REPL (bgboard flash, mpremote): no reset
        watchdog.stop()  # in the middle of its work. Anything else that ends the loop
        raise  # leaves the watchdog armed: the board resets and resumes.


if __name__ == "__main__":  # a Pico runs /main.py as __main__; tests and benches import it
    main()
