# The Pico's LED, button and supply drivers as main.py wires them from the real pin map,
# against fake `machine`, `neopixel` and `rp2` modules (none exists off a Pico): colour order
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


class _StateMachine:
    def __init__(self, n, program, freq=0, sideset_base=None):
        self.n = n
        self.freq = freq
        self.pin = sideset_base
        self.on = 0

    def active(self, on):
        self.on = on


class _DMA:
    def __init__(self):
        self.configs = []
        self.running = False

    def pack_ctrl(self, size=2, inc_write=True, treq_sel=63):
        return (size, inc_write, treq_sel)

    def config(self, read=None, write=None, count=0, ctrl=None, trigger=False):
        self.configs.append((bytes(read), write, count, ctrl, trigger))
        self.running = trigger

    def active(self):
        return self.running


class _PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0
    JOIN_TX = 1


class _Rp2:
    # A Pico's rp2 module as far as drivers.pio_leds uses it: the program is not assembled.
    PIO = _PIO
    StateMachine = _StateMachine
    DMA = _DMA

    @staticmethod
    def asm_pio(**options):
        return lambda program: program


class _Time:
    now = 0

    @staticmethod
    def ticks_ms():
        return _Time.now

    @staticmethod
    def ticks_us():
        return _Time.now * 1000

    @staticmethod
    def ticks_diff(a, b):
        return a - b


def _with_fakes(fn, rp2=False):
    saved = {}
    names = ("machine", "neopixel", "time", "rp2", "drivers.rp2_leds", "drivers.pio_leds",
             "drivers.rp2_buttons", "drivers.rp2_supply")
    for name in names:
        saved[name] = sys.modules.get(name)
    sys.modules["machine"] = _Machine  # type: ignore[assignment]
    sys.modules["neopixel"] = _Neopixel  # type: ignore[assignment]
    sys.modules["time"] = _Time  # type: ignore[assignment]
    if rp2:
        sys.modules["rp2"] = _Rp2  # type: ignore[assignment]
    elif "rp2" in sys.modules:
        del sys.modules["rp2"]
    for name in names[4:]:
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


def test_on_an_rp2040_the_dma_feeds_the_pio_one_word_per_led_in_the_strips_order():
    def check(pinmap):
        leds = _main().make_leds(pinmap)
        assert type(leds).__name__ == "PioLeds"
        assert leds._sm.pin.n == pinmap["gpio"]["led_data"]["pin"] and leds._sm.on
        assert leds._sm.freq == 8_000_000  # 10 PIO cycles a bit at 800 kHz
        frame = bytearray(3 * leds.count)
        frame[0:3] = bytes((10, 20, 30))  # LED 0: red 10, green 20, blue 30
        frame[-3:] = bytes((1, 2, 3))
        assert not leds.show(frame)
        words, write, count, ctrl, trigger = leds._dma.configs[-1]
        # Little-endian words, the first byte on the wire on top: green, red, blue.
        assert words[0:4] == bytes((0, 30, 10, 20)) and words[-4:] == bytes((0, 3, 1, 2))
        assert write == 0x50200010 and count == leds.count == len(words) // 4 and trigger
        assert ctrl == (2, False, 0)  # words, to one FIFO, paced by PIO0 SM0's TX DREQ
        frame[0:3] = bytes((99, 99, 99))
        assert leds.show(frame)  # the DMA still busy: held back, nothing started
        assert len(leds._dma.configs) == 1 and leds.held == 1
        leds._dma.running = False
        assert leds.show(frame)  # the last words still on the wire (FIFO, latch)
        _Time.now += leds.frame_us // 1000 + 1
        assert not leds.show(frame) and leds._dma.configs[-1][0][0:4] == bytes((0, 99, 99, 99))
    _with_fakes(check, rp2=True)


def test_the_pin_map_can_choose_the_bit_banged_driver_on_an_rp2040():
    def check(pinmap):
        pinmap["leds"]["driver"] = "neopixel"
        leds = _main().make_leds(pinmap)
        assert type(leds).__name__ == "Rp2Leds"
    _with_fakes(check, rp2=True)


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
