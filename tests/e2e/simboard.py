"""The firmware under the real MicroPython unix port behind a real PTY, for end-to-end tests.

    board = SimBoard(bytecode_dir, flash_dir, "--autoplay", "3", "--speed", "0")
    SerialTransport(board.path)      # the host opens the PTY's slave side with pyserial
    board.stop()

Wiring: os.openpty() gives a master and a slave fd. MicroPython runs
firmware/sim/main_unix.py with its stdin and stdout both on the master fd (the board's
end of the cable), its stderr in a file (tracebacks). The host opens the slave path
(/dev/pts/N) through bgboard.transport.SerialTransport (pyserial, exclusive=True), as it
would open /dev/ttyACM0. The slave is put in raw mode before MicroPython starts (otherwise
the line discipline would echo the board's own lines back to it) and this object keeps an
fd on it open, so that closing the host's port (pulling the cable) is not a hang-up for the
board: what it writes meanwhile waits in the PTY (up to its buffer: then the board waits),
and pyserial's open discards it when the host comes back, as a fresh USB connection would.
"""

import os
import subprocess
import time
import tty

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY = os.path.join(ROOT, ".venv", "bin", "micropython")
SCRIPT = os.path.join(ROOT, "firmware", "sim", "main_unix.py")
HEAP = "448K"


def compile_firmware(dest):
    """The firmware the virtual board needs (bgcore, bgwire, board, sim) as bytecode in dest,
    compiled as bgboard compiles it (a folder of our own: another `make bytecode` may be
    emptying build/bytecode at the same time)."""
    from bgboard.firmware import compile_packages

    compile_packages(dest, ("bgcore", "bgwire", "board", "sim"))
    return dest


@pytest.fixture(scope="session")
def bytecode(tmp_path_factory):
    """The fixture: the firmware compiled once per test session (MicroPython required)."""
    if not os.path.exists(MPY):
        pytest.fail("the MicroPython unix port is not installed (make venv)")
    return compile_firmware(str(tmp_path_factory.mktemp("bytecode")))


class SimBoard:
    def __init__(self, bytecode, flash, *args, heap=HEAP, interpreter=None):
        self.flash = flash
        master, slave = os.openpty()
        tty.setraw(slave)
        self.slave = slave
        self.path = os.ttyname(slave)
        self.stderr_path = os.path.join(os.path.dirname(os.path.abspath(flash)),
                                        os.path.basename(flash) + ".stderr")
        if interpreter is None:
            cmd = [MPY, "-X", "heapsize=%s" % heap, SCRIPT]
            env = dict(os.environ, MICROPYPATH=bytecode)
        else:  # CPython, from source
            cmd = [interpreter, SCRIPT]
            env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware"))
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(cmd + ["--flash", flash] + list(args), stdin=master,
                                         stdout=master, stderr=err, cwd=ROOT, env=env)
        os.close(master)  # the board holds it now

    def alive(self):
        return self.proc.poll() is None

    def stderr(self):
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None


def wait_until(check, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()


def board_journal(link):
    """Every event the board's journal keeps (after a compaction, the last ones), read page
    by page with `journal`."""
    from bgboard.link import Refused

    events = []
    since = 0
    while True:
        try:
            reply = link.command("journal", since=since)
        except Refused as e:
            if e.reply.get("error") != "resync" or events:
                raise
            since = e.reply["first"] - 1  # compacted: what it keeps
            continue
        events += reply["events"]
        if not reply["events"] or not reply.get("more"):
            return events
        since = reply["events"][-1]["seq"]
