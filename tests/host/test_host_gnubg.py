"""The files bgboard writes, imported into real GNU Backgammon 1.07 (`/usr/games/gnubg`).

Every .mat of the corpus (conftest.make_corpus: matches of 1 to 15 points and money sessions
played at random with bgcore, with drops by either side, resignations before and after
rolling, rolls with no play, beavers, raccoons, Crawford and post-Crawford games) is
imported with `import mat`, and every SGF with `load match`, all in one gnubg run per format
(a marker command between files splits the output): no warning may appear and the score
gnubg shows must be the journal's.

gnubg quirks this relies on or works around (see bgboard.matfile and bgboard.sgf):
- a 0-point .mat imports with gnubg's own Jacoby setting: the test sets it as the session
  had it; .mat cannot carry automatic doubles nor a match without the Crawford rule, so
  those sessions are checked through SGF only;
- gnubg 1.07's `load match` may drop the first game of a file when it was resigned after
  at most one checker play (its own saved files too); the next game's MI scores make up for
  its result, so only the count of games differs (or the score, in a one-game file).
"""

import os
import re
import shutil
import subprocess


from bgboard.events import build_matches
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text

GNUBG = "/usr/games/gnubg"

# Installed by make system-deps: without it the tests fail (a missing tool is no skip).

MARK = "bgboardcase"
SCORE = re.compile(r"The score \(after (\d+) games?\) is: White (\d+), Black (\d+)")
TROUBLE = re.compile(r"not a valid|Invalid move|Unrecognised move|WARNING|[Ww]arning|"
                     r"Take record|Drop record|Expand move|[Ee]rror|Illegal|Unknown keyword|"
                     r"No game|unparsable")


def run_gnubg(home, jobs):
    """jobs: [(key, [commands])]; returns {key: gnubg's output for those commands}."""
    prelude = ["set confirm new off"]
    if shutil.which("stdbuf"):
        cmds = list(prelude)
        for i, (_, lines) in enumerate(jobs):
            cmds.append("%s%d" % (MARK, i))  # gnubg: "Unknown keyword `bgboardcase3'."
            cmds += lines
        out = _gnubg(home, cmds, ["stdbuf", "-oL", "-eL"])
        parts = re.split(r"Unknown keyword `%s(\d+)'\.?" % MARK, out)
        found = {int(parts[k]): parts[k + 1] for k in range(1, len(parts), 2)}
        assert len(found) == len(jobs), "gnubg stopped early:\n" + out[-3000:]
        return {jobs[i][0]: text for i, text in found.items()}
    return {key: _gnubg(home, prelude + lines, []) for key, lines in jobs}


def _gnubg(home, cmds, prefix):
    path = os.path.join(home, "cmds")
    with open(path, "w") as f:
        f.write("\n".join(cmds) + "\n")
    return subprocess.run(prefix + [GNUBG, "-t", "-q", "-r", "-c", path],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300,
                          env=dict(os.environ, HOME=home)).stdout


def final_score(text):
    found = SCORE.findall(text)
    assert found, "gnubg showed no score:\n" + text[-1500:]
    games, white, black = found[-1]
    return int(games), [int(white), int(black)]


def troubles(text):
    return [ln.strip() for ln in text.splitlines() if TROUBLE.search(ln)]


def test_mat_files_import_cleanly_with_the_journals_score(corpus, tmp_path):
    jobs = []
    stats = {"matches": 0, "sessions": 0, "games": 0, "plays": 0}
    seen = set()
    for case in corpus:
        if not case.mat_exact:
            continue
        (m,) = build_matches(case.events)
        path = tmp_path / (case.name + ".mat")
        path.write_text(mat_text(m))
        cmds = []
        if m.length == 0:
            cmds.append("set jacoby %s" % ("on" if case.rules.jacoby else "off"))
        cmds += ["import mat %s" % path, "show score"]
        jobs.append((case.name, cmds))
        stats["matches" if m.length else "sessions"] += 1
        stats["games"] += len(m.games)
        prev = {"ev": None}
        for ev in case.events:
            name = ev["ev"]
            if name in ("beaver", "raccoon"):
                seen.add(name)
                if name == "beaver" and prev["ev"] == "take":
                    seen.add("beaver after the take")
            prev = ev
            if name == "play":
                stats["plays"] += 1
                if not ev["moves"]:
                    seen.add("no-play roll")
            elif name == "drop":
                seen.add("drop by player %d" % ev["player"])
            elif name == "result" and ev["how"] == "resigned":
                seen.add("resigned %d" % ev["level"])
            elif name == "game" and ev["crawford"]:
                seen.add("Crawford game")
        for g in m.games:
            kinds = [e.kind for e in g.entries]
            if "roll" in kinds:
                seen.add("resigned after rolling")
            if g.score != [0, 0] and m.length and max(g.score) == m.length - 1 \
                    and not g.crawford and "double" in kinds:
                seen.add("post-Crawford double")
            for e in g.entries:  # a win on the cube before the double wins the match
                if e.kind == "double" and m.length and e.cube // 2 >= m.length - g.score[
                        e.player]:
                    seen.add("dead-cube double")
    # the corpus must exercise what the format has to say
    for what in ("no-play roll", "drop by player 0", "drop by player 1", "resigned 1",
                 "resigned 2", "resigned after rolling", "beaver", "raccoon", "Crawford game",
                 "post-Crawford double", "dead-cube double",
                 "beaver after the take"):
        assert what in seen, "the corpus has no %s" % what
    assert stats["games"] > 150 and stats["plays"] > 4000, stats

    outputs = run_gnubg(str(tmp_path), jobs)
    wrong = []
    for case in corpus:
        if not case.mat_exact:
            continue
        text = outputs[case.name]
        bad = troubles(text)
        games, score = final_score(text)
        if bad or score != case.match.score:
            wrong.append("%s: score %s, journal %s; %s" % (case.name, score, case.match.score,
                                                           bad[:3]))
        (m,) = build_matches(case.events)
        assert games == len(m.games), case.name
    assert not wrong, "\n".join(wrong)
    print("gnubg imported %(matches)d matches and %(sessions)d money sessions: "
          "%(games)d games, %(plays)d plays" % stats)


def _sgf_quirk(game):
    """gnubg 1.07 may drop the first game of an SGF file when it was resigned after at most
    one checker play (its own saved files too)."""
    r = game.result
    plays = sum(1 for e in game.entries if e.kind == "move")
    return r is not None and r["how"] == "resigned" and plays <= 1


def test_sgf_files_load_cleanly_with_the_journals_score(corpus, tmp_path):
    jobs = []
    for case in corpus:
        (m,) = build_matches(case.events)
        path = tmp_path / (case.name + ".sgf")
        path.write_text(sgf_text(m))
        jobs.append((case.name, ["load match %s" % path, "show score"]))
    outputs = run_gnubg(str(tmp_path), jobs)
    wrong = []
    quirks = 0
    for case in corpus:
        text = outputs[case.name]
        bad = troubles(text)
        games, score = final_score(text)
        (m,) = build_matches(case.events)
        expected, counted = case.match.score, len(m.games)
        if _sgf_quirk(m.games[0]) and (games, score) != (counted, expected):
            # gnubg dropped the first game; the next game's MI scores make up for its result
            quirks += 1
            counted -= 1
            if not counted:
                expected = list(m.games[0].score)
                bad = [b for b in bad if b != "No game in progress."]
        if bad or score != expected or games != counted:
            wrong.append("%s: %d games %s, expected %d %s; %s" % (
                case.name, games, score, counted, expected, bad[:3]))
    assert not wrong, "\n".join(wrong)
    print("gnubg loaded %d SGF files (%d began with a game gnubg's one-play quirk drops)"
          % (len(corpus), quirks))


def test_gnubg_reads_the_names_and_a_game_in_progress(tmp_path):
    from eventgen import play_match
    import random

    events, _ = play_match(random.Random(9), 5)
    cut = next(i for i, e in enumerate(events) if e["ev"] == "play" and i > 20)
    (m,) = build_matches(events[:cut + 1])
    path = tmp_path / "partial.mat"
    path.write_text(mat_text(m, ("Ann Lee", "Bo")))
    out = run_gnubg(str(tmp_path), [("p", ["import mat %s" % path, "show score"])])["p"]
    assert not troubles(out), troubles(out)
    assert re.search(r"The score \(after \d+ games?\) is: Ann.Lee \d+, Bo \d+", out), out[-500:]


def test_a_match_over_a_number_of_games_imports_as_a_money_session(tmp_path):
    """The match-play sheet's "agreed-upon number of games" decided by the total: .mat has
    no such match, so it is written as a money session (its games, scores and cube, a
    comment saying what it was); gnubg imports it with the total, a drawn one too, and
    loads its SGF (a money session too) the same."""
    from eventgen import play_match
    from bgboard.sgf import sgf_text
    import random

    jobs, totals = [], {}
    drawn = 0
    for seed in range(40):
        events, match = play_match(random.Random(seed), 0, limit=3)
        over = events[-1]
        assert over["ev"] == "match_over" and over["score"] == match.score
        drawn += over["winner"] is None
        (m,) = build_matches(events)
        assert m.limit == 3 and m.over is over and len(m.games) == 3
        text = mat_text(m)
        assert "; A match over 3 games, decided by the total points" in text
        path = tmp_path / ("games%d.mat" % seed)
        path.write_text(text)
        jobs.append(((seed, ".mat"), ["set jacoby off", "import mat %s" % path,
                                      "show score"]))
        sgf = tmp_path / ("games%d.sgf" % seed)
        sgf.write_text(sgf_text(m))
        jobs.append(((seed, ".sgf"), ["load match %s" % sgf, "show score"]))
        totals[seed] = (m, match.score)
        if len(totals) == 6 and drawn:
            break
    assert drawn, "no drawn match among the seeds"
    outputs = run_gnubg(str(tmp_path), jobs)
    for key, _ in jobs:
        m, score = totals[key[0]]
        assert not troubles(outputs[key]), (key, troubles(outputs[key]))
        assert final_score(outputs[key]) == (3, score), key


def test_shut_out_passes_import_as_rolls_that_cannot_play(tmp_path):
    """Rule option shut_out_pass: "Though he does not roll the dice, since he cannot make a
    checker play" (rules-cube-match-chouette). .mat and SGF need a roll in every turn: a pass
    is written as 1-1 with no play (no dice enter a closed board), which gnubg imports with
    the journal's score, for either side, and for passes in a row."""
    from eventgen import Odds, play_match
    from bgboard.sgf import sgf_text
    from bgcore import Rules
    import random

    calm = Odds(double=0.0, take=0.9, beaver=0, raccoon=0, resign=0.0, resign_after_roll=0.0,
                accept=0.8)
    jobs, totals, passes = [], {}, []
    for seed in (3563, 3859, 1253):  # seeds whose random games shut a player out
        events, match = play_match(random.Random(seed), 0, Rules(shut_out_pass=True),
                                   games=1, odds=calm)
        passes += [e["player"] for e in events if e["ev"] == "pass"]
        (m,) = build_matches(events)
        text = mat_text(m)
        assert "11:" in text and "shut_out_pass" in text
        for ext, body, load in ((".mat", text, "import mat"),
                                (".sgf", sgf_text(m), "load match")):
            path = tmp_path / ("pass%d%s" % (seed, ext))
            path.write_text(body)
            jobs.append(((seed, ext), ["set jacoby off", "%s %s" % (load, path),
                                       "show score"]))
        totals[seed] = match.score
    assert 0 in passes and passes.count(1) >= 3, passes
    outputs = run_gnubg(str(tmp_path), jobs)
    for key, _ in jobs:
        assert not troubles(outputs[key]), (key, troubles(outputs[key]))
        assert final_score(outputs[key]) == (1, totals[key[0]]), key


def test_rethrows_and_voided_plays_import_as_the_game_counted(tmp_path):
    """Lowe's laws 9-10: cocked dice "must be thrown again"; the opponent "may declare the
    play void and require him to replace the man or men moved and throw again". The board
    journals both; the files hold the throws that counted, and gnubg imports them with the
    journal's score."""
    from eventgen import Odds, play_match
    from bgboard.sgf import sgf_text
    import random

    jobs, totals, seen = [], {}, set()
    for seed in range(4):
        events, match = play_match(random.Random(seed), 5, odds=Odds(irregular=0.05))
        seen.update(e["ev"] for e in events if e["ev"] in ("rethrow", "void"))
        (m,) = build_matches(events)
        for ext, body, load in ((".mat", mat_text(m), "import mat"),
                                (".sgf", sgf_text(m), "load match")):
            path = tmp_path / ("irregular%d%s" % (seed, ext))
            path.write_text(body)
            jobs.append(((seed, ext), ["%s %s" % (load, path), "show score"]))
        totals[seed] = (len(m.games), match.score)
    assert seen == {"rethrow", "void"}, seen
    outputs = run_gnubg(str(tmp_path), jobs)
    for key, _ in jobs:
        assert not troubles(outputs[key]), (key, troubles(outputs[key]))
        assert final_score(outputs[key]) == totals[key[0]], key


def test_demanded_forfeits_import_at_the_level_agreed(tmp_path):
    """"the player accepting the forfeit must decide whether to accept the forfeit as a
    single loss or to require the opponent to forfeit to a gammon. If a forfeit is refused
    play continues." (rules-pc-gammon) The board journals the demand; a demand agreed to
    ends in a result at its level, a refused one leaves the game going. .mat and SGF record
    the result as it counted, and gnubg imports them with the journal's score, in matches
    and in money sessions with and without the Jacoby rule."""
    from eventgen import Odds, play_match
    from bgboard.sgf import sgf_text
    from bgcore import Rules
    import random

    odds = Odds(double=0.08, take=0.8, beaver=0, raccoon=0, resign=0.03,
                resign_after_roll=0.02, accept=0.6, demand=0.7)
    jobs, totals, seen = [], {}, set()
    cases = [(seed, 7, Rules()) for seed in range(4)] + [
        (seed, 0, Rules(jacoby=bool(seed % 2))) for seed in range(4, 8)]
    for seed, length, rules in cases:
        events, match = play_match(random.Random(seed), length, rules, odds=odds,
                                   games=None if length else 4)
        for i, ev in enumerate(events):
            if ev["ev"] != "demand":
                continue
            answer = events[i + 1]
            assert answer["player"] == events[i - 1]["player"]  # the resigner answers
            if answer["ev"] == "accept":
                r = events[i + 2]
                assert r["ev"] == "result" and r["level"] == ev["level"]
                seen.add("agreed %d for %d" % (ev["level"], events[i - 1]["level"]))
            else:
                seen.add("refused")
        (m,) = build_matches(events)
        for ext, body, load in ((".mat", mat_text(m), "import mat"),
                                (".sgf", sgf_text(m), "load match")):
            path = tmp_path / ("demand%d%s" % (seed, ext))
            path.write_text(body)
            cmds = [] if length else ["set jacoby %s" % ("on" if rules.jacoby else "off")]
            jobs.append(((seed, ext), cmds + ["%s %s" % (load, path), "show score"]))
        totals[seed] = (m, match.score)
    assert "refused" in seen and "agreed 2 for 1" in seen and (
        "agreed 3 for 1" in seen or "agreed 3 for 2" in seen), seen
    outputs = run_gnubg(str(tmp_path), jobs)
    for key, _ in jobs:
        m, score = totals[key[0]]
        text = outputs[key]
        assert not troubles(text), (key, troubles(text))
        assert final_score(text) == (len(m.games), score), key
    print("demands seen: %s" % sorted(seen))


def _doubled_to_the_cap(length, seed):
    # A game whose players double and take at every chance: the cube runs to the cap.
    import random
    from eventgen import Odds, play_match
    from bgcore import Rules
    odds = Odds(double=1.0, take=1.0, beaver=0.0, raccoon=0.0, resign=0.0,
                resign_after_roll=0.0, accept=1.0)
    events, match = play_match(random.Random(seed), length, Rules(), odds=odds, games=1,
                               score=(8, 4) if length else None)
    (m,) = build_matches(events)
    return events, match, mat_text(m)


def test_the_one_cube_cap_is_the_largest_gnubg_imports(tmp_path, monkeypatch):
    """"There is no limit to the number of times a double may be offered in one game." A file
    must still load into gnubg: bgcore's one cap on every cube (bgcore.rules.MAX_CUBE) is the
    largest cube gnubg 1.07 imports. A match and a money session doubled to it import with
    the journal's score; a match doubled once more (the cap lifted) crashes gnubg's import."""
    from bgcore import rules
    top = rules.MAX_CUBE
    jobs, want = [], {}
    for length in (9, 0):
        events, match, text = _doubled_to_the_cap(length, 5)
        assert max(e.get("cube", 0) for e in events) == top
        path = tmp_path / ("cap%d.mat" % length)
        path.write_text(text)
        jobs.append((length, (["set jacoby off"] if not length else []) +
                     ["import mat %s" % path, "show score"]))
        want[length] = match.score
    outputs = run_gnubg(str(tmp_path), jobs)
    for length, _ in jobs:
        assert not troubles(outputs[length]), outputs[length][-800:]
        assert final_score(outputs[length])[1] == want[length], length
    monkeypatch.setattr(rules, "MAX_CUBE", top * 2)
    events, match, text = _doubled_to_the_cap(9, 5)
    assert max(e.get("cube", 0) for e in events) == top * 2
    path = tmp_path / "past.mat"
    path.write_text(text)
    out = subprocess.run([GNUBG, "-t", "-q", "-r", "-c", "/dev/stdin"],
                         input="import mat %s\nshow score\n" % path, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=300,
                         env=dict(os.environ, HOME=str(tmp_path)))
    assert out.returncode != 0 and not SCORE.search(out.stdout), out.stdout[-800:]
