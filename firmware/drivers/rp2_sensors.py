"""The Pico's hall-sensor scanner (board.hw.Scanner): 8 banks of 16 sensors, one 74HC4067 per
bank into one ADC pin, each bank powered through a 74HC138 output while the enable line is
at its active level (low on the reference board).

It takes what it drives, as main.py builds it from the pin map (hardware/pinmap.json): the
four mux select lines S0..S3 and the three bank select lines A0..A2 (machine.Pin outputs),
the bank enable (a Pin output) and its active level, the ADC (machine.ADC on the sensors'
common line), and the slot table: each slot's (bank, channel). It reads no pin map itself.

Channels are read in Gray-code order, forwards on even banks and backwards on odd ones,
so exactly one select line toggles between two readings and none between banks.

On an RP2040 the whole scan goes straight to the registers (SIO to choose and power a bank
and toggle a select line, the ADC's CS and RESULT, the timer to let the mux settle) from one
viper call. Most of a scan is the banks' power-up: so the scan ends with bank 0 powered,
and the next one finds it ready (its power-up passed while the loop did the rest of its
work): 7 waits of 0.5 ms, not 8. One bank is on at a time, as before; bank 0 simply stays on
between scans. The waits go through time.sleep_us, which the MicroPython port makes a tight
loop on the timer. (machine.Pin and machine.ADC calls took 9.4 ms a scan, a viper call per
bank 5.8 ms, this 4.3 ms.) The registers need each line's bit in SIO's GPIO_OUT, which
rp2's Pin does not tell: each pin is flipped and back once at start-up and the bit that
changed is its own (the enable's flip powers bank 0 for a few microseconds); the ADC's
input is what its first read_u16 chose in CS.
The same code checks each reading against the sensing's window for its slot (watch()),
which spares board.sensing a pass over all 128 slots in Python (1.7 ms a scan).
Elsewhere (another port, the tests' stand-in machine) the same scan goes through the
Pin and ADC objects' own calls."""

import sys
import time
from array import array

import micropython

_GRAY = bytes(k ^ (k >> 1) for k in range(16))
# RP2040: SIO GPIO_OUT_XOR, ADC CS, ADC RESULT, TIMER TIMERAWL, SIO GPIO_OUT_SET, _CLR.
_REGISTERS = (0xD000001C, 0x4004C000, 0x4004C004, 0x40054028, 0xD0000014, 0xD0000018)
_GPIO_OUT = 0xD0000010
_START_ONCE = 4


def _bit(pin):
    # The pin's bit in SIO GPIO_OUT: the one that changes when it is flipped (and back).
    import machine

    mem = machine.mem32  # type: ignore[attr-defined]
    before = mem[_GPIO_OUT]
    pin.toggle()
    bit = mem[_GPIO_OUT] ^ before
    pin.toggle()
    if bit == 0 or bit & (bit - 1):
        raise ValueError("%r: not one GPIO output" % (pin,))
    return bit


class Rp2Sensors:
    def __init__(self, mux_select, bank_select, bank_enable, adc, slot_table, enable_active=0,
                 settle_us=500, mux_settle_us=0):
        """mux_select: the 4 select lines S0..S3 and bank_select the 3 lines A0..A2
        (machine.Pin outputs); bank_enable: a Pin output, powering the chosen bank at
        enable_active; adc: the machine.ADC all banks read through; slot_table: each slot's
        (bank, channel) (board.wiring.slot_table). settle_us: the wait after powering a bank
        before its first reading (the DRV5055 powers on within 330 us, SBAS640), mux_settle_us
        after each select change."""
        if len(mux_select) != 4 or len(bank_select) != 3:
            raise ValueError("4 mux select and 3 bank select pins")
        self._on = enable_active
        self._sel = list(mux_select)
        self._bank = list(bank_select)
        self._enable = bank_enable
        for p in self._sel + self._bank:
            p.value(0)
        bank_enable.value(1 - enable_active)  # all banks off until a scan
        self._adc = adc
        self._toggle = [p.toggle for p in self._sel]  # bound once: no lookup per reading
        self._read = adc.read_u16
        self._registers = None
        self._masks = None
        self._banks = None
        self._start = 0
        # watch(): windows to check the readings against as they are read (by default
        # none leaves them), and where the slots that left go.
        self._lo = array("h", bytes(256))
        self._hi = array("h", bytes(256))
        for i in range(128):
            self._lo[i] = -32768
            self._hi[i] = 32767
        self._left = bytearray(128)
        self._watching = False
        self._count = array("I", [0])
        self._ready = array("I", [0, 0])  # bank 0 powered on (1) since timer value [1]
        if sys.platform == "rp2":
            import machine

            self._read()  # the ADC powered and its input chosen in CS, as machine.ADC does
            self._registers = array("I", _REGISTERS)
            self._masks = array("I", [_bit(p) for p in self._sel])
            # Per bank, the select lines' OUT bits; then all of them, and the enable's bit
            # to set (on) and to clear (on): one of the two is 0.
            sel = [_bit(p) for p in self._bank]
            self._banks = array("I", [sum(sel[i] for i in range(3) if b >> i & 1)
                                      for b in range(8)] + [sum(sel)])
            en = _bit(bank_enable)
            self._banks.append(en if enable_active else 0)
            self._banks.append(0 if enable_active else en)
            self._start = machine.mem32[_REGISTERS[1]] | _START_ONCE  # type: ignore[attr-defined]
        self._settle = settle_us
        self._mux_settle = mux_settle_us
        # Reading order: for each of 8 x 16 steps, the slot it fills (255: unused channel)
        # and the select line to toggle before it (255: none).
        slot_at = bytearray(b"\xff" * 128)
        for slot in range(len(slot_table)):
            bank, ch = slot_table[slot]
            if not (0 <= bank < 8 and 0 <= ch < 16) or slot_at[bank * 16 + ch] != 255:
                raise ValueError("slot table: slot %d at bank %d channel %d" % (slot, bank, ch))
            slot_at[bank * 16 + ch] = slot
        self._slot = bytearray(128)
        self._flip = bytearray(b"\xff" * 128)
        prev = 0
        for bank in range(8):
            for k in range(16):
                ch = _GRAY[k if bank % 2 == 0 else 15 - k]
                step = bank * 16 + k
                self._slot[step] = slot_at[bank * 16 + ch]
                if ch != prev:
                    self._flip[step] = {1: 0, 2: 1, 4: 2, 8: 3}[ch ^ prev]
                prev = ch

    def watch(self, lo, hi, left):
        """From now on read_into also lists in `left` the slots whose reading is outside
        [lo[slot], hi[slot]] (arrays of 'h', read at each scan) and returns how many."""
        self._lo, self._hi, self._left = lo, hi, left
        self._watching = True

    def read_into(self, buf):
        """Scan all banks into buf (128 counts, 12 bit); the number of readings outside
        the watched windows. No allocation."""
        if self._registers is None:
            self._read_with_pins(buf)
            return self._outside(buf) if self._watching else 0
        count = self._count
        _read_all(buf, self._slot, self._flip, self._masks, self._banks, self._start,
                  self._settle, self._mux_settle, self._registers, self._lo, self._hi,
                  self._left, count, time.sleep_us, self._ready)
        return count[0]

    def _outside(self, buf):
        lo = self._lo
        hi = self._hi
        left = self._left
        n = 0
        for s in range(128):
            r = buf[s]
            if r < lo[s] or r > hi[s]:
                left[n] = s
                n += 1
        return n

    @micropython.native
    def _read_with_pins(self, buf):
        toggle = self._toggle
        banks = self._bank
        enable = self._enable
        on = self._on
        read = self._read
        slots = self._slot
        flip = self._flip
        settle = self._settle
        mux_settle = self._mux_settle
        sleep_us = time.sleep_us
        step = 0
        for bank in range(8):
            banks[0].value(bank & 1)
            banks[1].value(bank & 2)
            banks[2].value(bank & 4)
            enable.value(on)
            sleep_us(settle)
            for _ in range(16):
                f = flip[step]
                if f != 255:
                    toggle[f]()
                    if mux_settle:
                        sleep_us(mux_settle)
                s = slots[step]
                if s != 255:
                    buf[s] = read() >> 4
                step += 1
            enable.value(1 - on)


@micropython.viper
def _read_all(buf, slots, flips, masks, banks, start: int, power_up, settle: int, registers,
              lo, hi, left, count, sleep_us, ready):
    # The 8 banks, each chosen and powered (banks: per bank its select lines' OUT bits, then
    # all select bits, the enable bit to set and the one to clear to power it) and given
    # power_up us (sleep_us; bank 0 only what remains since ready[1], if ready[0] says the
    # last scan left it on), then its 16 steps: toggle the step's select line, wait `settle`
    # us, convert, store the 12-bit result at the step's slot; a result outside [lo, hi] of
    # its slot (arrays of 'h', read unsigned here: the sign restored) is listed in left,
    # count[0] of them. Bank 0 is left on for the next scan.
    out = ptr16(buf)
    low = ptr16(lo)
    high = ptr16(hi)
    moved = ptr8(left)
    slot = ptr8(slots)
    flip = ptr8(flips)
    mask = ptr32(masks)
    bank = ptr32(banks)
    on = ptr32(ready)
    reg = ptr32(registers)
    xor = ptr32(reg[0])
    cs = ptr32(reg[1])
    result = ptr32(reg[2])
    timer = ptr32(reg[3])
    out_set = ptr32(reg[4])
    out_clr = ptr32(reg[5])
    on_set = bank[9]
    on_clr = bank[10]
    wait = int(power_up)
    n = 0
    step = 0
    b = 0
    while b < 8:
        if b == 0 and on[0]:
            passed = uint(timer[0]) - uint(on[1])  # wraps like the timer
            if passed < uint(wait):
                sleep_us(wait - int(passed))
        else:
            out_set[0] = on_clr  # off (the enable's inactive level) while the select changes
            out_clr[0] = on_set
            out_clr[0] = bank[8]
            out_set[0] = bank[b]
            out_set[0] = on_set
            out_clr[0] = on_clr
            sleep_us(power_up)
        end = step + 16
        while step < end:
            f = flip[step]
            if f != 255:
                xor[0] = mask[f]
                t0 = uint(timer[0])
                while uint(timer[0]) - t0 < uint(settle):
                    pass
            s = slot[step]
            if s != 255:
                cs[0] = start
                while not (cs[0] & 0x100):  # READY
                    pass
                v = int(result[0] & 0xFFF)
                out[s] = v
                if v < (int(low[s]) ^ 0x8000) - 0x8000 or v > (int(high[s]) ^ 0x8000) - 0x8000:
                    moved[n] = s
                    n += 1
            step += 1
        b += 1
    out_set[0] = on_clr  # bank 0 on, its mux at channel 0 (where its first step reads)
    out_clr[0] = on_set
    out_clr[0] = bank[8]
    out_set[0] = on_set
    out_clr[0] = on_clr
    on[1] = timer[0]
    on[0] = 1
    ptr32(count)[0] = n
