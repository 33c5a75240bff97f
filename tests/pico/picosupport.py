"""Helpers for the emulated Pico's tests (conftest.py has the fixtures)."""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "host"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host"))  # the gnubg helpers

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
