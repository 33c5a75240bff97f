"""bgboard.engine against real GNU Backgammon (Debian's /usr/games/gnubg, installed by `make
system-deps`; a missing gnubg fails these tests, it never skips them).

Its plays must be legal, complete plays by bgcore's rules (checked against bgcore's own list
of every play of the roll), its cube decisions sane at the extremes, and a process that dies
must be replaced without the caller losing the request."""

import os
import random
import signal

import pytest

from bgboard.engine import (LEVELS, Context, Engine, EngineError, EngineMissing, LevelError,
                            mark, turn_of)
from bgcore import Position, legal_plays


@pytest.fixture(scope="module")
def engine():
    e = Engine("expert")
    e.start()
    yield e
    e.close()


def _game(engines, rng, positions):
    """One game between two engines (bgcore keeps the position): every play checked."""
    p = Position.initial()
    player = 0
    kinds = set()
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        steps = engines[player].play(p, dice, Context(player=player))
        allowed = set(legal_plays(p, dice))
        if not allowed or allowed == {p}:
            assert steps == [], (p.to_id(), dice, steps)
            after = p
        else:
            turn = turn_of(p, dice, steps)  # raises if illegal or incomplete
            after = turn.position
            assert after in allowed, (p.to_id(), dice, steps)
            for s in turn.steps:
                kinds.add("hit" if s.hit else "bar" if s.src == 25 else
                          "off" if s.dst == 0 else "move")
        positions.append((p.to_id(), dice))
        if after.mover[0] == 15:
            return kinds
        p = after.swapped()
        player = 1 - player


def test_gnubgs_plays_are_legal_complete_plays_by_bgcore(engine):
    rng = random.Random(19)
    beginner = Engine("beginner")
    try:
        positions = []
        kinds = set()
        for _ in range(3):
            kinds |= _game((engine, beginner), rng, positions)
    finally:
        beginner.close()
    assert {"hit", "bar", "off", "move"} <= kinds, kinds
    assert len(positions) > 100


def test_the_levels_are_gnubgs_settings_and_they_differ(engine):
    with pytest.raises(LevelError) as err:
        Engine("grandest")
    assert isinstance(err.value, ValueError) and "expert" in str(err.value)
    assert list(LEVELS) == ["beginner", "casual", "intermediate", "advanced", "expert",
                            "worldclass"]
    # Beginner's noise changes some plays; world class (2-ply) some of expert's (0-ply).
    rng = random.Random(5)
    others = {name: Engine(name) for name in ("beginner", "worldclass")}
    try:
        differ = {name: 0 for name in others}
        p = Position.initial()
        for _ in range(30):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            best = turn_of(p, dice, engine.play(p, dice, Context())).position
            for name, e in others.items():
                if turn_of(p, dice, e.play(p, dice, Context())).position != best:
                    differ[name] += 1
            p = best.swapped()
            if min(p.pips()) < 60:
                p = Position.initial()
        assert differ["beginner"] >= 3, differ
        assert differ["worldclass"] >= 1, differ
    finally:
        for e in others.values():
            e.close()


def _side(points):
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    return counts


def test_cube_decisions_at_the_extremes(engine):
    start = engine.cube(Position.initial(), Context())
    assert not start.double and start.take
    # A race the mover cannot lose (all home, the opponent's checkers all far back).
    crushing = Position(_side({1: 5, 2: 5, 3: 5}), _side({19: 5, 20: 5, 21: 5}))
    won = engine.cube(crushing, Context())
    assert not won.take  # the opponent should drop
    # Short races, the mover ahead: 60 pips to 69 is double, pass; 60 to 66 double, take
    # (gnubg's own words say so too).
    ahead = Position(_side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), _side({6: 4, 5: 4, 4: 4, 3: 3}))
    pass_ = engine.cube(ahead, Context())
    assert pass_.double and not pass_.take and pass_.text == "Double, pass"
    closer = Position(_side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), _side({6: 3, 5: 4, 4: 4, 3: 4}))
    take = engine.cube(closer, Context())
    assert take.double and take.take and take.text == "Double, take"
    # Match play: in the Crawford game nobody doubles.
    assert not engine.cube(ahead, Context(length=5, score=(4, 2), crawford=True)).double
    assert set(won.equities) == {"optimal", "no_double", "take", "drop"}


def test_a_play_is_rated_against_gnubgs_best_with_its_labels(engine):
    p = Position.initial()
    best = engine.rate(p, (3, 1), turn_of(p, (3, 1), [(8, 5), (6, 5)]).position, Context())
    assert best.lost == 0.0 and best.mark == "" and best.best == [(8, 5), (6, 5)]
    # Slotting with both dice from the 8 instead of making the 5-point: a blunder.
    worse = engine.rate(p, (3, 1), turn_of(p, (3, 1), [(8, 7), (8, 5)]).position, Context())
    assert worse.lost > 0.12 and worse.mark == "very bad" and worse.best == [(8, 5), (6, 5)]
    assert worse.best_equity - worse.equity == worse.lost
    # gnubg's default thresholds (tests/host/test_coach.py checks them against gnubg's)
    assert [mark(x) for x in (0.0, 0.03, 0.031, 0.06, 0.061, 0.12, 0.121, 1.0)] == [
        "", "", "doubtful", "doubtful", "bad", "bad", "very bad", "very bad"]
    # A play that wins is worth what it wins: with 6-1 the last two checkers come off, but
    # 6/5/off leaves one, and the opponent then bears off its last: a whole game thrown.
    race = Position(_side({6: 1, 1: 1}), _side({1: 1}))
    thrown = engine.rate(race, (6, 1), turn_of(race, (6, 1), [(6, 5), (5, 0)]).position,
                         Context())
    assert thrown.best_equity == 1.0 and thrown.equity < -0.99
    assert thrown.lost > 1.99 and thrown.mark == "very bad"


def test_resignations_are_accepted_when_they_give_what_playing_on_is_worth(engine):
    # The resigner is the mover. At the start a single point is more than the engine expects.
    assert engine.accepts(Position.initial(), 1, Context())
    # The resigner's checkers all far back, the engine's all home: a gammon at least.
    lost = Position(_side({19: 5, 20: 5, 21: 5}), _side({1: 5, 2: 5, 3: 5}))
    probabilities, equity = engine.evaluate(lost, Context())
    assert probabilities[0] < 0.01 and probabilities[3] > 0.5 and equity < -1
    assert not engine.accepts(lost, 1, Context())
    assert engine.accepts(lost, 3, Context())


def test_a_dead_gnubg_is_noticed_and_restarted_and_answers(engine):
    p = Position.initial()
    first = engine.play(p, (3, 1), Context())
    pid = engine.pid
    os.kill(pid, signal.SIGKILL)
    engine.proc.wait(10)
    again = engine.play(p, (3, 1), Context())  # the same request, to the new process
    assert again == first == [(8, 5), (6, 5)]
    assert engine.restarts >= 1 and engine.pid != pid and engine.alive()


def test_missing_gnubg_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BGBOARD_GNUBG", str(tmp_path / "no-gnubg"))
    with pytest.raises(EngineMissing) as err:
        Engine().start()
    text = str(err.value)
    assert "apt-get install gnubg" in text and "\n" not in text
    # A program that is not gnubg (no engine script running in it) is an error too.
    monkeypatch.setenv("BGBOARD_GNUBG", "/bin/true")
    e = Engine()
    with pytest.raises(EngineError):
        e.start()
    e.close()


def test_the_engine_beavers_where_gnubg_itself_says_beaver(engine, tmp_path):
    """The starting position with the mover doubling at once: gnubg's own cube analysis (its
    `hint`, in a gnubg of its own with beavers allowed) says "No double, beaver"; the
    engine's advice is the beaver, in money play with beavers only."""
    from bgcore.matchid import encode
    from test_host_gnubg import run_gnubg

    start = Position.initial()
    mid = encode({"cube": 1, "cube_owner": None, "on_roll": 0, "crawford": False,
                  "game_state": "playing", "turn": 0, "double_offered": False,
                  "resignation": 0, "dice": [], "match_length": 0, "score": [0, 0],
                  "jacoby": False})
    out = run_gnubg(str(tmp_path), [("h", ["set player 0 human", "set player 1 human",
                                           "set beavers 3", "set jacoby off", "new session",
                                           "set matchid %s" % mid, "set turn 0",
                                           "set board %s" % start.to_id(), "hint"])])["h"]
    assert "Proper cube action: No double, beaver" in out, out[-800:]
    advice = engine.cube(start, Context(beavers=True))
    assert advice.beaver and advice.take and not advice.double
    assert advice.text == "No double, beaver" and advice.code == 6
    for ctx in (Context(), Context(length=5), Context(length=5, beavers=True)):
        other = engine.cube(start, ctx)  # no beavers allowed: a take
        assert not other.beaver and other.take and other.text == "No double, take", ctx
    assert engine.cube(start, Context(beavers=True, jacoby=True)).beaver


def test_the_engine_raccoons_a_beaver_only_of_a_double_gnubg_would_make(engine):
    # A race the engine leads well (gnubg: "Redouble, pass" with the cube on its side): a
    # beaver of its double is a blunder, and the engine raccoons. At the start it does not.
    ahead = Position(_side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), _side({6: 4, 5: 4, 4: 4, 3: 3}))
    beavered = Context(player=0, cube=4, owner=1, beavers=True)
    assert engine.cube(ahead, beavered._replace(owner=0)).text == "Redouble, pass"
    assert engine.raccoon(ahead, beavered)
    assert not engine.raccoon(Position.initial(), beavered)


def test_the_engine_resigns_as_gnubg_resigns(engine):
    """gnubg's rule for its own player: in a race or bear-off, the lowest level that the
    position loses for certain at 0-ply; never in contact; a single under the Jacoby rule
    with the cube centred."""
    # the opponent bears off its last checker next; the mover cannot finish first
    single = Position(_side({6: 5}), _side({1: 1}))  # 10 off: a single loss
    gammon = Position(_side({12: 15}), _side({1: 1}))  # none off, none in the far home
    backgammon = Position(_side({20: 15}), _side({1: 1}))  # all in the winner's home
    lost_race = Position(_side({19: 5, 20: 5, 21: 5}), _side({1: 5, 2: 5, 3: 5}))
    for position, level in ((single, 1), (gammon, 2), (backgammon, 3)):
        assert engine.resignation(position, Context()) == level
        assert engine.resignation(position, Context(length=7, score=(2, 3))) == level
        assert engine.resignation(position, Context(jacoby=True)) == 1  # counts single
        assert engine.resignation(position, Context(jacoby=True, cube=2, owner=1)) == level
    # not lost for certain (a 6-6 now and then), or contact: play on
    assert engine.resignation(lost_race, Context()) == 0
    assert engine.resignation(Position.initial(), Context()) == 0
    assert engine.resignation(Position(_side({6: 3}), _side({1: 1})), Context()) == 0
