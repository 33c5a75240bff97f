"""`bgboard engine --port PATH`: GNU Backgammon plays a whole match on a board behind a serial
port, as it does on a person's board plugged in over USB.

The board is the virtual board on a real PTY (`bgboard sim --autoplay --hands white`: its own
simulated hands play white, and move black's checkers only as the board's LEDs guide them,
sometimes first wrongly on purpose); `bgboard engine --port PATH` holds that port alone and
plays black with real gnubg, as a person runs it beside a board. Nothing else speaks on the
line until both are done.

What the issue asks of this path: every engine play the board committed is the play gnubg
chose (the engine says so: bgcore compares the committed position with gnubg's), each of its
checkers was lit before the hands moved it and each wrong move was shown and refused (the
hands say so), the match ends, and the .mat the engine writes names it and imports into gnubg
with the score of the board's own journal (read from the board afterwards)."""

import os
import re
import signal
import subprocess
import sys
import time

from bgboard.events import build_matches

BIN = os.path.dirname(sys.executable)
HOST_TESTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host")
if HOST_TESTS not in sys.path:
    sys.path.insert(0, HOST_TESTS)

ENGINE = "gnubg expert"  # the engine's name in the .mat (black, player 1)


def _start(args, out, **kw):
    with open(out, "w") as f:  # a file, not a pipe: nobody has to read it while it runs
        return subprocess.Popen([os.path.join(BIN, "bgboard")] + args, stdout=f,
                                stderr=subprocess.STDOUT, text=True, **kw)


def _read(path):
    with open(path) as f:
        return f.read()


def _wait_for(proc, path, pattern, deadline):
    """The first match of `pattern` in the output file `path` of the running `proc`."""
    while time.monotonic() < deadline:
        m = re.search(pattern, _read(path), re.M)
        if m:
            return m
        assert proc.poll() is None, "stopped (%s):\n%s" % (proc.returncode, _read(path)[-3000:])
        time.sleep(0.2)
    raise AssertionError("no %r in time:\n%s" % (pattern, _read(path)[-3000:]))


def _stop(proc):
    """Stop as a user does (SIGTERM: Ctrl-C's path); its exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
    return proc.returncode


def _board_events(port):
    """The board's journal, read over its port by the host's link (as `bgboard log` does)."""
    from bgboard.cli_common import open_link

    events = []
    link = open_link(port, sync=True, on_event=events.append)
    try:
        link.connect()
        last = link.command("state")["seq"]
        while link.last_seq < last:
            link.poll(0.5)
    finally:
        link.close()
    return events


def test_the_engine_plays_a_match_on_a_board_over_its_port(tmp_path):
    from test_host_gnubg import run_gnubg, troubles

    log = str(tmp_path / "matches")
    sim_out, engine_out = str(tmp_path / "sim.txt"), str(tmp_path / "engine.txt")
    board = _start(["sim", "--autoplay", "--hands", "white", "--match", "3", "--seed", "5",
                    "--wrong-pct", "20", "--flash", str(tmp_path / "flash")], sim_out)
    engine = None
    try:
        deadline = time.monotonic() + 600
        port = _wait_for(board, sim_out, r"^port: (\S+)$", deadline).group(1)
        engine = _start(["engine", "--port", port, "--side", "black", "--wait", "0",
                         "--log", log], engine_out)
        # The hands are done when the match is: their figures, checked by `bgboard sim`
        # itself (it exits 1 on a play committed other than made, or unlit, or let through).
        hands = _wait_for(board, sim_out, r"^guided: .*$", deadline).group(0)
        # The engine writes the match and has gnubg analyse it when the board says it ended
        # (a few seconds; an engine that missed the match's start never does).
        _wait_for(engine, engine_out, r"^bgboard: analysis of (\S+\.mat): ",
                  min(deadline, time.monotonic() + 120))
        assert _stop(engine) == 0, _read(engine_out)[-3000:]
        events = _board_events(port)  # the board is still there; the port is free again
    finally:
        if engine is not None and engine.poll() is None:
            _stop(engine)
        status = _stop(board)
    out, said = _read(engine_out), _read(sim_out)
    assert status == 0, said[-3000:]  # the hands' figures passed bgboard sim's own checks
    assert "0 mismatch(es), 0 stuck" in said, said

    g = re.match(r"guided: (\d+) engine play\(s\) made by the hands as lit \((\d+) checker\(s\) "
                 r"lit first, (\d+) not\); (\d+) wrong play\(s\) made on purpose: (\d+) shown "
                 r"as wrong, (\d+) refused", hands)
    assert g, hands
    guided, lit, unlit, wrong, shown, refused = map(int, g.groups())
    m = re.search(r"^engine: (\d+) play\(s\) as gnubg chose them, (\d+) otherwise; (\d+) "
                  r"double\(s\)", out, re.M)
    assert m, out[-3000:]
    plays, other, doubles = map(int, m.groups())

    (match,) = build_matches(events)  # the board's own record
    assert match.length == 3 and match.over is not None and max(match.score) >= 3
    engine_plays = [e for e in events if e["ev"] == "play" and e["player"] == 1 and e["moves"]]
    # Every play the board committed for the engine is the one gnubg chose, lit checker by
    # checker before the hands moved it; the wrong ones shown and never committed.
    assert other == 0 and plays == guided == len(engine_plays) >= 20
    assert unlit == 0 and lit >= plays
    assert wrong >= 2 and shown == wrong and refused == wrong
    # The person's plays rated as they came (the hands play at random).
    person_plays = [e for e in events if e["ev"] == "play" and e["player"] == 0 and e["moves"]]
    rated = re.search(r"^person: (\d+) play\(s\) rated by gnubg", out, re.M)
    assert rated and int(rated.group(1)) == len(person_plays), out[-3000:]

    mats = sorted(n for n in os.listdir(log) if n.endswith(".mat"))
    assert len(mats) == 1, os.listdir(log)
    assert mats[0][:-4] + ".analysis.json" in os.listdir(log)
    text = _read(os.path.join(log, mats[0]))
    assert re.search(r"^ White : \d+ +%s : \d+$" % ENGINE, text, re.M), text[:400]
    got = run_gnubg(str(tmp_path), [("m", ["import mat %s" % os.path.join(log, mats[0]),
                                           "show score"])])["m"]
    assert not troubles(got), troubles(got)
    found = re.findall(r"The score \(after (\d+) games?\) is: White (\d+), %s (\d+)" % ENGINE,
                       got)
    assert found, got[-1500:]
    games, white, black = map(int, found[-1])
    assert [white, black] == match.score and games == len(match.games)


ASKED = "gnubg's throw: throw the dice for it and enter them"


def test_physical_dice_typed_for_the_engines_throws(tmp_path):
    """--dice physical: the engine throws no dice of the board's; it asks, and the person
    (here the test) throws for it and types them in its terminal. Every throw of the
    engine's in the board's journal is the one typed, in order; a bad line is said and
    changes nothing; the match is played to its end as gnubg chose."""
    import random

    rng = random.Random(11)
    log = str(tmp_path / "matches")
    sim_out, engine_out = str(tmp_path / "sim.txt"), str(tmp_path / "engine.txt")
    board = _start(["sim", "--autoplay", "--hands", "white", "--match", "1", "--seed", "3",
                    "--flash", str(tmp_path / "flash")], sim_out)
    engine = None
    typed = []
    try:
        deadline = time.monotonic() + 600
        port = _wait_for(board, sim_out, r"^port: (\S+)$", deadline).group(1)
        engine = _start(["engine", "--port", port, "--dice", "physical", "--wait", "0",
                         "--log", log], engine_out, stdin=subprocess.PIPE)
        engine.stdin.write("7 7\n")  # no die has 7 pips
        engine.stdin.flush()
        while not re.search(r"^guided: ", _read(sim_out), re.M):
            assert time.monotonic() < deadline, _read(engine_out)[-3000:]
            assert board.poll() is None and engine.poll() is None, _read(engine_out)[-3000:]
            if _read(engine_out).count(ASKED) > len(typed):
                typed.append([rng.randint(1, 6), rng.randint(1, 6)])
                engine.stdin.write("%d %d\n" % tuple(typed[-1]))
                engine.stdin.flush()
            time.sleep(0.05)
        _wait_for(engine, engine_out, r"^bgboard: analysis of (\S+\.mat): ",
                  min(deadline, time.monotonic() + 120))
        assert _stop(engine) == 0, _read(engine_out)[-3000:]
        events = _board_events(port)
    finally:
        if engine is not None and engine.poll() is None:
            _stop(engine)
        status = _stop(board)
    out = _read(engine_out)
    assert status == 0, _read(sim_out)[-3000:]
    assert "bgboard: dice '7 7': two dice of 1 to 6" in out, out[-3000:]
    (match,) = build_matches(events)
    assert match.over is not None
    thrown = [e["dice"] for e in events if e["ev"] == "roll" and e["player"] == 1]
    assert thrown and thrown == typed, (thrown, typed)  # as typed, in order
    m = re.search(r"^engine: (\d+) play\(s\) as gnubg chose them, (\d+) otherwise", out, re.M)
    assert m and int(m.group(2)) == 0 and int(m.group(1)) >= 5, out[-3000:]
