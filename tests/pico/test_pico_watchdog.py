"""The RP2040's watchdog under the shipped firmware: a hang resets the board into a clean
resume, and a host that takes the board to its REPL (mpremote, bgboard flash) is never reset
by it."""

import os
import subprocess

from picosupport import BIN, hello, wait_until


def test_a_hung_adc_resets_the_board_and_it_resumes_at_its_last_event(pico):
    first = hello(pico)
    assert first and "reset" not in first
    pico.command({"cmd": "new", "kind": "money"})
    before = hello(pico)
    assert before["seq"] == first["seq"] + 1
    boots = len(pico.boots)
    pico.hang_adc()  # the scan waits for a conversion that never comes
    assert wait_until(lambda: len(pico.boots) > boots, 300), pico.device_text[-2000:]
    assert pico.boots[-1][1] == "reset"  # the chip's own reset: a new chip's clock at 0
    back = hello(pico)
    assert back, pico.device_text[-2000:]
    assert back.get("reset") == "watchdog", back
    assert (back["journal"], back["seq"]) == (before["journal"], before["seq"])


def test_the_repl_is_not_reset_by_the_watchdog(pico):
    # mpremote interrupts the firmware (Ctrl-C) and runs code for longer than the watchdog's
    # 8 s (board.app.WATCHDOG_MS): the firmware disarmed it on the way out.
    assert hello(pico)
    boots = len(pico.boots)
    run = subprocess.run([os.path.join(BIN, "mpremote"), "connect", pico.port, "exec",
                          "import time; time.sleep(12); print('still here')"],
                         capture_output=True, text=True, timeout=300)
    assert run.stdout.strip() == "still here", run.stdout + run.stderr
    assert len(pico.boots) == boots
