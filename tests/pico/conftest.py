"""The emulated Pico (bgboard.pico): stock MicroPython for the RP2040 in rp2040js, our
firmware flashed onto it by `bgboard flash` through real mpremote, its pins wired to the
simulated world. One flash per test session (about half a minute); each test then starts
from a copy of that flash image."""

import os
import shutil
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "host"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host"))  # the gnubg helpers

from bgboard.pico import PicoBoard  # noqa: E402

BIN = os.path.dirname(sys.executable)


def bgboard(*args, timeout=300):
    return subprocess.run([os.path.join(BIN, "bgboard")] + list(args), capture_output=True,
                          text=True, timeout=timeout)


def wait_until(check, timeout, step=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(step)
    return check()


class Flashed:
    """The flash image of a Pico that `bgboard flash` has just deployed to, and what it
    said."""

    def __init__(self, image, run):
        self.image = image
        self.run = run


@pytest.fixture(scope="session")
def flashed(tmp_path_factory):
    image = str(tmp_path_factory.mktemp("pico") / "flash.img")
    pico = PicoBoard(image, speed=0)
    port = pico.start()
    try:
        run = bgboard("flash", "--port", port)
    finally:
        pico.stop()
    assert pico.memory_errors == 0, pico.device_text[-2000:]
    return Flashed(image, run)


@pytest.fixture
def pico(flashed, tmp_path):
    """A started emulated Pico (as fast as it goes, seed 1) on a copy of the flashed image;
    a MemoryError on its line fails the test."""
    assert flashed.run.returncode == 0, flashed.run.stderr[-2000:]
    image = str(tmp_path / "flash.img")
    shutil.copy(flashed.image, image)
    board = PicoBoard(image, speed=0, seed=1)
    board.start()
    yield board
    board.stop()
    assert board.memory_errors == 0, board.device_text[-3000:].decode("utf-8", "replace")


def hello(board, timeout=60):
    """The firmware's hello, once it runs (it starts after boot, from the flash)."""
    return wait_until(lambda: _try_hello(board), timeout, step=0.5)


def _try_hello(board):
    from bgboard.pico import PicoError

    try:
        reply = board.command({"cmd": "hello"}, timeout=5)
    except PicoError:
        return None
    return reply if reply.get("hello") == "bgboard" else None
