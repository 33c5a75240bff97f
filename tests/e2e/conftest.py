"""End-to-end fixtures: the firmware compiled once per session (simboard.compile_firmware),
the MicroPython interpreter required."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HOST_TESTS = os.path.join(os.path.dirname(HERE), "host")
for path in (HERE, HOST_TESTS):
    if path not in sys.path:
        sys.path.insert(0, path)

from simboard import SimBoard, bytecode  # noqa: E402,F401  (bytecode: a fixture)


@pytest.fixture
def spawn(bytecode, tmp_path):
    """spawn(*args, name="flash"): a SimBoard on a flash folder in tmp_path; stopped after
    the test (its stderr shown if the test failed)."""
    boards = []

    def start(*args, name="flash", **kw):
        board = SimBoard(bytecode, str(tmp_path / name), *args, **kw)
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.stop()
        err = board.stderr()
        if err.strip():
            print("board stderr (%s):\n%s" % (board.flash, err[-3000:]))
