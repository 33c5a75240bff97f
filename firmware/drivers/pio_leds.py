"""The WS2812 chain (board.hw.Leds) sent without the CPU: a PIO state machine makes the
strip's bit timing, a DMA channel feeds it from a preallocated buffer. show() packs the frame
(colour order and current cap in one viper pass, 0.2 ms for 152 LEDs) and returns: the
4.6 ms the frame takes on the wire go on while the scan goes on. The bit-banged neopixel
path (drivers/rp2_leds.py) stays for boards without PIO.

While a frame is still going out, show() starts nothing and says so (it returns True): the
caller keeps its frame and shows it again (board.leds.Renderer.flush), so the newest frame is
the one that goes out, never a half-sent one nor none."""
# pyright: reportUndefinedVariable=false
# (the PIO program's words, out/jmp/side..., are rp2.asm_pio's, and ptr8 viper's)

import micropython
import rp2
from time import ticks_diff, ticks_us

BIT_HZ = 800_000  # WS2812: 1.25 us a bit
CYCLES_PER_BIT = 10  # the program below: 2 + 5 + 3
LATCH_US = 300  # low this long ends a frame (WS2812B V5: 280 us; older parts 50 us)
_PIO_BASE = (0x50200000, 0x50300000)
_TXF = 0x010  # TXF0; TXF1..3 follow, 4 bytes apart
_DREQ_TX = (0, 8)  # DREQ_PIO0_TX0, DREQ_PIO1_TX0; + the machine's number in its block
_WORD = 2  # DMA transfer size: 32-bit words


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24, fifo_join=rp2.PIO.JOIN_TX)
def _ws2812():
    # One bit in 10 cycles: high 2 cycles, then high 5 more for a 1 or low for a 0, then low
    # 3. Each word holds an LED's 3 bytes in its top 24 bits, first byte first.
    wrap_target()
    label("bit")
    out(x, 1).side(0)[2]
    jmp(not_x, "zero").side(1)[1]
    jmp("bit").side(1)[4]
    label("zero")
    nop().side(0)[4]
    wrap()


class PioLeds:
    def __init__(self, pin, count, order="GRB", machine=0):
        """pin: the chain's data line (machine.Pin); count: LEDs on it; order: the colour
        order of each LED's 3 bytes on the wire; machine: the state machine 0..7 to use
        (0..3 in PIO0, 4..7 in PIO1)."""
        self.count = count
        self._buf = bytearray(4 * count)  # one 32-bit word per LED, read by the DMA
        # Where red, green and blue go within each LED's word (little-endian: the first byte
        # on the wire is the word's top byte, offset 3).
        self._r = 3 - order.index("R")
        self._g = 3 - order.index("G")
        self._b = 3 - order.index("B")
        self._sm = rp2.StateMachine(machine, _ws2812, freq=BIT_HZ * CYCLES_PER_BIT,
                                    sideset_base=pin)
        self._sm.active(1)
        block, index = machine // 4, machine % 4
        self._dma = rp2.DMA()
        self._ctrl = self._dma.pack_ctrl(size=_WORD, inc_write=False,
                                         treq_sel=_DREQ_TX[block] + index)
        self._txf = _PIO_BASE[block] + _TXF + 4 * index
        self.frame_us = count * 24 * 1_000_000 // BIT_HZ + LATCH_US
        self._started = ticks_us()
        self._sent = False  # no frame started yet
        self.held = 0  # frames show() declined (the last one still going out)

    def busy(self):
        """True while the last frame is going out (DMA, then the PIO's FIFO, then the
        latch): the buffer may not change nor a new frame start."""
        if not self._sent:
            return False
        return self._dma.active() or ticks_diff(ticks_us(), self._started) < self.frame_us

    def show(self, rgb, scale=256):
        if self.busy():
            self.held += 1
            return True
        _pack(self._buf, rgb, self.count, self._r, self._g, self._b, scale)
        self._dma.config(read=self._buf, write=self._txf, count=self.count, ctrl=self._ctrl,
                         trigger=True)
        self._started = ticks_us()
        self._sent = True
        return False


@micropython.viper
def _pack(dst, src, n: int, r: int, g: int, b: int, scale: int):
    # RGB per LED in, one word per LED out in the strip's order, scaled for the current cap.
    d = ptr8(dst)  # noqa: F821 - viper's
    s = ptr8(src)  # noqa: F821
    i = 0
    o = 0
    while i < 3 * n:
        d[o] = 0
        d[o + r] = (s[i] * scale) >> 8
        d[o + g] = (s[i + 1] * scale) >> 8
        d[o + b] = (s[i + 2] * scale) >> 8
        i += 3
        o += 4
