"""A chouette from the host's side: `bgboard send new chouette` and the cube commands with
--member, checked against a scripted board; journals of chouettes played on the firmware's
own controller (chouettegen) grouped into games, written as .mat and SGF and imported into
real GNU Backgammon (each game a money game between the box and the team, named by the box
and the captain), the ledger summed from the results, and `bgboard monitor` showing it."""

import random
import re

import pytest

from chouettegen import Odds, play_chouette
from fakeboard import FakeBoard, PtyBoard
from test_host_cli import no_port_env, one_line_error, run  # noqa: F401 (a fixture)
from test_host_gnubg import run_gnubg, troubles

from bgboard.events import build_matches
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text
from bgcore import Rules

SCORE = re.compile(r"The score \(after (\d+) games?\) is: (.+?) (\d+), (.+?) (\d+) \(money")



def cases():
    out = []
    for k in range(8):
        multiple = k % 2 == 0
        players = ["Ann", "Bob", "Cy", "Dee", "Eve"][:3 + k % 3]
        rules = Rules(jacoby=k % 4 < 2)
        events, board = play_chouette(random.Random(500 + k), players, multiple, 3 + k % 3,
                                      rules, Odds(double=0.1 + 0.05 * (k % 3)))
        out.append(("chouette%d-%s" % (k, "multi" if multiple else "single"), events, board,
                    rules))
    return out


@pytest.fixture(scope="module")
def chouettes():
    return cases()


def test_a_chouette_journal_groups_into_games_between_box_and_captain(chouettes):
    seen = set()
    for name, events, board, _ in chouettes:
        seen_leave = [e["name"] for e in events if e["ev"] == "leave"]
        seen.update(e["ev"] for e in events if e["ev"] in ("join", "leave"))
        problems = []
        (m,) = build_matches(events, problems)
        assert not problems, (name, problems)
        assert m.chouette and m.players == events[0]["players"]
        games = [e for e in events if e["ev"] == "game"]
        assert [(g.box, g.captain) for g in m.games] == [(e["box"], e["captain"]) for e in games]
        # the ledger summed from the results is the board's
        state = board.state()["chouette"]
        assert m.line == state["line"], name
        # the board counts its present players; the host keeps those who left as well
        assert {n: m.balance[n] for n in state["balance"]} == state["balance"], name
        assert all(n in seen_leave for n in m.balance if n not in state["balance"]), name
        playing, box = False, None
        for e in events:
            if e["ev"] == "game":
                playing, box = True, e["box"]
            elif e["ev"] == "result":
                playing = False
            elif e["ev"] == "leave" and playing:  # settled as a drop of the present cube
                seen.add("the box leaves mid-game" if e["name"] == box else
                         "a player leaves mid-game")
            if e["ev"] in ("double", "take", "drop"):
                seen.add((e["ev"], "member" in e, e.get("team"), e["player"]))
            if e["ev"] == "result":
                seen.add(("result", e["how"]))
        # a member's own take or drop is no game entry; the team's answer is
        for g in m.games:
            kinds = [x.kind for x in g.entries]
            assert kinds.count("double") >= kinds.count("take") + kinds.count("drop")
    for what in (("double", True, None, 0), ("double", True, None, 1),
                 ("take", True, None, 1), ("drop", True, None, 1), ("drop", True, None, 0),
                 ("take", True, "take", 1), ("double", False, None, 0),
                 ("double", False, None, 1), ("drop", False, None, 0),
                 ("result", "dropped"), ("result", "played"), ("result", "resigned"),
                 "join", "leave", "the box leaves mid-game", "a player leaves mid-game"):
        assert what in seen, "the corpus has no %r" % (what,)


def test_chouette_mat_and_sgf_files_import_into_gnubg_with_the_journals_score(chouettes,
                                                                           tmp_path):
    jobs = []
    for name, events, _, rules in chouettes:
        (m,) = build_matches(events)
        mat = tmp_path / (name + ".mat")
        mat.write_text(mat_text(m))
        sgf = tmp_path / (name + ".sgf")
        sgf.write_text(sgf_text(m))
        jacoby = "set jacoby %s" % ("on" if rules.jacoby else "off")
        jobs.append((name + ".mat", [jacoby, "import mat %s" % mat, "show score"]))
        jobs.append((name + ".sgf", ["load match %s" % sgf, "show score"]))
    outputs = run_gnubg(str(tmp_path), jobs)
    wrong = []
    for name, events, _, _ in chouettes:
        (m,) = build_matches(events)
        last = m.games[-1]
        for key in (name + ".mat", name + ".sgf"):
            text = outputs[key]
            found = SCORE.findall(text)
            if not found or troubles(text):
                wrong.append("%s: %s" % (key, troubles(text)[:3] or text[-400:]))
                continue
            games, box, s0, captain, s1 = found[-1]
            if (int(games), [int(s0), int(s1)]) != (len(m.games), m.score):
                wrong.append("%s: %s games %s, journal %d %s" % (key, games, [s0, s1],
                                                                 len(m.games), m.score))
            if (box, captain) != (last.box, last.captain):  # gnubg: the last game's names
                wrong.append("%s: names %s, %s" % (key, box, captain))
    assert not wrong, "\n".join(wrong)


# --- the command line -------------------------------------------------------------------------


@pytest.fixture
def board():
    runner = PtyBoard(FakeBoard()).start()
    yield runner
    runner.stop()


@pytest.mark.parametrize("args", [["send", "new", "chouette"], ["send", "partner"],
                                  ["send", "join"], ["send", "leave"],
                                  ["send", "double"], ["send", "take"], ["send", "drop"]])
def test_help(capsys, args):
    code, out, err = run(capsys, *args, "--help")
    assert code == 0 and err == "" and out.startswith("Usage: bgboard")
    assert "--port" in out and ("--member" in out or args[1] != "double")


def test_send_new_chouette_and_member_commands_reach_the_board(capsys, board):
    p = board.path
    code, out, err = run(capsys, "send", "new", "chouette", "--players", "Ann, Bob,Cy Lee,Dee",
                         "--port", p)
    assert code == 0, err
    assert board.board.commands[-1] == ("new", {
        "kind": "chouette", "players": ["Ann", "Bob", "Cy Lee", "Dee"],
        "options": {"multiple_cubes": True}})
    code, out, err = run(capsys, "send", "new", "chouette", "--players",
                         "A,B,C,D,E,F", "--single-cube", "--partner-from", "6", "--jacoby",
                         "--cube-cap", "64", "--port", p)
    assert code == 0, err
    assert board.board.commands[-1] == ("new", {
        "kind": "chouette", "players": ["A", "B", "C", "D", "E", "F"],
        "options": {"jacoby": True, "cube_cap": 64, "multiple_cubes": False,
                    "partner_from": 6}})
    code, out, err = run(capsys, "send", "new", "chouette", "--players", "A,B,C,D,E,F",
                         "--partner-from", "6", "--partner-by", "lot", "--consult", "cube",
                         "--port", p)
    assert code == 0, err
    assert board.board.commands[-1][1]["options"] == {
        "multiple_cubes": True, "partner_from": 6, "consult": "cube", "partner_by": "lot"}
    for args, sent in ((["double"], ("double", {})),
                       (["double", "--member", "Cy"], ("double", {"member": "Cy"})),
                       (["take", "-m", "Dee"], ("take", {"member": "Dee"})),
                       (["drop", "--member", "box"], ("drop", {"member": "box"})),
                       (["partner", "Fay"], ("partner", {"member": "Fay"})),
                       (["partner", "*"], ("partner", {"member": "*"})),
                       (["join", "Gil"], ("join", {"name": "Gil"})),
                       (["leave", "Bob"], ("leave", {"name": "Bob"}))):
        code, out, err = run(capsys, "send", *args, "--port", p)
        assert code == 0 and out == "ok\n", err
        assert board.board.commands[-1] == sent


@pytest.mark.parametrize("args,words", [
    (["--players", "Ann,Bob"], "three or more"),
    (["--players", "Ann,Bob,Ann"], "two players"),
    (["--players", "Ann,B:b,Cy"], "--players"),
    (["--players", "Ann,,Cy"], "--players"),
    (["--players", "Ann,Bob,Cy", "--beavers"], "not supported"),
    (["--players", "Ann,Bob,Cy", "--automatic-doubles", "1"], "not supported"),
    (["--players", "Ann,Bob,Cy", "--partner-from", "2"], "partner_from"),
    (["--players", "Ann,Bob,Cy", "--cube-cap", "3"], "cube_cap"),
    ([], "--players"),
])
def test_bad_chouette_settings_are_one_line_and_exit_2(capsys, args, words):
    code, out, err = run(capsys, "send", "new", "chouette", *args, "--port",
                         "/dev/ttyACM-bgboard-none")
    one_line_error(err, code, 2)
    assert words in err


def test_monitor_shows_the_line_up_and_the_ledger(capsys, board, chouettes):
    name, events, final, _ = chouettes[1]
    for e in events:
        board.board.commit(e)
    code, out, err = run(capsys, "monitor", "--once", "--port", board.path)
    assert code == 0, err
    state = final.state()["chouette"]
    assert "chouette, game" in out
    assert "line-up: %s" % ", ".join(state["line"]) in out
    ledger = re.search(r"ledger: (.*)", out).group(1)
    for who, points in state["balance"].items():
        assert "%s %s%s" % (who, "+" if points > 0 else "", points) in ledger
    assert re.search(r"\w+ \(box\) against \w+ \(captain\)", out)
    assert " pays " in out or "wins" in out


def test_monitor_says_whether_the_team_may_consult(capsys):
    """"A popular compromise permits consultation only after the cube has been turned."
    (rules-cube-match-chouette) A chouette on the firmware's own controller with consult
    "cube": `bgboard monitor --once` names the option, and from the board's `state` says
    "not yet" before the box's double is taken and "now it may" after."""
    from chouette_support import box_on_roll
    from board import chouette_session
    from board.controller import Controller
    from chouettegen import Clock, Eyes

    events = []

    def emit(msg):
        if "ev" in msg:
            events.append(dict(msg, seq=len(events) + 1))

    real = Controller(Clock(), random.Random(1), None, None, emit)
    eyes = Eyes(real)
    chouette_session.new(real, ["Ann", "Bob", "Cy"], Rules(), False, None, {"consult": "cube"})
    eyes.start()
    box_on_roll(real, eyes)
    fake = FakeBoard(handler=lambda cmd, args: dict(real.state(), ok=True))
    runner = PtyBoard(fake).start()
    try:
        said = []
        for step in ("before", "after"):
            if step == "after":
                real.cube_action("double")
                real.cube_action("take", "Bob")
                real.cube_action("take", "Cy")
            fake.events = []
            for e in events:
                fake.commit(e)
            code, out, err = run(capsys, "monitor", "--once", "--port", runner.path)
            assert code == 0, err
            said.append(re.search(r"consultation: .*", out).group(0))
    finally:
        runner.stop()
    assert said == ["consultation: the team may consult once a cube is turned (not yet)",
                    "consultation: the team may consult once a cube is turned (now it may)"]


def test_the_recorder_writes_a_chouette_file(tmp_path, chouettes):
    from bgboard.recorder import Recorder

    name, events, _, _ = chouettes[0]
    rec = Recorder(str(tmp_path), fsync=False)
    rec.on_journal(77)
    for e in events:
        rec.on_event(e)
    rec.close()
    (m,) = build_matches(events)
    mats = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".mat")
    assert mats == ["chouette-77-000001.mat"]
    assert (tmp_path / mats[0]).read_text() == mat_text(m)


def test_the_view_shows_each_members_stake_in_a_multiple_cube_game(chouettes):
    from bgboard.monitor import View

    takes = []
    for name, events, _, _ in chouettes:
        if events[0]["multiple_cubes"]:
            takes = [i for i, e in enumerate(events) if e["ev"] == "take" and e.get("member")
                     and e["player"] == 1]
        if takes:
            break
    assert takes, "the corpus has no member taking the box's double"
    i = takes[0]
    view = View()
    for e in events[:i + 1]:
        view.apply(e)
    member = events[i]["member"]
    cube = [e for e in events[:i] if e["ev"] == "double" and e.get("member") == member][-1]
    stakes = re.search(r"stakes: (.*)", view.render()).group(1)
    assert "%s cube %d (%s's)" % (member, cube["cube"], member) in stakes
    assert view.describe(events[i]) == "%s takes the box's double" % member
