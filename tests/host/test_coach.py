"""The coach's questions to real GNU Backgammon (bgboard.engine: hint, rate), checked against
gnubg itself: a separate gnubg run as a person would, given the same position, dice, cube
and score by its own commands, prints its `hint`; its `show analysis` gives its thresholds.
A missing gnubg fails these tests, it never skips them."""

import os
import re
import signal
import subprocess

import pytest

from bgboard.engine import (LEVELS, MARKS, Context, Engine, EngineError, find_gnubg, mark,
                            level_settings, turn_of)
from bgcore import Position
from bgcore.matchid import encode


@pytest.fixture(scope="module")
def engine():
    e = Engine("expert")
    e.start()
    yield e
    e.close()


def gnubg_says(commands, home):
    """gnubg's text output for `commands`, typed into `gnubg -t -q` as a person would."""
    script = "\n".join(["set player 0 human", "set player 1 human"] + commands + ["quit", ""])
    out = subprocess.run([find_gnubg(), "-t", "-q"], input=script, capture_output=True,
                         text=True, timeout=120, cwd=str(home), env=dict(os.environ,
                                                                          HOME=str(home)))
    return out.stdout


HINT_LINE = re.compile(r"^\s*(\d+)\. Cubeful (\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+)")


def gnubgs_own_hint(position, dice, ctx, level, home, count=5):
    """[(move words, equity to 3 places, plies)] of gnubg's `hint` command."""
    mid = encode({"cube": ctx.cube, "cube_owner": ctx.owner, "on_roll": ctx.player,
                  "crawford": ctx.crawford, "game_state": "playing", "turn": ctx.player,
                  "double_offered": False, "resignation": 0, "dice": [],
                  "match_length": ctx.length, "score": list(ctx.score),
                  "jacoby": ctx.jacoby and not ctx.length})
    s = level_settings(level)
    commands = ["set jacoby %s" % ("on" if ctx.jacoby else "off"),
                "set beavers %d" % (3 if ctx.beavers else 0), "new match 1",
                "set matchid %s" % mid, "set turn %d" % ctx.player,
                "set board %s" % position.to_id(), "set dice %d %d" % dice,
                "set evaluation chequerplay evaluation plies %d" % s["plies"],
                "set evaluation chequerplay evaluation noise %.6f" % s["noise"],
                "set evaluation chequerplay evaluation deterministic on",
                "set evaluation chequerplay evaluation prune on",
                "set evaluation chequerplay evaluation cubeful on", "hint %d" % count]
    found = []
    for line in gnubg_says(commands, home).splitlines():
        m = HINT_LINE.match(line)
        if m:
            found.append((m.group(3), float(m.group(4)), int(m.group(2))))
    return found


def _side(points):
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    return bytes(counts)


CASES = [
    # (position, dice, context, level)
    (Position.initial(), (6, 4), Context(length=5), "worldclass"),
    (Position.initial(), (3, 1), Context(player=1, length=7, score=(3, 5)), "expert"),
    # 6-6 with black's blot on white's 1-point: 13/1*(2) among the plays; the cube owned
    (Position.from_id("0PPgAyDgc/ABMA"), (6, 6), Context(player=1, cube=2, owner=0),
     "worldclass"),
    # a blot on white's 7 (black's 18) to hit on the way with 6-2 from the 13 (13/7*/5)
    (Position(_side({24: 2, 13: 5, 8: 3, 6: 5}), _side({18: 1, 24: 1, 13: 5, 8: 3, 6: 5})),
     (6, 2), Context(), "expert"),
    # a bear-off
    (Position(_side({6: 2, 5: 3, 3: 1, 1: 2}), _side({1: 2, 2: 2, 3: 3})), (5, 4),
     Context(length=3, score=(1, 1)), "worldclass"),
    # a noisy level: the same noise as gnubg's (deterministic)
    (Position.initial(), (5, 2), Context(), "beginner"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_hint_is_gnubgs_own_hint(engine, tmp_path, case):
    position, dice, ctx, level = CASES[case]
    plays = engine.hint(position, dice, ctx, level=level)
    own = gnubgs_own_hint(position, dice, ctx, level, tmp_path)
    assert own, "gnubg printed no hint"
    assert [(p.words, round(p.equity, 3), p.plies) for p in plays] == own
    assert plays[0].diff == 0.0 and all(p.diff <= 0.0 for p in plays)
    for p in plays:  # one step a die, a whole legal play: what the board's guide takes
        turn = turn_of(position, dice, p.steps)
        assert turn.can_end() and len(turn.steps) == len(p.steps)
    # The best play of the hint at the engine's own level is the engine's play there.
    best = turn_of(position, dice, engine.play(position, dice, ctx, level=level)).position
    assert turn_of(position, dice, plays[0].steps).position == best


def test_a_hit_on_the_way_is_played_as_gnubg_writes_it(engine):
    position, dice, ctx, level = CASES[3]
    plays = {p.words: p for p in engine.hint(position, dice, ctx, level=level, count=40)}
    hit = [w for w in plays if "*/" in w]
    assert hit, sorted(plays)
    turn = turn_of(position, dice, plays[hit[0]].steps)
    assert any(s.hit for s in turn.steps[:-1])  # the hit is on the way, as gnubg says


def test_a_roll_that_cannot_be_played_has_no_hint(engine):
    # White on the bar against a closed board: nothing to play.
    closed = Position(_side({25: 1, 13: 14}), _side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2,
                                                     11: 3}))
    assert engine.hint(closed, (6, 5), Context()) == []


def test_gnubg_dying_mid_hint_is_restarted_and_answers_the_same(engine):
    p = Position.initial()
    first = engine.hint(p, (4, 2), Context())
    pid = engine.pid
    os.kill(pid, signal.SIGKILL)
    engine.proc.wait(10)
    again = engine.hint(p, (4, 2), Context())
    assert again == first and first[0].words == "8/4 6/4"
    assert engine.restarts >= 1 and engine.pid != pid


def test_a_hint_gnubg_cannot_answer_is_an_engine_error(engine):
    with pytest.raises(EngineError):
        engine.ask({"op": "hint", "position": "not an id", "match_id": "cAkAAAAAAAAA",
                    "dice": [3, 1], "ctx": Context().to_json(),
                    "level": level_settings("expert"), "count": 3})
    # ... and the process goes on answering
    assert engine.hint(Position.initial(), (3, 1), Context())[0].words == "8/5 6/5"


def test_the_marks_are_gnubgs_own_thresholds(tmp_path):
    text = gnubg_says(["show analysis"], tmp_path)
    found = {}
    for name in ("very bad", "bad", "doubtful"):
        m = re.search(r"^\s*-(\d\.\d+) %s$" % name, text, re.M)
        assert m, text
        found[name] = float(m.group(1))
    assert dict((name, t) for t, name in MARKS) == found
    # gnubg marks an error strictly beyond its threshold
    t = found["bad"]
    assert mark(t) == "doubtful" and mark(t + 0.0005) == "bad"
    assert LEVELS["worldclass"][0] == 2


def gnubgs_own_marks(position, dice, words, home):
    """The mark gnubg's own analysis gives a play (`analyse game`, `show statistics game`),
    and its error in EMG."""
    text = gnubg_says(["new match 1", "set matchid cAkAAAAAAAAA", "set turn 0",
                       "set board %s" % position.to_id(), "set dice %d %d" % dice,
                       "move %s" % words, "analyse game", "show statistics game"], home)
    found = [name for name in ("very bad", "bad", "doubtful")
             if int(re.search(r"Moves marked %s\s+(\d+)" % name, text).group(1))]
    error = float(re.search(r"Error total EMG \(Points\)\s+(-\d+\.\d+)", text).group(1))
    return (found or [""])[0], -error


@pytest.mark.parametrize("dice, steps, expected", [
    ((3, 1), [(8, 7), (8, 5)], "very bad"),  # the opening 3-1 slotted
    ((6, 4), [(13, 9), (13, 7)], "bad"),
    ((5, 2), [(13, 8), (8, 6)], "bad"),  # 13/6
    ((6, 4), [(24, 18), (18, 14)], ""),  # 24/14: as good as gnubg's best
])
def test_a_bad_play_is_marked_as_gnubgs_analysis_marks_it(engine, tmp_path, dice, steps,
                                                          expected):
    p = Position.initial()
    turn = turn_of(p, dice, steps)
    rating = engine.rate(p, dice, turn.position, Context())
    from bgcore import notation

    own, error = gnubgs_own_marks(p, dice, notation(turn.steps), tmp_path)
    assert rating.mark == own == expected, (rating, own, error)
    assert abs(rating.lost - error) < 0.05  # (gnubg's analysis filters and scores its own way)
