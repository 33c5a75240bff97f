# The Pico scanner driven through stand-in Pin and ADC objects (no Pin or ADC off a Pico):
# every slot gets the reading of its own bank and channel, one bank is powered at a time, and
# main.py's wiring of the real pin map (its pins and slot table) plugs in, against a fake
# `machine`. Runs under pytest and MicroPython.
import json
import sys

from board.layout import SLOTS, bar_slot, point_slot, BLACK_SIGN, WHITE_SIGN
from board.wiring import slot_table
from sensing_rig import hardware_file
from code_emitters import lend

lend()


class _Wires:
    """The GPIO levels and the checks made on each ADC reading."""

    def __init__(self):
        self.level = {}
        self.reads = 0
        self.errors = []


WIRES = _Wires()
PINS = {"mux_select": [2, 3, 4, 5], "bank_select": [6, 7, 8], "bank_enable": 9, "adc": 26}


class _Pin:
    OUT = 1

    def __init__(self, n, mode=-1, value=None):
        self.n = n
        if value is not None:
            WIRES.level[n] = value

    def value(self, v=None):
        if v is None:
            return WIRES.level.get(self.n, 0)
        WIRES.level[self.n] = 1 if v else 0

    def toggle(self):
        WIRES.level[self.n] = 1 - WIRES.level.get(self.n, 0)


class _Adc:
    def __init__(self, pin):
        assert pin.n == 26

    def read_u16(self):
        # Reads 1000 + bank * 16 + channel, if that bank (alone) is powered.
        lv = WIRES.level
        WIRES.reads += 1
        if lv[9] != 0:
            WIRES.errors.append("read with all banks off")
        bank = lv[6] + 2 * lv[7] + 4 * lv[8]
        ch = lv[2] + 2 * lv[3] + 4 * lv[4] + 8 * lv[5]
        return (1000 + bank * 16 + ch) << 4


class _Machine:
    Pin = _Pin
    ADC = _Adc


def _main():
    # main.py (the Pico's entry) imports `machine` only as it builds the drivers: the fake
    # stands in while it does.
    import main
    return main


def _wired(pinmap):
    saved = sys.modules.get("machine")
    sys.modules["machine"] = _Machine  # type: ignore[assignment]
    try:
        return _main().make_scanner(pinmap)
    finally:
        if saved is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = saved


def _scanner(table, **kw):
    from drivers.rp2_sensors import Rp2Sensors
    return Rp2Sensors([_Pin(n) for n in PINS["mux_select"]],
                      [_Pin(n) for n in PINS["bank_select"]], _Pin(PINS["bank_enable"]),
                      _Adc(_Pin(PINS["adc"])), table, **kw)


def _scan(scanner, buf):
    # CPython's time has no sleep_us: lend it one for the scan.
    import time
    lent = not hasattr(time, "sleep_us")
    if lent:
        time.sleep_us = lambda us: None  # type: ignore[attr-defined]
    try:
        return scanner.read_into(buf)
    finally:
        if lent:
            del time.sleep_us  # type: ignore[attr-defined]


def test_each_slot_reads_its_own_bank_and_channel():
    table = [((s * 37) % 128 // 16, (s * 37) % 16) for s in range(SLOTS)]  # scrambled
    WIRES.level[9] = 0
    scanner = _scanner(table, settle_us=0)
    assert WIRES.level[9] == 1  # all banks off until a scan
    from array import array
    buf = array("H", bytes(2 * SLOTS))
    WIRES.reads = 0
    _scan(scanner, buf)
    assert WIRES.errors == [] and WIRES.reads == SLOTS
    for s in range(SLOTS):
        bank, ch = table[s]
        assert buf[s] == 1000 + bank * 16 + ch, s
    assert WIRES.level[9] == 1
    # Gray order: the select lines are back at channel 0 after a scan.
    assert [WIRES.level[n] for n in (2, 3, 4, 5)] == [0, 0, 0, 0]
    _scan(scanner, buf)
    assert buf[0] == 1000 + table[0][0] * 16 + table[0][1]


def test_main_wires_the_real_pin_map_in():
    with open(hardware_file("pinmap.json")) as f:
        pinmap = json.load(f)
    table = slot_table(pinmap["sensors"])
    assert len(set(table)) == SLOTS
    assert table[point_slot(1, 0)] == (0, 0)
    assert table[bar_slot(WHITE_SIGN, 0)] == divmod(pinmap["sensors"]["bar"]["white"][0], 16)
    assert table[bar_slot(BLACK_SIGN, 3)] == divmod(pinmap["sensors"]["bar"]["black"][3], 16)
    scanner = _wired(pinmap)
    assert "board.wiring" not in sys.modules  # read once at boot: not resident on a Pico
    assert scanner._settle == pinmap["sensors"]["bank_power_up_us"]
    assert scanner._mux_settle == pinmap["sensors"]["mux_settle_us"]
    scanner._settle = scanner._mux_settle = 0  # no waiting in a test
    from array import array
    buf = array("H", bytes(2 * SLOTS))
    _scan(scanner, buf)
    assert WIRES.errors == []
    for s in range(SLOTS):
        assert buf[s] == 1000 + table[s][0] * 16 + table[s][1]


def test_a_watching_scanner_lists_the_readings_outside_their_windows():
    # Board.sensing's windows checked as the scanner reads: only the slots it lists need
    # the sensing's attention.
    table = [(s // 16, s % 16) for s in range(SLOTS)]  # slot s reads 1000 + s
    scanner = _scanner(table, settle_us=0)
    from array import array
    buf = array("H", bytes(2 * SLOTS))
    assert _scan(scanner, buf) == 0  # not watching: nothing is outside
    lo = array("h", [990] * SLOTS)
    hi = array("h", [1200] * SLOTS)
    lo[5], hi[70], lo[127] = 1006, 1069, -32768  # 5 below, 70 above, 127 unbounded
    left = bytearray(SLOTS)
    scanner.watch(lo, hi, left)
    assert _scan(scanner, buf) == 2 and sorted(left[:2]) == [5, 70]
    hi[70] = 1070  # the windows are read at each scan
    assert _scan(scanner, buf) == 1 and left[0] == 5


def test_a_bad_slot_table_is_refused():
    table = [(0, 0)] * SLOTS
    try:
        _scanner(table)
    except ValueError as e:
        assert "slot 1" in str(e)
    else:
        raise AssertionError("a shared channel was accepted")
