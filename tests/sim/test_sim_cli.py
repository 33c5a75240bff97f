"""`bgboard sim` as a person or a script runs it: the port on the first line, mpremote and
bgboard on it, Ctrl-C to stop; --autoplay plays and logs a whole match that real GNU
Backgammon imports with the board's final score."""

import json
import os
import signal
import subprocess
import sys
import threading
import tty


from bgboard.events import build_matches

BIN = os.path.dirname(sys.executable)


def test_sim_prints_its_port_first_serves_mpremote_and_stops_on_ctrl_c(tmp_path):
    sim = subprocess.Popen([os.path.join(BIN, "bgboard"), "sim", "--flash",
                            str(tmp_path / "flash")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        first = sim.stdout.readline()
        assert first.startswith("port: /dev/pts/"), first
        port = first.split()[1]
        run = subprocess.run([os.path.join(BIN, "mpremote"), "connect", port, "exec",
                              "import sys; print(sys.platform)"], capture_output=True,
                             text=True, timeout=60)
        assert run.stdout.strip() == "linux", run.stdout + run.stderr
        # mpremote leaves a board at its REPL; `reset` starts the firmware again.
        subprocess.run([os.path.join(BIN, "mpremote"), "connect", port, "reset"],
                       check=True, capture_output=True, timeout=60)
        run = subprocess.run([os.path.join(BIN, "bgboard"), "send", "hello", "--port", port],
                             capture_output=True, text=True, timeout=60)
        assert json.loads(run.stdout)["hello"] == "bgboard", run.stderr
    finally:
        sim.send_signal(signal.SIGINT)
        assert sim.wait(20) == 0
    assert "stopped" in sim.stderr.read()
    assert not os.path.exists(port)  # the PTY is gone with it


def test_a_second_sim_on_the_same_flash_is_refused_until_the_first_stops(tmp_path):
    # Side by side, the second would replay the first one's journal and both would write it.
    flash = str(tmp_path / "flash")
    cmd = [os.path.join(BIN, "bgboard"), "sim", "--flash", flash]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout.readline().startswith("port: ")
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        assert second.stdout == ""
        (line,) = second.stderr.strip().splitlines()
        assert line.startswith("bgboard: ") and flash in line and "in use" in line, line
    finally:
        first.send_signal(signal.SIGINT)
        assert first.wait(20) == 0
    again = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert again.stdout.readline().startswith("port: ")
        while "the board runs" not in again.stderr.readline():  # Ctrl-C is for it from here
            pass
    finally:
        again.send_signal(signal.SIGINT)
        assert again.wait(20) == 0


def test_autoplay_plays_and_logs_a_match_that_gnubg_imports(tmp_path):
    from test_host_gnubg import final_score, run_gnubg, troubles

    log = tmp_path / "log"
    run = subprocess.run([os.path.join(BIN, "bgboard"), "sim", "--autoplay", "--seed", "1",
                          "--match", "5", "--log", str(log)], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("port: ")
    assert "0 mismatch(es), 0 stuck" in run.stdout
    with open(log / "journal.jsonl") as f:
        events = [e for e in map(json.loads, f) if "ev" in e]
    (match,) = build_matches(events)
    assert match.length == 5 and match.over is not None
    # The winning play, its result and the match's end are committed once, and last.
    kinds = [e["ev"] for e in events]
    assert kinds[-3:] == ["play", "result", "match_over"] and kinds.count("match_over") == 1
    assert kinds.count("result") == kinds.count("game"), kinds
    (mat,) = [p for p in os.listdir(log) if p.endswith(".mat")]
    out = run_gnubg(str(tmp_path), [("m", ["import mat %s" % (log / mat), "show score"])])["m"]
    assert not troubles(out), troubles(out)
    assert final_score(out) == (len(match.games), match.over["score"])
    assert max(match.over["score"]) >= 5


def test_autoplay_ends_in_the_heap_its_match_was_played_in(tmp_path):
    # The board's tests run at 288K (the Makefile's APP_HEAP: a Pico's free RAM after boot
    # less a reserve). A 1-point match plays through in it; asking the board at the end for
    # what it committed must not cost more than the play did (before: the whole `state`,
    # refused "out of memory" in the heap the match had cut up, a traceback and exit 1).
    for seed in (7, 2):
        run = subprocess.run([os.path.join(BIN, "bgboard"), "sim", "--autoplay", "--seed",
                              str(seed), "--match", "1", "--flash", str(tmp_path / "flash"),
                              "--heap", "288K"], capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-2000:]
        assert "0 mismatch(es), 0 stuck" in run.stdout, run.stdout


def test_a_person_sets_up_checkers_from_the_terminal_and_sees_the_leds(board):
    # The LEDs ask for the missing checkers of the starting position; the ones placed stop
    # being asked for; an impossible lift is refused in words.
    typed = "new money\nmove off 24\nmove off 24\nlift 9\nquit\n"
    run = subprocess.run([os.path.join(BIN, "bgboard"), "play", "--port", board.port],
                         input=typed, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "white 24:2 | bar 0 | off 13 | in hand 0" in out
    assert "refused: no white checker on point 9 to lift" in out
    last_leds = [ln for ln in out.splitlines() if "LEDs" in ln][-1]
    assert "missing: " in last_leds and "point 24" not in last_leds and "point 13" in last_leds


def test_terminal_play_says_the_tie_the_dice_the_turn_and_what_the_board_refuses(board):
    # One numbering, typed and shown: White's, the frame's (Black's 6 point is 19). A
    # refused roll is explained; the tie that changes nothing is said; the board's requests
    # (a lift of the side not on roll, a checker on a point it may not go) are put in words.
    typed = ("roll\nnew match 3\narrange\nshow\nroll\nroll\nlift 19 b\nplace 19 b\n"
             "move 13 12\nroll\nquit\n")
    run = subprocess.run([os.path.join(BIN, "bgboard"), "play", "--port", board.port],
                         input=typed, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    answers = run.stdout.split("bgboard> ")[1:]
    assert len(answers) == 11, run.stdout
    roll, new, arrange, show, tie, opening, lift, put_back, wrong, early = answers[:10]
    assert "refused: no match in progress: start one" in roll
    assert "turn: set up the checkers" in new
    assert "white 24:2 13:5 8:3 6:5 | bar 0 | off 0 | in hand 0" in arrange
    assert "black 19:5 17:3 12:5 1:2 | bar 0 | off 0 | in hand 0" in arrange
    assert "turn: opening throw" in show
    assert "opening throw: White 1, Black 1 (a tie: both throw again)" in tie
    assert "turn: opening throw" in tie
    assert "turn: White to play 6-4" in opening
    assert ("checkers out of place (only the side on roll moves): put back a checker on "
            "point 19") in lift
    assert "black 19:4 17:3 12:5 1:2 | bar 0 | off 0 | in hand 1" in lift
    assert "black 19:5 " in put_back and "missing" not in put_back
    assert "not a legal place: the checker on point 12 must go back to point 13" in wrong
    assert "white 24:2 13:4 12:1 8:3 6:5" in wrong
    assert "refused: White has not finished the play (6-4 still to play)" in early


def test_play_refuses_a_board_that_is_not_virtual():
    # A PTY on which a stand-in for a real board answers hello and journal, and refuses
    # everything else (as the firmware refuses a line without "cmd").
    master, slave = os.openpty()
    tty.setraw(slave)

    def real_board():
        buf = b""
        while True:
            try:
                data = os.read(master, 1024)
            except OSError:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                msg = json.loads(line)
                if msg.get("cmd") == "hello":
                    reply = {"hello": "bgboard", "protocol": 1, "firmware": "0.1.0",
                             "journal": 1, "seq": 0, "ok": True, "id": msg.get("id")}
                elif msg.get("cmd") == "journal":
                    reply = {"ok": True, "id": msg.get("id"), "events": []}
                else:
                    reply = {"error": "no cmd", "id": msg.get("id")}
                os.write(master, json.dumps(reply).encode() + b"\n")

    threading.Thread(target=real_board, daemon=True).start()
    try:
        run = subprocess.run([os.path.join(BIN, "bgboard"), "play", "--port",
                              os.ttyname(slave)], input="quit\n", capture_output=True,
                             text=True, timeout=60)
    finally:
        os.close(slave)
        os.close(master)
    assert run.returncode == 1
    assert "not a virtual board" in run.stderr


def test_a_second_host_on_the_virtual_boards_port_is_refused(tmp_path):
    import time

    sim = subprocess.Popen([os.path.join(BIN, "bgboard"), "sim", "--flash",
                            str(tmp_path / "flash")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    first = None
    try:
        port = sim.stdout.readline().split()[1]
        first = subprocess.Popen([os.path.join(BIN, "bgboard"), "log", "--out",
                                  str(tmp_path / "first"), "--port", port, "-q"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        journal = tmp_path / "first" / "journal.jsonl"
        deadline = time.monotonic() + 60
        while not journal.exists():  # the first host has the board's hello
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        second = subprocess.run([os.path.join(BIN, "bgboard"), "log", "--out",
                                 str(tmp_path / "second"), "--port", port],
                                capture_output=True, text=True, timeout=30)
        assert second.returncode == 2, second.stderr
        assert second.stderr == ("bgboard: port %s is busy: another program has it open "
                                 "(close it, e.g. another bgboard or a serial terminal)\n"
                                 % port)
        assert not (tmp_path / "second").exists()
        assert first.poll() is None  # the first host records on
    finally:
        if first is not None:
            first.send_signal(signal.SIGINT)
            first.wait(20)
        sim.send_signal(signal.SIGINT)
        sim.wait(20)
