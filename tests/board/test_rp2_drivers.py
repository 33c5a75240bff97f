# The Pico's LED, button and supply drivers as main.py wires them from the real pin map,
# against fake `machine` and `neopixel` modules (neither exists off a Pico): colour order
# into the strip's buffer, debounced presses as bits, the supply's level.
import json
import sys

from bgwire import DOUBLE, ROLL
from code_emitters import lend

lend()


class _Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2
    levels = {}

    def __init__(self, n, mode=-1, pull=None, value=None):
        self.n = n

    def value(self):
        return _Pin.levels.get(self.n, 1)  # pulled up: 1 when not pressed


class _Machine:
    Pin = _Pin


class _NeoPixel:
    def __init__(self, pin, n):
        self.pin = pin
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1


class _Neopixel:
    NeoPixel = _NeoPixel


class _Time:
    now = 0

    @staticmethod
    def ticks_ms():
        return _Time.now

    @staticmethod
    def ticks_diff(a, b):
        return a - b


def _with_fakes(fn):
    saved = {}
    names = ("machine", "neopixel", "time", "drivers.rp2_leds", "drivers.rp2_buttons",
             "drivers.rp2_supply")
    for name in names:
        saved[name] = sys.modules.get(name)
    sys.modules["machine"] = _Machine  # type: ignore[assignment]
    sys.modules["neopixel"] = _Neopixel  # type: ignore[assignment]
    sys.modules["time"] = _Time  # type: ignore[assignment]
    for name in names[3:]:
        if name in sys.modules:
            del sys.modules[name]
    try:
        with open("hardware/pinmap.json") as f:
            fn(json.load(f))
    finally:
        for name in names:
            if saved[name] is None:
                if name in sys.modules:
                    del sys.modules[name]
            else:
                sys.modules[name] = saved[name]


def _main():
    import main  # the Pico's entry: it imports `machine` only as it builds the drivers
    return main


def test_leds_go_out_in_the_strips_colour_order():
    def check(pinmap):
        leds = _main().make_leds(pinmap)
        assert leds._np.pin.n == pinmap["gpio"]["led_data"]["pin"]
        frame = bytearray(3 * leds.count)
        frame[0:3] = bytes((10, 20, 30))  # LED 0: red 10, green 20, blue 30
        leds.show(frame)
        assert pinmap["leds"]["order"] == "GRB"
        assert bytes(leds._np.buf[0:3]) == bytes((20, 10, 30)) and leds._np.writes == 1
    _with_fakes(check)


def test_a_press_counts_once_after_it_has_held():
    def check(pinmap):
        roll = pinmap["gpio"]["buttons"]["roll"]["pin"]
        double = pinmap["gpio"]["buttons"]["double"]["pin"]
        _Pin.levels = {}
        buttons = _main().make_buttons(pinmap)
        _Pin.levels[roll] = 0  # pressed (active low)
        assert buttons.pressed() == 0  # a bounce, for all we know yet
        _Time.now += 10
        assert buttons.pressed() == 0
        _Time.now += 30
        assert buttons.pressed() == ROLL
        _Time.now += 100
        assert buttons.pressed() == 0  # held: not pressed again
        _Pin.levels[double] = 0
        _Pin.levels[roll] = 1
        buttons.pressed()
        _Time.now += 40
        assert buttons.pressed() == DOUBLE
    _with_fakes(check)


def test_the_supply_reads_its_level():
    def check(pinmap):
        sense = pinmap["gpio"]["power_sense"]
        _Pin.levels = {}
        supply = _main().make_supply(pinmap)
        assert sense["active"] == 1 and supply.external()  # the divider pulls it high
        _Pin.levels[sense["pin"]] = 0
        assert not supply.external()
    _with_fakes(check)
