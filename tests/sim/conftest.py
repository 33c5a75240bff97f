"""The virtual board (bgboard.unixport) as the host starts it: the firmware on the
MicroPython unix port behind a PTY, with a flash folder per test."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
for path in (os.path.join(os.path.dirname(HERE), "host"),):
    if path not in sys.path:
        sys.path.insert(0, path)

from bgboard.unixport import UnixPortBoard, UnixPortError, micropython_binary  # noqa: E402


@pytest.fixture
def board(tmp_path):
    """A started virtual board (real time, seed 1) on tmp_path/flash."""
    try:
        micropython_binary()
    except UnixPortError as e:  # a missing tool fails the run (make venv installs it)
        pytest.fail(str(e))
    vb = UnixPortBoard(str(tmp_path / "flash"), ["--seed", "1"])
    vb.start()
    yield vb
    vb.stop()
    err = vb.stderr()
    if err.strip():
        print("virtual board stderr:\n" + err[-3000:])
