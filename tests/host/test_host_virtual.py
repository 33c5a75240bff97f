"""The firmware's own game controller (firmware/board/controller.py, run in the virtual board
of firmware/sim with simulated hands) as the source of events: its journaled events must
make .mat and SGF files that replay legally through bgcore and import into gnubg with the
match's score. A contract check between the board and the host, in process (the serial
wiring of the controller is the end-to-end tests' business)."""

import json


import matparse

from bgboard.events import build_matches
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text

import board.journal as journal_mod  # noqa: E402
import sim.autoplay as autoplay  # noqa: E402
import sim.virtual_board as virtual_board  # noqa: E402


def board_events(tmp_path, seed, length):
    events = []
    vb = virtual_board.VirtualBoard(seed=seed, clumsy=10,
                                    journal=journal_mod.Journal(str(tmp_path)))
    player = autoplay.Autoplay(vb, seed=seed, double_pct=15)
    forward = player.on_message

    def tap(msg):
        if "ev" in msg:
            events.append(json.loads(json.dumps(msg)))  # as it goes over the wire
        forward(msg)

    vb.emit = vb.board.emit = tap
    assert player.play_match(length)
    return events, vb.board.match


def test_the_controllers_events_make_files_gnubg_reads(tmp_path):
    events, match = board_events(tmp_path, 2, 5)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    problems = []
    (m,) = build_matches(events, problems)
    assert problems == []
    text = mat_text(m)
    length, games = matparse.parse(text)
    assert length == 5 and len(games) == len(m.games)
    for g in games:
        matparse.replay(g)
    assert m.score == match.score
    from test_host_gnubg import final_score, run_gnubg, troubles

    (tmp_path / "m.mat").write_text(text)
    (tmp_path / "m.sgf").write_text(sgf_text(m))
    out = run_gnubg(str(tmp_path), [
        ("mat", ["import mat %s" % (tmp_path / "m.mat"), "show score"]),
        ("sgf", ["load match %s" % (tmp_path / "m.sgf"), "show score"])])
    for key in ("mat", "sgf"):
        assert troubles(out[key]) == []
        assert final_score(out[key]) == (len(m.games), match.score)
