"""The port every board command opens, as a person gives it: one that is missing, busy
(another bgboard holds it), or no serial port at all (/dev/null, a regular file, a folder, a
socket nobody listens on) is one line on stderr and exit status 2 at once, in the same words
in every command; none waits or retries. Real pyserial on real PTYs, the installed command."""

import json
import os
import socket
import subprocess
import sys

import pytest

from fakeboard import FakeBoard, PtyBoard

from bgboard.transport import SerialTransport

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")

# Every command that opens a board's port (P: the port, OUT: a folder that must not appear).
COMMANDS = [
    ["send", "hello", "--port", "P"],
    ["send", "--port", "P", "hello"],
    ["send", "new", "match", "3", "--port", "P"],
    ["monitor", "--port", "P"],
    ["monitor", "--once", "--port", "P"],
    ["log", "--out", "OUT", "--port", "P"],
    ["engine", "--port", "P"],
    ["view", "--port", "P", "--http-port", "0"],
    ["flash", "--port", "P"],
    ["calibrate", "--yes", "--port", "P"],
    ["kept", "--port", "P", "-o", "OUT"],
    ["play", "--port", "P"],
]


def bgboard(args, port, out):
    env = dict(os.environ)
    env.pop("BGBOARD_PORT", None)
    args = [port if a == "P" else str(out) if a == "OUT" else a for a in args]
    # Today's refusals take well under a second; a command that waits or retries instead
    # runs into the timeout and fails the test.
    return subprocess.run([BGBOARD] + args, capture_output=True, text=True, timeout=30,
                          env=env, stdin=subprocess.DEVNULL)


def refused(result, words, out):
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("bgboard: ") and result.stderr.count("\n") == 1, \
        result.stderr
    assert words in result.stderr, result.stderr
    assert not os.path.exists(out)  # nothing made before the port was checked


@pytest.fixture
def board():
    runner = PtyBoard(FakeBoard()).start()
    yield runner
    runner.stop()


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_a_missing_port_is_one_line_exit_2_in_every_command(args, tmp_path):
    port = "/dev/ttyACM-bgboard-none"
    refused(bgboard(args, port, tmp_path / "out"),
            "port %s does not exist: is the board plugged in?" % port, tmp_path / "out")


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_a_port_another_bgboard_holds_is_one_line_exit_2(args, board, tmp_path):
    holder = SerialTransport(board.path)  # opened exclusively, as `bgboard log` opens it
    try:
        refused(bgboard(args, board.path, tmp_path / "out"),
                "port %s is busy: another program has it open" % board.path,
                tmp_path / "out")
    finally:
        holder.close()
    # and once it is free, the same port is the board's
    r = bgboard(["send", "hello", "--port", board.path], board.path, tmp_path / "out")
    assert r.returncode == 0 and json.loads(r.stdout)["hello"] == "bgboard", r.stderr


def _closed_socket_url():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nobody listens there now
    return "socket://127.0.0.1:%d" % port


@pytest.mark.parametrize("kind", ["/dev/null", "file", "folder", "socket"])
@pytest.mark.parametrize("args", [["log", "--out", "OUT", "--port", "P"],
                                  ["monitor", "--port", "P"], ["engine", "--port", "P"],
                                  ["view", "--port", "P", "--http-port", "0"]],
                         ids=lambda a: a[0])
def test_a_port_that_is_no_serial_port_is_one_line_exit_2(args, kind, tmp_path):
    if kind == "file":
        port = str(tmp_path / "notes.txt")
        with open(port, "w") as f:
            f.write("not a board\n")
    elif kind == "folder":
        port = str(tmp_path)
    elif kind == "socket":
        port = _closed_socket_url()
    else:
        port = kind
    words = ("nothing listens at %s" if kind == "socket" else
             "port %s is not a serial port") % port
    refused(bgboard(args, port, tmp_path / "out"), words, tmp_path / "out")


def test_flash_checks_the_port_before_it_builds(tmp_path):
    # A firmware folder that cannot be built: the port is what is said, not the build.
    broken = tmp_path / "firmware"
    broken.mkdir()
    (broken / "main.py").write_text("def broken(:\n")
    r = bgboard(["flash", "--port", "P", "--firmware", str(broken)],
                "/dev/ttyACM-bgboard-none", tmp_path / "out")
    refused(r, "port /dev/ttyACM-bgboard-none does not exist", tmp_path / "out")
    assert "firmware" not in r.stderr


def test_send_takes_the_port_before_or_after_the_command(board, tmp_path):
    for args in (["send", "--port", "P", "hello"], ["send", "hello", "--port", "P"],
                 ["send", "new", "--port", "P", "match", "3"],
                 ["send", "--timeout", "5", "--port", "P", "verify"]):
        r = bgboard(args, board.path, tmp_path / "out")
        assert r.returncode == 0, (args, r.stderr)
    assert [c[0] for c in board.board.commands if c[0] != "hello"] == ["new", "verify"]
    # one given after the command wins over one given before it
    r = bgboard(["send", "--port", "/dev/ttyACM-bgboard-none", "hello", "--port", "P"],
                board.path, tmp_path / "out")
    assert r.returncode == 0, r.stderr


def test_a_busy_http_port_names_a_free_one(board, tmp_path):
    import re

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        http = taken.getsockname()[1]
        r = bgboard(["view", "--port", "P", "--http-port", str(http)], board.path,
                    tmp_path / "out")
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert "cannot serve on 127.0.0.1:%d: the port is in use" % http in r.stderr
        assert "--http-port 0 takes any" in r.stderr
        offered = int(re.search(r"--http-port (\d+) is free", r.stderr).group(1))
        with socket.socket() as s:
            s.bind(("127.0.0.1", offered))  # it is free indeed
    finally:
        taken.close()


def test_log_still_waits_for_a_port_it_has_had_that_went_away(tmp_path):
    # The refusals above are for the start only: a board that goes away once logged (a
    # cable pulled; here its socket closed, nothing listening) is waited for, and what it
    # commits once back is recorded.
    import random
    import signal
    import time

    from eventgen import play_match
    from fakeboard import SocketBoard

    events = play_match(random.Random(81), 3)[0]
    runner = SocketBoard(FakeBoard()).start()
    half = len(events) // 2
    for e in events[:half]:
        runner.board.commit(e)
    out = tmp_path / "rec"
    log = subprocess.Popen([BGBOARD, "log", "--out", str(out), "--port", runner.url, "-q"],
                           stderr=subprocess.PIPE, text=True)
    journal = out / "journal.jsonl"

    def recorded():
        return journal.read_text().count("\n") - 1 if journal.exists() else 0

    try:
        deadline = time.monotonic() + 30
        while recorded() < half and time.monotonic() < deadline:
            time.sleep(0.1)
        assert recorded() == half
        address = runner.server.getsockname()
        runner.server.close()  # the board is gone: nothing listens at the URL
        runner.disconnect()
        time.sleep(2)  # the log tries again meanwhile
        assert log.poll() is None
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(address)
        server.listen(4)
        server.settimeout(0.05)
        runner.server = server  # back, at the same URL
        for e in events[half:]:
            runner.commit(e)
        deadline = time.monotonic() + 30
        while recorded() < len(events) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert recorded() == len(events)
    finally:
        log.send_signal(signal.SIGINT)
        err = log.communicate(timeout=20)[1]
        runner.stop()
    assert log.returncode == 0, err
    assert "nothing listens at %s" % runner.url in err and "reconnected" in err, err
