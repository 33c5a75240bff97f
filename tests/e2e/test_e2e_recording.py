"""Issue 5's evidence, end to end: the firmware application (board.app.App) runs under the
real MicroPython unix port on simulated hardware (firmware/sim/main_unix.py) behind a
real PTY; the host's own code (bgboard.link over bgboard.transport's pyserial port, and
bgboard.recorder) talks to it. See simboard.py for the wiring."""

import json
import os
import random

import matparse

from bgboard.events import build_matches
from bgboard.link import Link
from bgboard.matfile import mat_text
from bgboard.recorder import JOURNAL, Recorder
from bgboard.transport import Disconnected, SerialTransport
from simboard import board_journal, wait_until

AUTOPLAY = "autoplay.json"


def autoplay_figures(board):
    try:
        with open(os.path.join(board.flash, AUTOPLAY)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def done(board):
    figures = autoplay_figures(board)
    return figures is not None and figures["done"]


def recorded_events(log_dir):
    with open(os.path.join(log_dir, JOURNAL)) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return [e for e in lines if "ev" in e], [e for e in lines if "journal" in e]


def check_players(board):
    figures = autoplay_figures(board)
    assert figures["mismatches"] == 0 and figures["stuck"] == 0, figures
    return figures


def test_games_played_by_hands_on_the_firmware_end_up_in_gnubg_valid_files(spawn, tmp_path):
    board = spawn("--autoplay", "3", "--speed", "0", "--seed", "1", "--double-pct", "20")
    log = str(tmp_path / "log")
    rec = Recorder(log, fsync=False)
    link = rec.attach(Link(lambda: SerialTransport(board.path), board.path, timeout=10))
    link.connect(wait=True)
    assert wait_until(lambda: link.poll(0.1) is not None and done(board), 60), board.stderr()
    link.poll(0.3)
    state = link.command("state")
    journal = board_journal(link)
    link.close()
    rec.close()
    figures = check_players(board)

    events, marks = recorded_events(log)
    assert [m["journal"] for m in marks] == [link.journal]
    # nothing lost, nothing twice: the board's journal itself (the board compacts its
    # journal on flash, keeping its last events: those must be the log's)
    assert [e["seq"] for e in events] == list(range(1, state["seq"] + 1))
    assert journal and events[-len(journal):] == journal
    over = events[-1]
    assert over["ev"] == "match_over" and over["score"] == state["match"]["score"]
    assert max(over["score"]) >= 3
    assert {"double", "take", "drop"} & {e["ev"] for e in events}  # the cube was used

    (m,) = build_matches(events)
    mats = [p for p in rec.files if p.endswith(".mat")]
    assert len(mats) == 1
    with open(mats[0]) as f:
        text = f.read()
    assert text == mat_text(m)
    length, games = matparse.parse(text)
    assert length == 3 and len(games) == len(m.games) == figures["games"] >= 2
    plays = 0
    for g in games:
        plays += matparse.replay(g)[1]  # every play legal for its dice, through bgcore
    assert plays == sum(1 for e in events if e["ev"] == "play" and e["moves"])

    from test_host_gnubg import final_score, run_gnubg, troubles

    out = run_gnubg(str(tmp_path), [("mat", ["import mat %s" % mats[0], "show score"])])["mat"]
    assert troubles(out) == []
    assert final_score(out) == (len(m.games), over["score"])
    print("e2e: %d games, %d events (the board keeps the last %d), %d plays (%d with "
          "checkers moved) imported into gnubg, score %s" % (len(m.games), len(events),
                                                      len(journal), figures["plays"], plays,
                                                      over["score"]))


class PulledTransport(SerialTransport):
    """A pyserial port whose cable is pulled after `budget` reads and writes: the port is
    closed under the link, wherever it is (a command, the handshake, the journal catch-up)."""

    def __init__(self, url, budget, pulled):
        super().__init__(url)
        self.budget = budget
        self.pulled = pulled

    def _spend(self):
        self.budget -= 1
        if self.budget < 0:
            self.close()
            self.pulled.append(1)
            raise Disconnected("cable pulled")

    def read_line(self, timeout):
        self._spend()
        return super().read_line(min(timeout, 0.05))

    def write_line(self, line):
        self._spend()
        super().write_line(line)


def test_pulling_the_link_many_times_loses_nothing(spawn, tmp_path):
    board = spawn("--autoplay", "5", "--speed", "40", "--seed", "4", "--double-pct", "15",
                  "--journal-bytes", "1000000")
    log = str(tmp_path / "log")
    rng = random.Random(5)
    pulled = []  # cable pulls under a running link (it reconnects by itself)
    restarts = 0  # the host process restarted: a new Recorder on the same folder
    while not done(board):
        assert board.alive(), board.stderr()
        rec = Recorder(log, fsync=False)
        link = rec.attach(Link(lambda: PulledTransport(board.path, rng.randint(1, 60), pulled),
                               board.path, timeout=10, retry_interval=0.01))
        try:
            link.connect(wait=True)
            link.poll(rng.uniform(0.05, 0.8))
        finally:
            link.close()
            rec.close()
        restarts += 1
    rec = Recorder(log, fsync=False)  # the last run catches up with the end of the match
    link = rec.attach(Link(lambda: SerialTransport(board.path), board.path, timeout=10))
    link.connect()
    link.poll(0.2)
    hello = link.command("hello")
    journal = board_journal(link)
    link.close()
    rec.close()
    check_players(board)

    events, marks = recorded_events(log)
    assert [m["journal"] for m in marks] == [hello["journal"]]
    assert events == journal  # event for event
    assert [e["seq"] for e in events] == list(range(1, hello["seq"] + 1))
    assert events[-1]["ev"] == "match_over"
    (m,) = build_matches(events)
    (mat,) = [p for p in rec.files if p.endswith(".mat")]
    with open(mat) as f:
        assert f.read() == mat_text(m)
    assert len(pulled) + restarts >= 30, (len(pulled), restarts)
    print("e2e: %d events in %d games recorded through %d cable pulls and %d host restarts"
          % (len(events), len(m.games), len(pulled), restarts))
