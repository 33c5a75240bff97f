"""The board commands of the `bgboard` command line: --help everywhere, export from a journal,
send / monitor / calibrate / log against a scripted board on a PTY, port auto-detection, and
one-line errors (exit status 2 for bad input or a refused command, 1 for a link failure)."""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from eventgen import journal_of, play_match
from fakeboard import FakeBoard, PtyBoard

from bgboard import cli_common
from bgboard.cli import main
from bgboard.events import build_matches
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


@pytest.fixture(autouse=True)
def no_port_env(monkeypatch):
    monkeypatch.delenv("BGBOARD_PORT", raising=False)


def run(capsys, *args):
    """bgboard in-process: (exit status, stdout, stderr)."""
    code = 0
    try:
        result = main(list(args))
        if isinstance(result, int):
            code = result
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err, code, expected):
    assert code == expected, err
    assert err.startswith("bgboard: ") and err.count("\n") == 1, repr(err)


HELP = [
    [], ["ports"], ["monitor"], ["log"], ["export"], ["send"], ["calibrate"],
    ["send", "roll"], ["send", "double"], ["send", "take"], ["send", "drop"],
    ["send", "beaver"], ["send", "resign"], ["send", "accept"], ["send", "reject"],
    ["send", "raccoon"], ["send", "demand"], ["send", "rethrow"], ["send", "void"],
    ["send", "undo"], ["send", "verify"], ["send", "state"], ["send", "hello"],
    ["send", "dump"], ["send", "ledtest"], ["send", "new"], ["send", "new", "match"],
    ["send", "new", "money"],
]


@pytest.mark.parametrize("args", HELP, ids=lambda a: " ".join(a) or "bgboard")
def test_help_everywhere(capsys, args):
    code, out, err = run(capsys, *args, "--help")
    assert code == 0 and err == ""
    assert out.startswith("Usage: bgboard")
    for words in ("--port", ):
        if args and args[0] in ("monitor", "log", "calibrate") or args[:1] == ["send"] \
                and len(args) > 1 and args[1] != "new" or args[:3] == ["send", "new", "match"]:
            assert words in out


# --- export ----------------------------------------------------------------------------------


@pytest.fixture
def journal(tmp_path):
    runs = [play_match(random.Random(61), 3)[0], play_match(random.Random(62), 0, games=2)[0]]
    events = journal_of(*runs)
    path = tmp_path / "journal.jsonl"
    with open(path, "w") as f:
        f.write(json.dumps({"journal": 42, "host": "bgboard 0.1.0"}) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    return path, build_matches(events)


def test_export_mat_and_sgf_to_stdout_and_to_a_file(capsys, journal, tmp_path):
    path, matches = journal
    code, out, err = run(capsys, "export", str(path), "--format", "mat", "--match", "1")
    assert code == 0, err
    assert out == mat_text(matches[0])
    code, out, err = run(capsys, "export", str(path), "--format", "sgf")
    assert code == 0
    assert out == sgf_text(matches[1])
    assert "exporting the last" in err
    target = tmp_path / "out.mat"
    code, out, err = run(capsys, "export", str(path), "--format", "mat", "-o", str(target),
                         "--white", "Ann", "--black", "Bob", "--match", "2")
    assert code == 0 and out == ""
    assert target.read_text() == mat_text(matches[1], ("Ann", "Bob"))


@pytest.mark.parametrize("args,words", [
    (["export", "/nonexistent/journal.jsonl", "--format", "mat"], "does not exist"),
    (["export", "JOURNAL", "--format", "pdf"], "pdf"),
    (["export", "JOURNAL"], "--format"),
    (["export", "JOURNAL", "--format", "mat", "--match", "9"], "holds 2"),
    (["export", "JOURNAL", "--format", "mat", "--white", "A:B"], "--white"),
    (["export", "EMPTY", "--format", "mat"], "no game"),
    (["send", "roll", "7", "1", "--port", "PORT"], "1 to 6"),
    (["send", "roll", "5", "--port", "PORT"], "two dice"),
    (["send", "resign", "4", "--port", "PORT"], "resign 1"),
    (["send", "new", "match", "0", "--port", "PORT"], "1 to 64 points"),
    (["send", "new", "match", "5", "--beavers", "--port", "PORT"], "match play"),
    (["send", "new", "money", "--raccoons", "--port", "PORT"], "raccoons"),
    (["send", "new", "money", "--cube-cap", "3", "--port", "PORT"], "cube_cap"),
    (["send", "fly", "--port", "PORT"], "fly"),
    (["send"], "send needs a command"),
    (["send", "hello", "--port", "socket://nohost:99999"], "the port 1-65535"),
    (["monitor", "--port", "/nonexistent"], "/nonexistent does not exist"),
    (["log", "--out", "OUT", "--port", "/nonexistent"], "/nonexistent does not exist"),
    (["export", "JOURNAL", "--format", "mat", "--match", "1", "-o", "/proc/nope"],
     "cannot write /proc/nope"),
    (["sim", "--heap", "banana"], "not a heap size"),
    (["sim", "--speed", "nan"], "nan is not a speed"),
    (["sim", "--speed", "inf"], "inf is not a speed"),
    (["sim", "--speed", "-inf"], "not in the range"),
    (["sim", "--autoplay", "--match", "65"], "1 to 64 points, got 65"),
    (["engine", "--sim", "--autoplay", "--match", "65"], "1 to 64 points, got 65"),
    (["send", "new", "match", "65", "--port", "PORT"], "1 to 64 points, got 65"),
    (["sim", "--hands", "white"], "--hands goes with --autoplay"),
    (["engine", "--sim", "--autoplay", "--dice", "physical"], "--dice physical goes with"),
    (["sim", "--autoplay", "--wrong-pct", "5"], "--wrong-pct goes with --hands"),
    (["sim", "--autoplay", "--hands", "black", "--log", "OUT"], "--log is that player's"),
    (["rules", "plays", "--position-id", "AAAAAAAAAAAAAA", "--dice", "3", "1"], "game is over"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, journal, tmp_path, args, words):
    path, _ = journal
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n")
    subst = {"JOURNAL": str(path), "EMPTY": str(empty), "PORT": "/dev/ttyACM-bgboard-none",
             "OUT": str(tmp_path / "log")}
    code, out, err = run(capsys, *[subst.get(a, a) for a in args])
    one_line_error(err, code, 2)
    assert words in err


def test_the_installed_command_exports(journal):
    path, matches = journal
    r = subprocess.run([BGBOARD, "export", str(path), "--format", "mat", "--match", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == mat_text(matches[0])
    r = subprocess.run([BGBOARD, "export", str(path) + ".none", "--format", "mat"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""


# --- against a scripted board -------------------------------------------------------------------


def handler(cmd, args):
    if cmd == "double":
        return {"error": "player 1 owns the cube: only the cube's owner may redouble"}
    if cmd == "verify":
        return {"ok": True, "missing": [13], "extra": []}
    if cmd == "calibrate" and args.get("step") == "empty":
        return {"ok": True, "faulty": [[17, "stuck high"], [90, "noisy"]]}
    if cmd == "calibrate" and args.get("step") == "checkers":
        return {"ok": True, "measured": 30, "suspect": [[42, "one checker reads 300 counts"]]}
    if cmd == "dump":
        return {"ok": True, "raw": [0] * 128, "codes": [0] * 128, "offsets": [0] * 128,
                "faulty": [17, 90]}
    return {"ok": True}


@pytest.fixture
def board():
    b = FakeBoard(handler=handler)
    runner = PtyBoard(b).start()
    yield runner
    runner.stop()


def test_send_commands_reach_the_board_and_print_the_reply(capsys, board):
    p = board.path
    code, out, err = run(capsys, "send", "roll", "5", "2", "--port", p)
    assert code == 0, err
    assert board.board.commands[-1] == ("roll", {"dice": [5, 2]})
    code, out, err = run(capsys, "send", "roll", "--port", p)
    assert board.board.commands[-1] == ("roll", {})
    run(capsys, "send", "resign", "gammon", "--port", p)
    assert board.board.commands[-1] == ("resign", {"level": 2})
    run(capsys, "send", "new", "money", "--games", "5", "--port", p)
    assert board.board.commands[-1] == ("new", {"kind": "money", "games": 5, "options": {}})
    run(capsys, "send", "rethrow", "4", "2", "--port", p)
    assert board.board.commands[-1] == ("rethrow", {"dice": [4, 2]})
    run(capsys, "send", "void", "--port", p)
    assert board.board.commands[-1] == ("void", {})
    run(capsys, "send", "demand", "--port", p)
    assert board.board.commands[-1] == ("demand", {"level": 2})
    run(capsys, "send", "demand", "backgammon", "--port", p)
    assert board.board.commands[-1] == ("demand", {"level": 3})
    run(capsys, "send", "new", "match", "7", "--no-crawford", "--port", p)
    assert board.board.commands[-1] == ("new", {"kind": "match", "length": 7,
                                                "options": {"crawford": False}})
    run(capsys, "send", "new", "money", "--jacoby", "--beavers", "--automatic-doubles", "1",
        "--port", p)
    assert board.board.commands[-1] == ("new", {"kind": "money", "options": {
        "jacoby": True, "beavers": True, "automatic_doubles": 1}})
    for name in ("take", "drop", "accept", "reject", "undo", "state", "beaver", "raccoon"):
        code, out, err = run(capsys, "send", name, "--port", p)
        assert code == 0 and board.board.commands[-1] == (name, {})
        assert out == "ok\n"
    code, out, err = run(capsys, "send", "verify", "--port", p)
    assert json.loads(out) == {"missing": [13], "extra": []}


def test_a_refused_command_is_one_line_exit_2(capsys, board):
    code, out, err = run(capsys, "send", "double", "--port", board.path)
    one_line_error(err, code, 2)
    assert "owns the cube" in err


def test_link_failures_are_one_line_exit_1(capsys, board):
    board.board.protocol = 2
    code, out, err = run(capsys, "send", "state", "--port", board.path)
    one_line_error(err, code, 1)
    assert "bgboard flash" in err
    board.board.protocol = 1
    board.board.silent = True
    t0 = time.monotonic()
    code, out, err = run(capsys, "send", "--timeout", "0.5", "state", "--port", board.path)
    one_line_error(err, code, 1)
    assert "did not answer hello within 0.5 s" in err
    assert time.monotonic() - t0 < 3


def test_ports_marks_picos_and_port_auto_detection(capsys, board, monkeypatch):
    fake = [("/dev/ttyS0", "n/a", False), (board.path, "2E8A:0005 Board in FS mode", True)]
    monkeypatch.setattr(cli_common, "list_ports", lambda: fake)
    code, out, err = run(capsys, "ports")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("* ") and "Pico/MicroPython" in lines[1]
    assert lines[0].startswith("  /dev/ttyS0")
    code, out, err = run(capsys, "send", "state", )
    assert code == 0, err
    assert err == "bgboard: using port %s (2E8A:0005 Board in FS mode)\n" % board.path
    monkeypatch.setattr(cli_common, "list_ports", lambda: fake[:1])
    code, out, err = run(capsys, "send", "state")
    one_line_error(err, code, 2)
    assert "no board found" in err and "`bgboard sim`" in err
    monkeypatch.setattr(cli_common, "list_ports", lambda: fake + [("/dev/ttyACM1", "x", True)])
    code, out, err = run(capsys, "send", "state")
    one_line_error(err, code, 2)
    assert "--port" in err


def test_monitor_once_shows_position_score_cube_and_events(capsys, board):
    events = play_match(random.Random(71), 5)[0]
    for e in events[:60]:
        board.board.commit(e)
    board.push({"live": "sensors", "faulty": [17]})
    code, out, err = run(capsys, "monitor", "--once", "--port", board.path,
                         "--white", "Ann", "--black", "Bob")
    assert code == 0, err
    assert "5-point match" in out and "Ann" in out and "Bob" in out
    assert "Position ID:" in out and "cube " in out and "last events:" in out


def test_monitor_names_the_sensors_the_board_no_longer_trusts(capsys):
    # Issue 29: the board's `state` lists them (`untrusted`); monitor says where they are.
    def answers(cmd, args):
        if cmd == "state":
            return {"ok": True, "phase": "opening", "untrusted": [27, 116, 125]}
        return handler(cmd, args)

    runner = PtyBoard(FakeBoard(handler=answers)).start()
    try:
        code, out, err = run(capsys, "monitor", "--once", "--port", runner.path)
    finally:
        runner.stop()
    assert code == 0, err
    assert "sensors not trusted" in out
    assert "point 6, slot 3; point 24, slot 2; black's bar, slot 2" in out, out


def test_monitor_follows_the_blind_line_over_the_state_reply():
    from bgboard.monitor import View

    view = View()
    view.board_state = {"phase": "setup", "untrusted": [116]}
    assert "point 24, slot 2" in view.render()
    view.apply_live({"live": "blind", "slots": [], "words": "every sensor is trusted"})
    assert "not trusted" not in view.render()
    view.apply_live({"live": "blind", "slots": [0, 123], "words": "..."})
    assert "point 1, slot 1; white's bar, slot 4" in view.render()


def test_calibrate_guides_reports_faulty_slots_and_saves(capsys, board):
    code, out, err = run(capsys, "calibrate", "--yes", "--port", board.path)
    assert code == 0, err
    assert "17, 90" in out and "stored" in out
    assert "Slot 42: one checker reads 300 counts" in out and "30 slots measured" in out
    cmds = [c for c in board.board.commands if c[0] != "hello"]
    assert cmds == [("calibrate", {"step": "empty"}), ("dump", {}),
                    ("calibrate", {"step": "checkers"}), ("calibrate", {"step": "save"})]


def test_log_records_until_interrupted(board, tmp_path):
    events = play_match(random.Random(81), 3)[0]
    half = len(events) // 2
    for e in events[:half]:
        board.board.commit(e)
    out = tmp_path / "rec"
    proc = subprocess.Popen([BGBOARD, "log", "--out", str(out), "--port", board.path, "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)
        for e in events[half:]:
            board.commit(e)
        deadline = time.monotonic() + 20
        path = out / "journal.jsonl"
        while time.monotonic() < deadline:
            if path.exists() and path.read_text().count("\n") == len(events) + 1:
                break
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert "recording into" in err
    lines = path.read_text().splitlines()
    assert [json.loads(ln) for ln in lines[1:]] == events
    (m,) = build_matches(events)
    mats = [p for p in os.listdir(out) if p.endswith(".mat")]
    assert len(mats) == 1
    assert (out / mats[0]).read_text() == mat_text(m)


def test_help_lists_what_a_person_starts_with_first_with_whole_sentences():
    from bgboard.cli import cli

    env = dict(os.environ, COLUMNS="80")
    out = subprocess.run([BGBOARD, "--help"], capture_output=True, text=True, env=env,
                         timeout=60).stdout
    listed = out[out.index("Start with:"):]
    names = [line.split()[0] for line in listed.splitlines()
             if line.startswith("  ") and not line.startswith("   ")]
    assert names[:4] == ["sim", "play", "engine", "log"]
    assert sorted(names[4:]) == names[4:] and set(names) == set(cli.commands)
    assert "..." not in listed
    flat = " ".join(listed.split())
    for name, command in cli.commands.items():
        words = " ".join(command.help.split())
        first = words[:words.index(". ") + 1] if ". " in words else words
        assert first in flat, name  # the whole first sentence, however long
