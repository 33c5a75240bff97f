"""The emulated Pico (bgboard.pico): stock MicroPython for the RP2040 in rp2040js, our
firmware flashed onto it by `bgboard flash` through real mpremote, its pins wired to the
simulated world. One flash per test session (about half a minute); each test then starts
from a copy of that flash image."""

import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from picosupport import bgboard  # noqa: E402

from bgboard.pico import PicoBoard  # noqa: E402


def pytest_collection_modifyitems(items):
    # With pytest-xdist (make test): every test here on one worker, so that the session's
    # one flash serves them all while the other worker runs the rest.
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.xdist_group("pico"))


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
