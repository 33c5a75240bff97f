"""Real mpremote against the virtual board: the raw REPL, raw-paste mode, a session that
persists between commands, the flash as its file system, Ctrl-C and soft resets."""

import json
import os
import subprocess
import sys
import time

import serial

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def mpremote(port, *args, timeout=60):
    run = subprocess.run([MPREMOTE, "connect", port] + list(args), capture_output=True,
                         text=True, timeout=timeout)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def read_until(ser, ending, timeout=10.0):
    data = b""
    deadline = time.monotonic() + timeout
    while not data.endswith(ending) and time.monotonic() < deadline:
        data += ser.read(1)
    assert data.endswith(ending), data[-300:]
    return data


def read_lines_until(ser, done, timeout=10.0):
    """The JSON lines read until done(msg) (other lines skipped)."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = ser.readline()
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        seen.append(msg)
        if done(msg):
            return seen
    raise AssertionError("not seen within %.0f s; last: %r" % (timeout, seen[-5:]))


def test_mpremote_runs_code_in_one_session_on_the_boards_flash(board, tmp_path):
    # One mpremote invocation: the session persists from one exec to the next.
    assert mpremote(board.port, "exec", "x = 41", "exec", "print(x + 1)").strip() == "42"
    # A soft reset is a fresh interpreter: the session's names are gone.
    out = mpremote(board.port, "exec", "y = 1", "soft-reset", "exec",
                   "print('y' in globals())")
    assert out.strip() == "False"
    listing = mpremote(board.port, "fs", "ls", ":")
    for name in ("main.py", "pinmap.json", "board/", "bgcore/"):
        assert name in listing
    script = tmp_path / "hi.py"
    script.write_text("import os\nprint('files', len(os.listdir('/')))\n")
    assert mpremote(board.port, "run", str(script)).startswith("files ")
    # An error on the board comes back as mpremote's error, with the board's traceback.
    run = subprocess.run([MPREMOTE, "connect", board.port, "exec", "1/0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "ZeroDivisionError" in run.stdout + run.stderr


def test_fs_ls_gives_each_files_size_and_bgboard_finds_the_firmware_after_it(board):
    # As a Pico's littlefs lists them; the unix port's own listing has no sizes (all 0).
    listing = mpremote(board.port, "fs", "ls", ":")
    sizes = {line.split()[1]: int(line.split()[0]) for line in listing.splitlines()[1:]
             if line.strip()}
    for name in ("main.py", "pinmap.json", "field.json"):
        assert sizes[name] == os.path.getsize(os.path.join(board.flash, name)) > 0, listing
    listing = mpremote(board.port, "fs", "ls", ":bgcore")
    assert all(int(line.split()[0]) > 0 for line in listing.splitlines()[1:] if line.strip())
    # mpremote leaves the board at MicroPython's REPL, the firmware stopped: bgboard starts
    # it again (a soft reset) instead of giving up on hello.
    run = subprocess.run([os.path.join(os.path.dirname(sys.executable), "bgboard"), "send",
                          "hello", "--port", board.port], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["hello"] == "bgboard"


def test_mpremote_copies_only_what_changed_and_removes_files(board, tmp_path):
    local = tmp_path / "notes.txt"
    local.write_bytes(b"bgboard " * 2000)  # several raw-paste windows
    mpremote(board.port, "fs", "mkdir", ":lib")
    out = mpremote(board.port, "fs", "cp", str(local), ":lib/notes.txt")
    assert "Up to date" not in out
    with open(os.path.join(board.flash, "lib", "notes.txt"), "rb") as f:
        assert f.read() == local.read_bytes()
    assert "Up to date" in mpremote(board.port, "fs", "cp", str(local), ":lib/notes.txt")
    assert mpremote(board.port, "fs", "cat", ":lib/notes.txt").startswith("bgboard bgboard")
    mpremote(board.port, "fs", "rm", ":lib/notes.txt")
    assert not os.path.exists(os.path.join(board.flash, "lib", "notes.txt"))
    run = subprocess.run([MPREMOTE, "connect", board.port, "fs", "cat", ":nothing.txt"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "No such file" in run.stdout + run.stderr


def test_ctrl_c_stops_the_firmware_and_ctrl_d_starts_it_again(board):
    with serial.serial_for_url(board.port, 115200, timeout=0.2, exclusive=True) as ser:
        ser.write(b'{"cmd": "hello"}\n')
        read_lines_until(ser, lambda m: m.get("hello") == "bgboard")
        ser.write(b"\x03")
        read_until(ser, b">>> ")
        ser.write(b"print(6 * 7)\r")  # the friendly REPL, as a person types
        assert b"42" in read_until(ser, b">>> ")
        ser.write(b"\x04")  # soft reset: main.py runs again and says hello
        read_until(ser, b"soft reboot\r\n")
        hello = read_lines_until(ser, lambda m: "hello" in m)[-1]
        assert hello["hello"] == "bgboard" and hello["firmware"]
    assert board.restarts == 1


def test_the_virtual_board_is_set_up_by_simulated_hands_over_the_line(board):
    """Lines for the simulated hardware ({"sim": ...}) lift and place checkers: the
    firmware sees them only through its sensors, and the starting position starts a
    game."""
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    with serial.serial_for_url(board.port, 115200, timeout=0.2, exclusive=True) as ser:
        ser.write(b'{"cmd": "new", "kind": "money", "id": 1}\n')
        read_lines_until(ser, lambda m: m.get("id") == 1)
        ser.write(b'{"sim": "lift", "side": 0, "at": 7}\n')  # nothing there: refused
        refused = read_lines_until(ser, lambda m: m.get("live") == "sim")[-1]
        assert refused["error"].startswith("no checker")
        for side in (0, 1):
            for point, n in start.items():
                for _ in range(n):
                    ser.write(json.dumps({"sim": "lift", "side": side, "at": 0}).encode()
                              + b"\n")
                    ser.write(json.dumps({"sim": "place", "side": side, "at": point})
                              .encode() + b"\n")
        seen = read_lines_until(ser, lambda m: m.get("ev") == "game", timeout=20)
        tables = [m for m in seen if m.get("live") == "sim"]
        assert len(tables) == 60
        assert tables[-1]["table"][1][:9] == [0, 0, 0, 0, 0, 0, 5, 0, 3]
        assert tables[-1]["hand"] == [0, 0]


def test_hostile_input_is_answered_and_the_virtual_board_goes_on(board):
    """A sim line nested 600 deep gets an error reply; invalid UTF-8 typed at the REPL gets
    a traceback and the REPL goes on, as on a Pico (neither may end the board)."""
    deep = b'{"sim": ' + b"[" * 600 + b"]" * 600 + b"}\n"
    with serial.serial_for_url(board.port, 115200, timeout=0.2, exclusive=True) as ser:
        ser.write(deep)
        reply = read_lines_until(ser, lambda m: m.get("live") == "sim")[-1]
        assert reply.get("error"), reply
        ser.write(b'{"cmd": "hello"}\n')
        read_lines_until(ser, lambda m: m.get("hello") == "bgboard")
        ser.write(b"\x03")
        read_until(ser, b">>> ")
        ser.write(b"\xff\xfe\xc3(\r")
        assert b"UnicodeError" in read_until(ser, b">>> ")
        ser.write(b"print(6 * 7)\r")
        assert b"42" in read_until(ser, b">>> ")
    assert board.alive()
