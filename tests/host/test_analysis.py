"""The post-match analysis (`bgboard analyse`, and `bgboard engine` after a match): real gnubg
on real match files written by a match the simulated hands played against the engine.

The figures in NAME.analysis.json are checked against what gnubg itself prints for `show
statistics match` on the same file, imported and analysed in a separate gnubg."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from bgboard.analysis import rolls_in_file
from bgboard.engine import find_gnubg
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


def run(*args, env=None, timeout=600):
    return subprocess.run([BGBOARD] + list(args), capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-point match (seed 5: both sides double and take) played against the engine on the
    virtual board and logged; `bgboard engine` analyses it when it ends."""
    log = str(tmp_path_factory.mktemp("log"))
    r = run("engine", "--sim", "--autoplay", "--seed", "5", "--match", "3", "--log", log)
    assert r.returncode == 0, r.stderr[-2000:]
    mats = [f for f in os.listdir(log) if f.endswith(".mat")]
    assert len(mats) == 1
    return {"dir": log, "mat": os.path.join(log, mats[0]), "out": r.stdout, "err": r.stderr}


def gnubg_statistics(path, home):
    """`show statistics match` of a separate gnubg that imported and analysed `path`:
    {row label: [(left value text), (right value text)]}, rows in order (labels repeat:
    checker play, cube and overall each have an "Error rate mEMG (MWC)")."""
    script = "import mat %s\nanalyse match\nshow statistics match\n" % path
    r = subprocess.run([find_gnubg(), "-t", "-q"], input=script, capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, HOME=home), cwd=home)
    lines = r.stdout.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("Player "))
    header = lines[head]
    names = header[6:].split("  ")
    names = [n.strip() for n in names if n.strip()]
    c1 = header.index(names[0])
    c2 = header.index(names[1], c1 + len(names[0]))
    rows = []
    for ln in lines[head + 1:]:
        if len(ln) > c1 and ln[:c1].strip():
            rows.append((ln[:c1].strip(), ln[c1:c2].strip(), ln[c2:].strip()))
    return names, rows


def first_number(text):
    return float(re.search(r"[-+]?\d+(\.\d+)?", text).group(0))


def test_engine_analyses_the_match_it_played(played):
    base = played["mat"][:-4]
    assert os.path.isfile(base + ".analysis.json") and os.path.isfile(base + ".analysis.html")
    assert "analysing game 1 of" in played["err"]
    assert "analysis: %s.analysis.json" % base in played["out"]


def test_the_analysis_counts_the_plays_the_autoplay_counted(played):
    # "played: G game(s), N plays" (the board's plays that moved a checker) and gnubg's
    # "analysing game g of G (n plays": the same plays (not the rolls without a legal play,
    # nor the cube's actions)
    total = int(re.search(r"played: \d+ game\(s\), (\d+) plays", played["out"]).group(1))
    per_game = [int(n) for n in re.findall(r"analysing game \d+ of \d+ \((\d+) plays",
                                           played["err"])]
    assert per_game and sum(per_game) == total, (per_game, total)


def test_figures_are_gnubgs_own(played, tmp_path):
    out = str(tmp_path / "out")
    r = run("analyse", played["mat"], "--out", out)
    assert r.returncode == 0, r.stderr
    assert re.search(r"analysing game 1 of \d+ \(\d+ plays", r.stderr)
    base = os.path.basename(played["mat"])[:-4]
    with open(os.path.join(out, base + ".analysis.json")) as f:
        summary = json.load(f)
    names, rows = gnubg_statistics(played["mat"], str(tmp_path))
    players = summary["players"]
    assert [p["name"] for p in players] == names

    def rows_named(label):
        return [r[1:] for r in rows if r[0] == label]

    # The sections in gnubg's order: checker play, cube, overall.
    rates = rows_named("Error rate mEMG (MWC)")
    totals = rows_named("Error total EMG (MWC)")
    assert len(rates) == 3 and len(totals) == 3
    for i, p in enumerate(players):
        assert first_number(rates[0][i]) == pytest.approx(-p["checker"]["error_rate_memg"],
                                                          abs=0.051)
        assert first_number(rates[1][i]) == pytest.approx(-p["cube"]["error_rate_memg"],
                                                          abs=0.051)
        assert first_number(rates[2][i]) == pytest.approx(-p["overall"]["error_rate_memg"],
                                                          abs=0.051)
        assert first_number(totals[0][i]) == pytest.approx(-p["checker"]["error_total"],
                                                           abs=0.0005)
        assert first_number(totals[1][i]) == pytest.approx(-p["cube"]["error_total"],
                                                           abs=0.0005)
        assert first_number(totals[2][i]) == pytest.approx(-p["overall"]["error_total"],
                                                           abs=0.0005)
        assert int(rows_named("Moves marked doubtful")[0][i]) == p["checker"]["doubtful"]
        assert int(rows_named("Moves marked bad")[0][i]) == p["checker"]["bad"]
        assert int(rows_named("Moves marked very bad")[0][i]) == p["checker"]["very_bad"]
        assert int(rows_named("Unforced moves")[0][i]) == p["unforced_moves"]
        assert int(rows_named("Total moves")[0][i]) == p["moves"]
        assert int(rows_named("Close or actual cube decisions")[0][i]) == p["cube"]["close"]
        assert first_number(rows_named("Luck rate mEMG (MWC)")[0][i]) == pytest.approx(
            p["luck"]["rate_memg"], abs=0.051)
        assert rows_named("Chequerplay rating")[0][i] == p["checker"]["rating"]
        assert rows_named("Overall rating")[0][i] == p["overall"]["rating"]
        assert rows_named("Luck rating")[0][i] == p["luck"]["rating"]
        cube = rows_named("Cube decision rating")[0][i]
        assert cube == p["cube"]["rating"]
        errors = sum(int(rows_named(label)[0][i].split()[0]) for label in (
            "Missed doubles below CP (EMG (MWC))", "Missed doubles above CP (EMG (MWC))",
            "Wrong doubles below DP (EMG (MWC))", "Wrong doubles above TG (EMG (MWC))",
            "Wrong takes (EMG (MWC))", "Wrong passes (EMG (MWC))"))
        assert errors == p["cube"]["errors"]
    # both sides doubled in this match: the cube figures are not all zeros
    assert sum(p["cube"]["doubles"] for p in players) >= 2
    # each player's worst plays: worst first, each losing equity, each unlike gnubg's
    for p in players:
        losses = [w["lost"] for w in p["worst"]]
        assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
        assert all(w["play"] != w["best"] for w in p["worst"])
    assert players[0]["worst"]


def test_worst_plays_are_the_mat_s_plays(played, tmp_path):
    # each worst play is the play written in its column of the .mat's line `move`
    from bgboard.matfile import LEFT_WIDTH

    r = run("analyse", played["mat"], "--out", str(tmp_path), "--worst", "100")
    assert r.returncode == 0, r.stderr
    with open(os.path.join(str(tmp_path), os.path.basename(played["mat"])[:-4]
                           + ".analysis.json")) as f:
        summary = json.load(f)
    with open(played["mat"]) as f:
        lines = f.read().splitlines()
    checked = 0
    for p in summary["players"]:
        for w in p["worst"]:
            line = next(ln for ln in lines if re.match(r"^\s*%d\) " % w["move"], ln))
            cell = line[5:5 + LEFT_WIDTH] if w["player"] == 0 else line[5 + LEFT_WIDTH + 1:]
            dice, _, play = cell.strip().partition(": ")
            assert sorted(dice) == sorted("%d%d" % tuple(w["dice"]))
            assert sorted(play.split()) == sorted(w["play"].split())
            checked += 1
    assert checked >= 10


def test_each_worst_play_is_drawn_as_arrows_beside_gnubgs(played, tmp_path):
    # the diagram of each worst play: the play made and gnubg's best, a red and a green
    # arrow per checker step, each step a real one of that play from that position
    import xml.etree.ElementTree as ET

    from bgcore import Position, Turn, notation

    r = run("analyse", played["mat"], "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    base = os.path.join(str(tmp_path), os.path.basename(played["mat"])[:-4])
    with open(base + ".analysis.json") as f:
        summary = json.load(f)
    with open(base + ".analysis.html") as f:
        page = f.read()
    svgs = re.findall(r"<svg .*?</svg>", page, re.S)
    worst = [w for p in summary["players"] for w in p["worst"]]
    assert worst and len(svgs) == len(worst)
    for w, svg in zip(worst, svgs):
        arrows = {"made": [], "best": []}
        for el in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}line"):
            if el.get("class") == "arrow":
                assert int(el.get("data-side")) == w["player"]
                arrows[el.get("data-kind")].append([int(el.get("data-from")),
                                                    int(el.get("data-to"))])
        for kind, words in (("made", w["play"]), ("best", w["best"])):
            turn = Turn(Position.from_id(w["position_id"]), tuple(w["dice"]))
            for a, b in arrows[kind]:
                turn.move(a, b)
            assert arrows[kind], (kind, w)
            assert sorted(notation(turn.steps).split()) == sorted(words.split()), (kind, w)


def test_sgf_gives_the_same_figures(played, tmp_path):
    sgf = played["mat"][:-4] + ".sgf"
    a = run("analyse", played["mat"], "--out", str(tmp_path / "mat"))
    b = run("analyse", sgf, "--out", str(tmp_path / "sgf"))
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    base = os.path.basename(played["mat"])[:-4] + ".analysis.json"
    with open(str(tmp_path / "mat" / base)) as f:
        from_mat = json.load(f)
    with open(str(tmp_path / "sgf" / base)) as f:
        from_sgf = json.load(f)
    assert from_mat["players"] == from_sgf["players"]


def test_bad_files_are_one_line_and_status_2(played, tmp_path):
    junk = tmp_path / "junk.mat"
    junk.write_text("hello, this is no match\n")
    other = tmp_path / "notes.txt"
    other.write_text("1 point match\n")
    garbled = tmp_path / "garbled.sgf"
    garbled.write_text("(;FF[4]GM[6]")
    with open(played["mat"]) as f:
        text = f.read()
    # a play that cannot be made, in the middle of the game: gnubg silently stops there
    lines = text.splitlines()
    middle = next(i for i, ln in enumerate(lines) if re.match(r"^\s+12\) ", ln))
    bad = lines[middle].replace("/", "/2", 1)
    damaged_text = "\n".join(lines[:middle] + [bad] + lines[middle + 1:]) + "\n"
    damaged = tmp_path / "damaged.mat"
    damaged.write_text(damaged_text)
    for path, words in ((junk, "no game in it"), (other, "not a .mat or .sgf file"),
                        (garbled, "gnubg cannot read it"), (damaged, "damaged")):
        r = run("analyse", str(path), "--out", str(tmp_path / "out"))
        assert r.returncode == 2, (path, r.stderr)
        assert len(r.stderr.strip().splitlines()) <= 2  # a progress line, then the error
        assert words in r.stderr.strip().splitlines()[-1], r.stderr
        assert not os.path.exists(str(tmp_path / "out")) or not os.listdir(
            str(tmp_path / "out"))
    r = run("analyse", str(tmp_path / "absent.mat"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_missing_gnubg_is_one_line_and_status_2(played, tmp_path):
    env = dict(os.environ, BGBOARD_GNUBG=str(tmp_path / "no-gnubg"))
    r = run("analyse", played["mat"], "--out", str(tmp_path), env=env)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "apt-get install gnubg" in r.stderr


def children(pid):
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append((int(name), [c.decode() for c in cmd if c]))
    return out


def kill_analysis_when_it_starts(proc, timeout=300):
    """Kill -9 the gnubg running gnubg_analyse.py under `proc` once `proc` says it is
    analysing; the stderr lines read so far."""
    said = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        said.append(line)
        if "analysing game" in line:
            for pid, cmd in children(proc.pid):
                if any(c.endswith("gnubg_analyse.py") for c in cmd):
                    os.kill(pid, signal.SIGKILL)
                    return said
    raise AssertionError("no analysis to kill: %s" % "".join(said))


def test_gnubg_dying_mid_analysis_is_one_line_and_status_1(played, tmp_path):
    proc = subprocess.Popen([BGBOARD, "analyse", played["mat"], "--out", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = kill_analysis_when_it_starts(proc)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, "".join(said) + err
    assert len(err.strip().splitlines()) == 1
    assert "gnubg died during the analysis" in err and "killed by signal 9" in err
    assert not [f for f in os.listdir(str(tmp_path)) if "analysis" in f]


def test_engine_keeps_its_logs_when_the_analysis_dies(tmp_path):
    log = str(tmp_path / "log")
    proc = subprocess.Popen([BGBOARD, "engine", "--sim", "--autoplay", "--seed", "3",
                             "--match", "1", "--log", log],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kill_analysis_when_it_starts(proc)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err  # the match was played and logged
    assert "warning: no analysis of match-" in err and "killed by signal 9" in err
    files = sorted(os.listdir(log))
    assert not [f for f in files if "analysis" in f]
    mat = [f for f in files if f.endswith(".mat")]
    assert len(mat) == 1 and "journal.jsonl" in files
    assert mat[0][:-4] + ".sgf" in files
    with open(os.path.join(log, mat[0])) as f:
        assert "Wins" in f.read()  # the game to its end
    # ... and gnubg reads it whole: analysed afterwards
    r = run("analyse", os.path.join(log, mat[0]))
    assert r.returncode == 0, r.stderr


ROLLS_SCRIPT = r"""
import gnubg, json, sys
gnubg.command("set display off")
out = {}
for path in %r:
    if path.endswith(".sgf"):
        gnubg.command("load match " + path)
    else:
        gnubg.command("import mat " + path)
    m = gnubg.match(analysis=0, statistics=0)
    out[path] = [sum(1 for r in g["game"] if r.get("action") == "move")
                 for g in (m or {}).get("games", [])]
with open(%r, "w") as f:
    json.dump(out, f)
"""


def test_rolls_written_are_the_rolls_gnubg_reads(tmp_path, corpus):
    # The damage check counts the rolls in our files: on every kind of match and session
    # we write (cubes, beavers, resignations, shut-outs...) it agrees with gnubg's import.
    from bgboard.events import build_matches

    paths = []
    expected = {}
    for case in corpus:
        (m,) = build_matches(case.events)
        for ext, text in ((".mat", mat_text(m)), (".sgf", sgf_text(m))):
            path = str(tmp_path / (case.name.replace(" ", "_").replace("/", "_") + ext))
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
            expected[path] = rolls_in_file(text, ext[1:])
    assert len(paths) >= 20
    script = tmp_path / "rolls.py"
    result = tmp_path / "rolls.json"
    script.write_text(ROLLS_SCRIPT % (paths, str(result)))
    subprocess.run([find_gnubg(), "-t", "-q", "-p", str(script)], capture_output=True,
                   timeout=600, env=dict(os.environ, HOME=str(tmp_path)), cwd=str(tmp_path),
                   check=True)
    with open(str(result)) as f:
        got = json.load(f)
    wrong = {p: (expected[p], got.get(p)) for p in paths if expected[p] != got.get(p)}
    assert not wrong, "\n".join("%s %s %s" % (os.path.basename(p), e, g)
                                 for p, (e, g) in sorted(wrong.items()))


def test_a_file_cut_in_the_middle_of_a_play_says_how_far_gnubg_read(played, tmp_path):
    # `bgboard log` killed mid-write, a copy cut short: the last play is half there
    # ("53: 24/21"), which gnubg takes as the play and then cannot analyse.
    with open(played["mat"]) as f:
        lines = f.read().splitlines()
    at = next(i for i, ln in enumerate(lines) if re.match(r"^\s+3\) \d\d: \S+ \S+", ln))
    first_step = re.match(r"^\s+3\) \d\d: \S+", lines[at]).group(0)
    cut = "\n".join(lines[:at] + [first_step])
    path = tmp_path / "cut.mat"
    path.write_text(cut)
    written = rolls_in_file(cut, "mat")
    game, roll = len(written), written[-1]
    r = run("analyse", str(path), "--out", str(tmp_path / "out"))
    assert r.returncode == 2, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last == ("bgboard: %s: damaged (cut short?): roll %d of game %d (%s) is not a "
                    "whole legal play; gnubg read %d whole game(s) and %d roll(s) of game %d "
                    "before it" % (path, roll, game, first_step.split(") ")[1], game - 1,
                                   roll - 1, game)), r.stderr
    assert not os.path.exists(str(tmp_path / "out")) or not os.listdir(str(tmp_path / "out"))
