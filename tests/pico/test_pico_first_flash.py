"""A first flash that does not finish leaves no image that looks flashed: `bgboard sim --pico`
flashes a new image under another name and keeps it only once complete, so the next run
flashes it again instead of starting a half-flashed Pico that never answers."""

import os
import queue
import signal
import subprocess
import threading

from picosupport import BIN


def _stderr_lines(proc):
    lines = queue.Queue()

    def read():
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _wait_for(lines, text, timeout=300):
    while True:
        line = lines.get(timeout=timeout)
        assert line is not None, "ended before %r" % text
        if text in line:
            return line


def test_a_flash_killed_midway_keeps_no_image_and_the_next_run_flashes_anew(tmp_path):
    image = str(tmp_path / "pico.img")
    cmd = [os.path.join(BIN, "bgboard"), "sim", "--pico", "--image", image]
    sim = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(_stderr_lines(sim), "file 3 of ")
    finally:
        sim.kill()  # dead, as a crash or a power cut leaves it: no clean-up of its own
        sim.wait(30)
    assert not os.path.exists(image), os.listdir(tmp_path)
    assert sim.stdout.read() == ""  # its port was never given out
    again = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = _stderr_lines(again)
        _wait_for(lines, "a new Pico")
        _wait_for(lines, "file 1 of ")
    finally:
        again.send_signal(signal.SIGINT)  # Ctrl-C during the flash: nothing kept either
        again.wait(60)
    assert sorted(os.listdir(tmp_path)) == ["pico.img.lock"]
