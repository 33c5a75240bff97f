"""The emulated Pico: a real RP2040's MicroPython firmware (rp2040js in Node, emulator.mjs)
behind a PTY, its pins wired to the simulated world (the firmware's own `sim` package, run
here on CPython: sensor model, table of checkers, hands).

    pico = PicoBoard("pico-flash.img")
    port = pico.start()          # /dev/pts/N: bgboard, mpremote and `bgboard flash` use it
    pico.command({"cmd": "hello"})   # a command of our own on the line (the players')
    pico.sleep(500)              # 500 ms of emulated time
    pico.power_cut()             # the emulator stops dead and starts again on its flash
    pico.stop()

The line: bytes from the host go to the USB CDC as they come, except whole lines with a
"sim" key and no "cmd" (docs/protocol.md), which work the simulated hands and buttons and
are answered here; the firmware never sees them. Lines of our own (`command`) carry an id
starting with "pico:" and their answers are kept from the host.

Time: the emulator runs on emulated time. `speed` 1 keeps it at the wall clock's pace (for
people), 0 runs it as fast as it goes (autoplay, tests). `sleep` and the players' actions are
in emulated time: the emulator stops while they act, so they are never late.
"""

import collections
import json
import os
import select
import struct
import subprocess
import sys
import threading
import time
import tty

from bgboard.firmware import FIRMWARE_DIR, HARDWARE_DIR
from bgboard.pico.stock import StockError, delay_address, firmware_files

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulator.mjs")
PROFILE_ENV = "BGBOARD_PICO_PROFILE"  # a file: where emulated time went (emulator.mjs)
OWN_ID = "pico:"
HOLD_S = 0.05  # a partial line from the host that might be a sim line is held this long
# ...from the device, that might be an answer of ours: this long idle in emulated time (the
# firmware writes a line in pieces; on a loaded machine their wall time apart is long).
HOLD_DEVICE_US = 200000
LED_SOURCES = {5: "cpu", 6: "pio0", 7: "pio1"}  # the LED pin's GPIO function (emulator.mjs L)


class PicoError(Exception):
    pass


class PowerCut(Exception):
    """The emulator was stopped (a power cut, or the end) while a command waited."""


def node_binary():
    import shutil

    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise PicoError("Node.js is missing (Debian: apt-get install nodejs npm; `make venv` "
                        "installs it)")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        raise PicoError("rp2040js is missing: npm ci --prefix %s (`make venv` does it)" % HERE)
    return node


def _world_modules():
    # The simulated world is the firmware's sim package (it runs on CPython as on
    # MicroPython); its modules import board.* from the firmware folder too.
    if FIRMWARE_DIR not in sys.path:
        sys.path.append(FIRMWARE_DIR)
    from board.wiring import slot_table
    from sim.hands import Hands
    from sim.rng import Rng
    from sim.world import World

    return World, Hands, Rng, slot_table


def _emulated_clock():
    from sim.sensor_model import PERIOD, SimClock

    class EmulatedClock(SimClock):
        """sim.sensor_model.SimClock on the emulator's time (the model's drift follows
        it)."""

        us = 0.0

        def ticks_ms(self):
            return int(self.us // 1000) % PERIOD

    return EmulatedClock()


class Pins:
    """The emulated board's wiring, from hardware/pinmap.json."""

    def __init__(self, pinmap):
        gpio = pinmap["gpio"]
        enable = gpio["bank_enable"]
        self.buttons = {name: b["pin"] for name, b in gpio["buttons"].items()}
        self.button_active = {name: b.get("active", 0) for name, b in gpio["buttons"].items()}
        self.power_sense = gpio["power_sense"]["pin"]
        self.spec = {"mux": gpio["mux_select"], "bank": gpio["bank_select"],
                     "enable": enable["pin"], "enableActive": enable.get("active", 0),
                     "adc": gpio["adc"]["pin"], "led": gpio["led_data"]["pin"]}
        self.led_count = pinmap["leds"]["count"]
        order = pinmap["leds"].get("order", "GRB")
        self.led_rgb = (order.index("R"), order.index("G"), order.index("B"))
        self.sensors = pinmap["sensors"]

    def idle_levels(self, external_supply=False):
        levels = {pin: 1 - self.button_active[name] for name, pin in self.buttons.items()}
        levels[self.power_sense] = 1 if external_supply else 0
        return levels


class Emulator:
    """The Node process and its frames (emulator.mjs says their format)."""

    def __init__(self, image, pins, levels, speed, uf2, bootrom, delay_us, on_frame):
        self.on_frame = on_frame
        spec = dict(pins.spec, inputs={str(k): v for k, v in levels.items()})
        self.cmd = [node_binary(), EMULATOR, "--uf2", uf2, "--bootrom", bootrom,
                    "--flash", image, "--pins", json.dumps(spec), "--speed", str(speed)]
        if delay_us is not None:  # the emulator skips MicroPython's busy waits there
            self.cmd += ["--delay-us", str(delay_us)]
        if os.environ.get(PROFILE_ENV):
            self.cmd += ["--profile", os.path.abspath(os.environ[PROFILE_ENV])]
        self.proc = None
        self._write = threading.Lock()
        self.stderr = b""

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=HERE)
        self._reader = threading.Thread(target=self._read, name="pico-emulator", daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr = (self.stderr + line)[-4000:]

    def _read(self):
        out = self.proc.stdout
        while True:
            head = out.read(5)
            if len(head) < 5:
                break
            n = struct.unpack_from("<I", head, 1)[0]
            body = out.read(n)
            if len(body) < n:
                break
            self.on_frame(self, chr(head[0]), struct.unpack_from("<d", body)[0], body[8:])
        self.on_frame(self, "", None, b"")  # the process is gone

    def send(self, kind, payload=b""):
        with self._write:
            if self.proc is None:
                return  # not started: nothing to tell
            try:
                self.proc.stdin.write(kind.encode() + struct.pack("<I", len(payload)) + payload)
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass  # gone: the reader reports it

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
        if self.proc:
            self.proc.wait(10)
            self._reader.join(10)

    def quit(self):
        if self.proc and self.proc.poll() is None:
            self.send("Q")
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


class PicoBoard:
    """`image`: the flash image file (created empty: a new Pico, whose MicroPython formats
    its filesystem). `seed`, `noise`, `clumsy`, `brisk`: the simulated world's and hands'
    (sim.hands.Hands). `speed`: 1 real time, 0 as fast as it goes."""

    def __init__(self, image, seed=1, noise=3.0, clumsy=20, speed=1.0, uf2=None,
                 bootrom=None, pinmap=None, external_supply=False, brisk=False):
        self.image = os.path.abspath(image)
        try:
            self.uf2, self.bootrom = firmware_files(uf2, bootrom)
            # note: why the busy waits are emulated in full (another uf2 without its ELF)
            self.delay_us, self.note = delay_address(self.uf2)
        except StockError as e:
            raise PicoError(str(e)) from None
        with open(pinmap or os.path.join(HARDWARE_DIR, "pinmap.json")) as f:
            self.pins = Pins(json.load(f))
        self.speed = speed
        self.external_supply = external_supply
        World, Hands, Rng, slot_table = _world_modules()
        self.clock = _emulated_clock()
        self.world = World(seed, noise)
        self.world.model._clock = self.clock
        self.table = self.world.table
        self.hands = Hands(self.table, Rng(seed * 7 + 2), clumsy, brisk)
        self._order = [0] * 128  # scan index (bank * 16 + channel) -> slot
        for slot, (bank, ch) in enumerate(slot_table(self.pins.sensors)):
            self._order[bank * 16 + ch] = slot
        from sim.control import SimControl  # the virtual board's own handling of sim lines

        self._sim_control = SimControl(self.table, _Buttons(self), self._send_line)
        self.override = None  # 128 readings by slot to give instead of the world's
        self.lock = threading.RLock()  # the world: scans read it, hands and sim lines move it
        self.led_frames = 0
        self.led_at = 0.0  # emulated us of the last frame's first bit
        self.led_source = ""  # what sent it: "cpu" (bit-banged), "pio0" or "pio1"
        self._scans = collections.deque(maxlen=8)  # emulated us the latest scans began
        self.scan_before_led = 0.0  # ...the latest before the last LED frame's first bit
        self.leds = bytes(3 * self.pins.led_count)  # the last frame, RGB per LED
        self.boots = []  # (emulated us, reason) of each start of the chip
        self.device_text = bytearray()  # what the device said that was not ours (kept short)
        self.memory_errors = 0
        self.dropped = 0  # bytes for the host lost because it did not read them
        self.now_us = 0.0
        self.on_line = None  # called with each complete line the device sends (bytes)
        self.emulator = None
        self.chips = 0  # emulators started: a power cut starts another
        self.port = None
        self._alarm = None  # threading.Event a sleeper waits on
        self._paused = False  # the emulator waits for G (an alarm fired)
        self._replies = {}
        self._reply_ready = threading.Condition()
        self._next_id = 0
        self._dev_line = bytearray()  # the device's line under way (to the host)
        self._dev_held = False  # ...held back: it may be an answer of ours
        self._dev_at = 0.0  # when the device last sent something (emulated us)
        self._host_line = bytearray()
        self._host_held = False
        self._host_mid = False  # the host's last byte to the device was not a newline
        self._pending_out = []  # lines of ours waiting for the host's line to end
        self._pty = threading.Lock()
        self._gone = threading.Event()
        self._stopping = False

    # --- life ----------------------------------------------------------------------------------

    def start(self):
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.port = os.ttyname(slave)
        self._spawn()
        self._host_thread = threading.Thread(target=self._from_host, name="pico-host",
                                             daemon=True)
        self._host_thread.start()
        return self.port

    def _spawn(self):
        # Started before it is published: other threads (players, the line) send to
        # self.emulator at any moment, a power cut included.
        emulator = Emulator(self.image, self.pins, self.pins.idle_levels(self.external_supply),
                            self.speed, self.uf2, self.bootrom, self.delay_us, self._on_frame)
        self._gone.clear()
        self._paused = False
        emulator.start()
        self.emulator = emulator
        with self._reply_ready:  # a command sent to the old chip is answered by no one
            self.chips += 1
            self._reply_ready.notify_all()

    def set_speed(self, speed):
        """Emulated time against real time from now on (1 real time, 0 as fast as it goes);
        a power cut keeps it."""
        self.speed = speed
        self.emulator.send("P", struct.pack("<d", speed))

    def power_cut(self):
        """Stop the emulator dead and start it again on its flash image (what a Pico's
        flash holds survives; its RAM does not). The checkers stay where they are."""
        self.emulator.kill()
        self._gone.wait(10)
        self._dev_line = bytearray()
        self._dev_held = False
        self._spawn()
        if self._alarm is not None:  # a sleeper's alarm: set it again on the new chip
            self.emulator.send("W", struct.pack("<d", self._alarm_at))

    def stop(self):
        self._stopping = True
        if self.emulator is not None:
            self.emulator.quit()
        for fd in (getattr(self, "_master", None), getattr(self, "_slave", None)):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    def alive(self):
        return self.emulator is not None and self.emulator.proc.poll() is None

    def wait(self, timeout=None):
        """The emulator's exit code once it stopped for good (None while it runs)."""
        self._gone.wait(timeout)
        return self.emulator.proc.poll() if self._gone.is_set() else None

    def stderr(self):
        return (self.emulator.stderr if self.emulator else b"").decode("utf-8", "replace")

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # --- frames from the emulator -------------------------------------------------------------

    def _on_frame(self, emulator, kind, us, body):
        if us is not None:
            self.now_us = us
            self.clock.us = us
        if kind == "S":  # answered to the chip that asked (it may not be published yet)
            self._scans.append(us)
            emulator.send("A", self._readings())
        elif kind == "U":
            self._from_device(body)
        elif kind == "L":
            self.led_at = struct.unpack_from("<d", body)[0]
            self.scan_before_led = max((t for t in self._scans if t < self.led_at), default=0.0)
            self.led_source = LED_SOURCES.get(body[8], str(body[8]))
            self._led_frame(body[9:])
        elif kind == "T":
            self._paused = True
            alarm = self._alarm
            if alarm is not None:
                alarm.set()
            else:
                self._resume()
        elif kind == "R":
            self.boots.append((us, body.decode()))
        elif kind == "X":
            self.device_text += b"\nemulator: " + body
        elif kind == "":
            self._gone.set()
            with self._reply_ready:
                self._reply_ready.notify_all()
            alarm = self._alarm
            if alarm is not None and self._stopping:
                alarm.set()

    def _readings(self):
        with self.lock:
            buf = self.world.buf
            if self.override is not None:
                values = self.override
            else:
                self.world.model.read_into(buf)
                values = buf
            order = self._order
            return struct.pack("<128H", *(values[order[i]] for i in range(128)))

    def _led_frame(self, grb):
        n = min(len(grb) // 3, self.pins.led_count)
        rgb = bytearray(3 * self.pins.led_count)
        ri, gi, bi = self.pins.led_rgb
        for i in range(n):
            rgb[3 * i] = grb[3 * i + ri]
            rgb[3 * i + 1] = grb[3 * i + gi]
            rgb[3 * i + 2] = grb[3 * i + bi]
        self.leds = bytes(rgb)
        self.led_frames += 1

    def lit(self):
        """{LED index: (r, g, b)} of the LEDs lit in the last frame the LED pin sent."""
        f = self.leds
        return {i: (f[3 * i], f[3 * i + 1], f[3 * i + 2]) for i in range(len(f) // 3)
                if f[3 * i] or f[3 * i + 1] or f[3 * i + 2]}

    # --- the line: device to host ---------------------------------------------------------------

    def _from_device(self, data):
        self._dev_at = self.now_us
        out = bytearray()
        for b in data:
            line = self._dev_line
            if not line and b == 0x7B:  # "{": maybe an answer of ours; hold it
                self._dev_held = True
            line.append(b)
            if b == 10:
                self._device_line(bytes(line), out)
                self._dev_line = bytearray()
                self._dev_held = False
            elif not self._dev_held:
                out.append(b)
                if len(line) > 4096:
                    self._dev_line = bytearray()
        self._to_host(bytes(out))
        if not self._dev_line:
            self._flush_pending()

    def _device_line(self, line, out):
        if b"MemoryError" in line:
            self.memory_errors += 1
        if self._dev_held and b'"id": "' + OWN_ID.encode() in line:
            self._answer(line)
            return
        out += line if self._dev_held else b"\n"
        self.device_text = (self.device_text + line)[-8000:]
        if self.on_line is not None:
            self.on_line(line.rstrip(b"\r\n"))

    def _answer(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            return
        with self._reply_ready:
            self._replies[msg.get("id")] = msg
            self._reply_ready.notify_all()

    def _to_host(self, data):
        if not data or self._master is None:
            return
        # Never wait for the host: with nobody reading the port, what does not fit the PTY
        # is lost (as a Pico's USB output is with no host listening), and the emulator runs on.
        with self._pty:
            try:
                while data:
                    data = data[os.write(self._master, data):]
            except BlockingIOError:
                self.dropped += len(data)
            except OSError:
                pass

    def _send_line(self, msg):
        # A line of ours to the host, between the device's lines.
        line = json.dumps(msg).encode() + b"\n"
        if self._dev_line:
            self._pending_out.append(line)
        else:
            self._to_host(line)

    def _flush_pending(self):
        while self._pending_out:
            self._to_host(self._pending_out.pop(0))

    # --- the line: host to device ---------------------------------------------------------------

    def _from_host(self):
        try:
            self._pump_host()
        except (OSError, ValueError, TypeError):
            if not self._stopping:
                raise  # a shutdown closes the PTY under this thread; anything else is a bug

    def _pump_host(self):
        from bgwire.sim import is_sim

        while not self._stopping:
            try:
                ready, _, _ = select.select([self._master], [], [], HOLD_S)
            except (OSError, ValueError, TypeError):
                return
            if not ready:
                if self._host_line:  # held too long: not a sim line after all
                    self._usb(bytes(self._host_line))
                    self._host_line = bytearray()
                    self._host_held = False
                if self._dev_line and self._dev_held and \
                        self.now_us - self._dev_at > HOLD_DEVICE_US:
                    self._dev_held = False
                    self._to_host(bytes(self._dev_line))
                self._flush_pending()
                continue
            try:
                data = os.read(self._master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            out = bytearray()
            for b in data:
                if not self._host_line and b == 0x7B and not self._host_mid:
                    self._host_held = True
                if self._host_held:
                    self._host_line.append(b)
                    if b == 10:
                        line = bytes(self._host_line)
                        self._host_line = bytearray()
                        self._host_held = False
                        if is_sim(line):
                            self._sim_line(line)
                        else:
                            out += line
                    elif b < 32:
                        out += self._host_line
                        self._host_line = bytearray()
                        self._host_held = False
                else:
                    out.append(b)
            if out:
                self._host_mid = out[-1] != 10
                self._usb(bytes(out))

    def _usb(self, data):
        if self.emulator is not None:
            self.emulator.send("U", data)

    # --- sim lines: the hands and buttons, worked by the host ----------------------------------

    def _sim_line(self, line):
        with self.lock:
            self._sim_control.handle(line)

    # --- for the players: commands, buttons, time -------------------------------------------------

    def command(self, cmd, timeout=60.0):
        """Send a command of ours (a dict) and return the board's answer (a dict; an error
        is returned, not raised). Raises PowerCut if the emulator stops meanwhile."""
        with self._reply_ready:
            self._next_id += 1
            key = "%s%d" % (OWN_ID, self._next_id)
        line = json.dumps(dict(cmd, id=key)).encode() + b"\n"
        chip = self.chips
        self._usb(line)
        self._resume()

        def over():
            return key in self._replies or self._gone.is_set() or self.chips != chip

        with self._reply_ready:
            self._reply_ready.wait_for(over, timeout)
            if key in self._replies:
                return self._replies.pop(key)
        if self._gone.is_set() or self.chips != chip:
            raise PowerCut("the emulator stopped")
        raise PicoError("no answer to %s in %.0f s" % (cmd.get("cmd"), timeout))

    def sleep(self, ms):
        """Let ms of emulated time pass (the emulator stops again when they have)."""
        event = threading.Event()
        self._alarm_at = self.now_us + ms * 1000.0
        self._alarm = event
        self.emulator.send("W", struct.pack("<d", self._alarm_at))
        self._resume()
        while not event.wait(1.0):
            if self._stopping:
                break
        self._alarm = None

    def _resume(self):
        if self._paused:
            self._paused = False
            self.emulator.send("G")

    def set_pin(self, pin, level):
        self.emulator.send("I", bytes((pin, level)))

    def hang_adc(self):
        """The ADC stops completing conversions until the chip restarts: the firmware's
        scan waits for it forever, and only the watchdog gets the board out."""
        self.emulator.send("H")

    def press(self, name, hold_ms=80):
        """Press a button (roll, double, take, drop, undo_verify, menu) for hold_ms."""
        pin = self.pins.buttons[name]
        active = self.pins.button_active[name]
        self.set_pin(pin, active)
        self.sleep(hold_ms)
        self.set_pin(pin, 1 - active)

    def act(self, actions):
        """Carry out a sim.hands action (a generator of waits in ms) in emulated time."""
        while True:
            with self.lock:
                try:
                    ms = next(actions)
                except StopIteration:
                    return
            self.sleep(ms)


class _Buttons:
    # sim.control's buttons (press(mask)) on the emulated board's pins: held down for 150 ms
    # of emulated time (far past the firmware's 30 ms debounce, however slowly the emulator
    # runs on a loaded machine), released by a thread of its own so that the line is not
    # held up.
    NAMES = {1: "roll", 2: "double", 4: "take", 8: "drop", 16: "undo_verify", 32: "menu"}
    HOLD_US = 150000

    def __init__(self, pico):
        self.pico = pico

    def press(self, mask):
        pico = self.pico
        held = []
        for bit, name in self.NAMES.items():
            if mask & bit:
                pin = pico.pins.buttons[name]
                active = pico.pins.button_active[name]
                pico.set_pin(pin, active)
                held.append((pin, 1 - active))
        if held:
            threading.Thread(target=self._release, args=(held, pico.now_us, pico.chips),
                             daemon=True).start()

    def _release(self, held, since, chip):
        pico = self.pico
        while pico.now_us - since < self.HOLD_US and pico.chips == chip \
                and not pico._stopping:
            time.sleep(0.01)
        for pin, level in held:
            pico.set_pin(pin, level)
