"""The hardware the board logic uses, as duck-typed interfaces: the Pico drivers (drivers/)
and the simulated hardware (sim/) implement these methods; the logic receives instances
and never imports machine. Subclassing is optional; these classes document the contract."""


class Scanner:
    """The 128 hall sensors (board.layout numbers the slots)."""

    def read_into(self, buf):
        """Fill buf (a preallocated array of 128 ints, e.g. array('H', 128)) with one raw
        reading per slot: 12-bit ADC counts, about 2048 with no field. Must not allocate.
        Once watch() was called: returns how many readings fell outside their windows."""
        raise NotImplementedError

    # Optional: a scanner that can compare as it reads (machine code on a Pico) has
    # watch(lo, hi, out): from then on read_into also lists in `out` (a bytearray of 128)
    # the slots whose reading is below lo[slot] or above hi[slot] (arrays of 'h', read
    # at each scan: board.sensing.Sensing.windows()).


class Clock:
    """Milliseconds with time.ticks_* semantics: values wrap; only ticks_diff is meaningful.
    On the device MicroPython's time module itself is a Clock; sim.sensor_model.SimClock in
    tests."""

    def ticks_ms(self):
        raise NotImplementedError

    def ticks_diff(self, a, b):
        """a - b in ms, signed, correct across the wrap (time.ticks_diff)."""
        raise NotImplementedError

    def sleep_ms(self, ms):
        raise NotImplementedError


class Random:
    """The dice's random source."""

    def randint(self, a, b):
        """An int in a..b inclusive."""
        raise NotImplementedError


class Storage:
    """Persistent files (flash). write is atomic: after a power cut at any instant the file
    holds either the old or the new data (write a temporary file, then rename)."""

    def read(self, name):
        """The file's bytes, or None if it does not exist."""
        raise NotImplementedError

    def write(self, name, data):
        raise NotImplementedError

    def rename(self, old, new):
        """Atomic; replaces new if it exists."""
        raise NotImplementedError

    def remove(self, name):
        """Remove name; a missing file is fine."""
        raise NotImplementedError

    def append(self, name, data):
        """Add data at the end of name (creating it): a cut keeps a prefix of data."""
        raise NotImplementedError

    def open(self, name, mode):
        """A file object, for streaming what is too big to read at once."""
        raise NotImplementedError

    def size(self, name):
        """Bytes in name, or None if it does not exist."""
        raise NotImplementedError


class SerialLink:
    """The USB serial line (newline-delimited JSON above it). A stream (io.IOBase on
    MicroPython): json.dump writes messages to it in pieces, or to its `out` if it has one
    (a native stream beneath it, written without a Python call per piece)."""

    def readline(self):
        """One complete line (bytes, without the newline) if one has arrived, else None;
        never blocks."""
        raise NotImplementedError

    def write(self, data):
        """Send data: str or bytes, a piece of a message at a time; returns its length."""
        raise NotImplementedError


class Leds:
    """The WS2812 chain."""

    def show(self, rgb, scale=256):
        """Send a frame: rgb is a bytearray of 3 bytes (red, green, blue) per LED in chain
        order, reused from frame to frame (copy what you keep); each value goes out as
        value * scale >> 8 (scale 256: as it is), which keeps the current under the cap.
        Returns True if the frame was held back, not sent: the last one is still going out
        (a driver that sends in the background); show it again later. None or False: sent."""
        raise NotImplementedError


class Buttons:
    """Roll, double, take, drop, verify, menu: debounced by the implementation. Their
    bits are bgwire's (ROLL 1, DOUBLE 2, TAKE 4, DROP 8, VERIFY 16, MENU 32)."""

    def pressed(self):
        """Bit mask of the buttons pressed since the last call (0 if none)."""
        raise NotImplementedError


class Supply:
    """Where the board's power comes from (the LEDs' current cap depends on it)."""

    def external(self):
        """True on the board's own 5 V supply, False on USB power alone."""
        raise NotImplementedError


class Watchdog:
    """Resets the board when the firmware stops feeding it: a hang becomes a clean resume
    from the journal."""

    def start(self, timeout_ms):
        """Arm it; from now on feed() must come within timeout_ms."""
        raise NotImplementedError

    def feed(self):
        raise NotImplementedError

    def stop(self):
        """Disarm it (the host took the board to its REPL: flashing takes longer)."""
        raise NotImplementedError

    def caused_reset(self):
        """True if the last reset was this watchdog's."""
        raise NotImplementedError
