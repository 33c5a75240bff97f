"""The oldest MicroPython the firmware runs on: main.py refuses an older one at boot with a
clear message, and `bgboard flash` refuses to write to such a board."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from bgboard import firmware
from bgboard.flash import FlashError, check_version

MPY = os.path.join(os.path.dirname(sys.executable), "micropython")


def test_the_host_reads_the_minimum_from_main_py():
    assert firmware.micropython_min() == (1, 21)  # asyncio as MicroPython ships it


def test_flash_refuses_an_older_micropython_and_accepts_the_minimum_and_newer():
    with pytest.raises(FlashError, match=r"runs MicroPython 1\.20; the firmware needs 1\.21"):
        check_version((1, 20), (1, 21))
    with pytest.raises(FlashError):
        check_version((0, 9), (1, 21))
    check_version((1, 21), (1, 21))
    check_version((1, 28), (1, 21))
    check_version((2, 0), (1, 21))
    check_version((1, 0), None)


def test_a_firmware_without_a_stated_minimum_is_refused_by_the_host(tmp_path):
    (tmp_path / "main.py").write_text("print('hello')\n")
    with pytest.raises(firmware.FirmwareError, match="MICROPYTHON_MIN"):
        firmware.micropython_min(str(tmp_path))


def test_main_py_on_an_older_micropython_stops_with_a_clear_message(tmp_path):
    # The real unix port playing an old board: the minimum raised past it.
    with open(os.path.join(firmware.FIRMWARE_DIR, "main.py")) as f:
        text = f.read()
    text = re.sub(r"^MICROPYTHON_MIN = .*$", "MICROPYTHON_MIN = (99, 0)", text, flags=re.M)
    (tmp_path / "main.py").write_text(text)
    shutil.copy(os.path.join(firmware.HARDWARE_DIR, "pinmap.json"), tmp_path)
    run = subprocess.run([MPY, "main.py"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode != 0
    assert re.search(r"bgboard needs MicroPython 99\.0 or later; this board has 1\.\d+: put a "
                     r"newer MicroPython on it", run.stdout + run.stderr), run.stderr
