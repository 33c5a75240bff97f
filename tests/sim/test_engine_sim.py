"""`bgboard engine --sim --autoplay`: a whole match against real GNU Backgammon on a fresh
virtual board (the firmware on the MicroPython unix port), the simulated hands playing the
person's side and moving the engine's checkers as the board's LEDs show them.

The command itself checks, and says, that every engine play the board committed is the play
gnubg chose (bgcore compares the positions), that each of the engine's checkers was lit
(origin and destination) before the hands moved it, and that each wrong play the hands made
on purpose with the engine's checkers was shown as wrong on the LEDs and refused; it exits 1
otherwise. Here: those figures, the match file in gnubg with the journal's score and the
engine's name, a gnubg killed mid-match, and a missing gnubg."""

import json
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

ENGINE = "gnubg expert"  # the engine's name in the logs (black, player 1)


def _finish(run, timeout):
    """run.communicate(timeout): on a timeout the command is stopped as a user stops it
    (SIGTERM: it stops its virtual board, whose process is a session of its own) before the
    test fails, so that no board is left running for the rest of the suite."""
    try:
        return run.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        run.terminate()
        try:
            run.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()
        raise


def _engine(*args, **kw):
    return subprocess.Popen([os.path.join(BIN, "bgboard"), "engine", "--sim", "--autoplay"]
                            + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def _figures(out):
    m = re.search(r"engine: (\d+) play\(s\) as gnubg chose them, (\d+) otherwise; (\d+) "
                  r"double\(s\), (\d+) take\(s\), (\d+) drop\(s\), \d+ beaver\(s\), "
                  r"\d+ raccoon\(s\); \d+ resignation\(s\) offered; \d+ resignation\(s\) "
                  r"accepted, "
                  r"\d+ rejected; gnubg restarted (\d+)", out)
    g = re.search(r"guided: (\d+) engine play\(s\) made by the hands as lit \((\d+) "
                  r"checker\(s\) lit first, (\d+) not\); (\d+) wrong play\(s\) made on "
                  r"purpose: (\d+) shown as wrong, (\d+) refused", out)
    assert m and g, out
    return ([int(x) for x in m.groups()], [int(x) for x in g.groups()])


def _events(log):
    with open(os.path.join(log, "journal.jsonl")) as f:
        return [e for e in map(json.loads, f) if "ev" in e]


def test_a_match_against_gnubg_guided_on_the_leds_and_logged(tmp_path):
    from test_host_gnubg import run_gnubg, troubles

    log = str(tmp_path / "log")
    run = _engine("--seed", "5", "--match", "3", "--wrong-pct", "20", "--log", log,
                  "--flash-blunders")
    out, err = _finish(run, 600)
    assert run.returncode == 0, err[-2000:]
    assert "0 mismatch(es), 0 stuck" in out
    (plays, other, doubles, takes, drops, restarts), (guided, lit, unlit, wrong, shown,
                                                      refused) = _figures(out)
    assert other == 0 and plays >= 20 and plays == guided  # every engine play as gnubg's
    assert unlit == 0 and lit >= plays  # every checker lit before it moved
    assert wrong >= 3 and shown == wrong and refused == wrong
    assert doubles >= 1  # the engine's cube
    events = _events(log)
    (match,) = build_matches(events)
    assert match.length == 3 and match.over is not None
    engine_plays = [e for e in events if e["ev"] == "play" and e["player"] == 1
                    and e["moves"]]
    assert len(engine_plays) == plays
    # Each of the person's plays rated by gnubg (the hands play at random: badly).
    rated = re.search(r"person: (\d+) play\(s\) rated by gnubg \(world class\): (\d+) "
                      r"doubtful, (\d+) bad, (\d+) very bad; ([0-9.]+) equity lost", out)
    person_plays = [e for e in events if e["ev"] == "play" and e["player"] == 0 and e["moves"]]
    assert rated and int(rated.group(1)) == len(person_plays), out
    assert int(rated.group(4)) >= 1 and float(rated.group(5)) > 0.5
    # --flash-blunders: the board flashed each very bad play, and nothing else changed (the
    # checks above: every engine play gnubg's, the match over and logged)
    flashed = re.search(r"flashed: (\d+) very bad play\(s\)", out)
    assert flashed and int(flashed.group(1)) == int(rated.group(4)), out
    (mat,) = [n for n in os.listdir(log) if n.endswith(".mat")]
    with open(os.path.join(log, mat)) as f:
        text = f.read()
    assert ENGINE + " : 0" in text
    out = run_gnubg(str(tmp_path), [("m", ["import mat %s" % os.path.join(log, mat),
                                           "show score"])])["m"]
    assert not troubles(out), troubles(out)
    found = re.findall(r"The score \(after (\d+) games?\) is: White (\d+), %s (\d+)" % ENGINE,
                       out)
    assert found, out[-1500:]
    games, white, black = map(int, found[-1])
    assert [white, black] == match.score and games == len(match.games)


def _children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def _gnubg_child(pid):
    for c in _children(pid):
        try:
            with open("/proc/%d/cmdline" % c, "rb") as f:
                if b"gnubg_server.py" in f.read():
                    return c
        except OSError:
            pass
    return None


def test_gnubg_killed_mid_match_is_restarted_and_the_match_goes_on(tmp_path):
    log = str(tmp_path / "log")
    run = _engine("--seed", "3", "--match", "3", "--log", log, "--wait", "0.2")
    try:
        journal = os.path.join(log, "journal.jsonl")
        killed = None
        deadline = time.monotonic() + 300
        while killed is None and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
            if os.path.exists(journal) and len(_events(log)) >= 20:
                killed = _gnubg_child(run.pid)
                if killed is not None:
                    os.kill(killed, signal.SIGKILL)  # the engine's own process, by its id
        assert killed is not None, "the match ended before gnubg could be killed"
        out, err = _finish(run, 600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err[-2000:]
    (plays, other, *_rest, restarts), _guided = _figures(out)
    assert restarts == 1 and other == 0
    (match,) = build_matches(_events(log))
    assert match.over is not None  # played to its end
    assert len([e for e in _events(log) if e["ev"] == "play" and e["player"] == 1]) > 10


def test_a_money_session_against_gnubg(tmp_path):
    from test_host_gnubg import run_gnubg, troubles

    log = str(tmp_path / "log")
    run = _engine("--seed", "2", "--games", "2", "--log", log)
    out, err = _finish(run, 600)
    assert run.returncode == 0, err[-2000:]
    (plays, other, doubles, takes, *_rest), (guided, lit, unlit, *_w) = _figures(out)
    assert other == 0 and plays == guided >= 20 and unlit == 0
    events = _events(log)
    (session,) = build_matches(events)
    assert session.length == 0 and len(session.games) == 2
    (mat,) = [n for n in os.listdir(log) if n.endswith(".mat")]
    jacoby = events[0]["rules"].get("jacoby", False)
    out = run_gnubg(str(tmp_path), [("m", ["set jacoby %s" % ("on" if jacoby else "off"),
                                           "import mat %s" % os.path.join(log, mat),
                                           "show score"])])["m"]
    assert not troubles(out), troubles(out)
    found = re.findall(r"The score \(after (\d+) games?\) is: White (\d+), %s (\d+)" % ENGINE,
                       out)
    assert found and [int(found[-1][1]), int(found[-1][2])] == session.score, out[-1500:]


def test_without_gnubg_one_line_says_how_to_install_it(tmp_path):
    run = _engine("--seed", "1", env=dict(os.environ, BGBOARD_GNUBG=str(tmp_path / "none")))
    out, err = _finish(run, 60)
    assert run.returncode == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bgboard: GNU Backgammon (gnubg) is not "
                                                   "installed"), err
    assert "apt-get install gnubg" in lines[0]
    assert "port:" not in out  # nothing was started
