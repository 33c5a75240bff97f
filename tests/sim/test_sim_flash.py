"""`bgboard flash` against the virtual board, through real mpremote's transport: only what
changed is written, what no longer belongs is removed, the new firmware runs after the
reset; a busy port and a port with no REPL are refused clearly."""

import os
import shutil
import subprocess
import sys

import serial

from bgboard.firmware import FIRMWARE_DIR, MANIFEST
from bgboard.link import Link
from bgboard.transport import SerialTransport

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


def bgboard(*args, timeout=120):
    return subprocess.run([BGBOARD] + list(args), capture_output=True, text=True,
                          timeout=timeout)


def hello(port):
    link = Link(lambda: SerialTransport(port), port, timeout=10.0, reconnect=False)
    try:
        link.connect()
        return link.command("hello")
    finally:
        link.close()


def board_files(flash):
    out = set()
    for folder, _, names in os.walk(flash):
        for n in names:
            out.add(os.path.relpath(os.path.join(folder, n), flash))
    return out


def test_flash_writes_only_the_changed_file_and_the_new_version_runs(board, tmp_path):
    source = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, source, ignore=shutil.ignore_patterns("__pycache__"))
    run = bgboard("flash", "--port", board.port, "--firmware", str(source))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("0 file(s) written"), run.stdout  # as it came installed
    app = source / "board" / "app.py"
    app.write_text(app.read_text().replace('FIRMWARE = "0.1.0"', 'FIRMWARE = "0.1.1-test"'))
    journal = os.path.join(board.flash, "journal")
    before = os.path.getmtime(journal) if os.path.exists(journal) else None
    run = bgboard("flash", "--port", board.port, "--firmware", str(source))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("1 file(s) written"), run.stdout
    assert "writing board/app.mpy" in run.stderr
    assert hello(board.port)["firmware"] == "0.1.1-test"
    # The board's own files are not the flash tool's business.
    assert "calibration.json" in board_files(board.flash)
    if before is not None:
        assert os.path.getmtime(journal) == before


def test_flash_as_source_removes_the_compiled_files_and_back(board):
    run = bgboard("flash", "--port", board.port, "--source")
    assert run.returncode == 0, run.stderr
    files = board_files(board.flash)
    assert "board/app.py" in files and not [f for f in files if f.endswith(".mpy")]
    with open(os.path.join(board.flash, MANIFEST)) as f:
        assert "board/app.py" in f.read().split()
    assert hello(board.port)["hello"] == "bgboard"
    run = bgboard("flash", "--port", board.port)
    assert run.returncode == 0, run.stderr
    files = board_files(board.flash)
    assert "board/app.mpy" in files and "board/app.py" not in files
    assert hello(board.port)["hello"] == "bgboard"


def test_flash_refuses_a_busy_port(board):
    with serial.serial_for_url(board.port, 115200, exclusive=True):
        run = bgboard("flash", "--port", board.port)
    assert run.returncode == 2  # said before anything is built, as every command says it
    assert run.stderr == ("bgboard: port %s is busy: another program has it open (close "
                          "it, e.g. another bgboard or a serial terminal)\n" % board.port)


def test_flash_refuses_a_port_without_a_raw_repl():
    master, slave = os.openpty()  # a line nobody answers on
    try:
        run = bgboard("flash", "--port", os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert run.returncode == 1
    assert "does not answer the raw REPL" in run.stderr, run.stderr
