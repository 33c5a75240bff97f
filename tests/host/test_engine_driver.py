"""bgboard.engine_driver.EngineDriver on states a board gives (a scripted link: the board's side
of these is tested end to end in tests/sim/test_engine_sim.py), with real gnubg."""

import pytest

from bgboard.engine import Engine
from bgboard.engine_driver import EngineDriver

CLOSED = "4HPwATDgc/ABMA"  # any position: the driver only passes it on here


class ScriptedLink:
    """Answers `state` with the states given, one each; records the other commands."""

    def __init__(self, states):
        self.states = list(states)
        self.sent = []
        self.args = []  # each sent command's arguments
        self.on_live = None

    def command(self, name, **args):
        if name == "state":
            return self.states.pop(0)
        self.sent.append(name)
        self.args.append(args)
        return {}


def state(player, allowed, dice=(), length=3, rules=None, cube=1, owner=None,
          position=CLOSED, resignation=0):
    from bgcore.matchid import encode

    mid = encode({"cube": cube, "cube_owner": owner, "on_roll": player, "crawford": False,
                  "game_state": "playing", "turn": player, "double_offered": False,
                  "resignation": resignation, "dice": list(dice), "match_length": length,
                  "score": [0, 0], "jacoby": False})
    return {"phase": "playing", "settings": {"rules": rules or {}},
            "match": {"length": length, "score": [0, 0], "crawford": False},
            "game": {"player": player, "dice": list(dice), "cube": cube, "cube_owner": owner,
                     "position_id": position, "match_id": mid, "allowed": allowed,
                     "moves": []}}


def _steps(driver, n):
    for _ in range(n):
        driver._next = 0.0
        driver.step()


@pytest.fixture(scope="module")
def engine():
    with Engine("expert") as e:
        yield e


def test_two_throws_from_the_same_position_each_wait_their_time(engine):
    # The engine (black) throws and cannot play; the person (white) neither; the engine is
    # on roll again in the very same position: it throws again, after the wait again.
    engine_turn = state(1, ["roll"])
    link = ScriptedLink([engine_turn, engine_turn, state(0, ["roll"]), engine_turn,
                         engine_turn])
    driver = EngineDriver(engine, 1, link, grace=0.0)
    for _ in range(5):
        driver._next = 0.0
        driver.step()
    assert link.sent == ["roll", "roll", "roll", "roll"]
    waiting = EngineDriver(engine, 1, ScriptedLink([engine_turn, state(0, ["roll"]),
                                                    engine_turn]), grace=60.0)
    for _ in range(3):
        waiting._next = 0.0
        waiting.step()
    assert waiting.link.sent == []  # a person's play stands a while before the engine throws


def test_the_engine_shut_out_passes_when_the_state_allows_the_pass(engine):
    """"Though he does not roll the dice, since he cannot make a checker play, he still has
    the right to double." (rules-cube-match-chouette; rule option shut_out_pass) The board's
    state names `pass`, not `roll`: the engine passes (the board's `roll` journals the pass),
    with physical dice too, without asking the person to throw for it."""
    for physical in (False, True):
        link = ScriptedLink([state(1, ["pass"])])
        said = []
        driver = EngineDriver(engine, 1, link, say=said.append, grace=0.0,
                              physical_dice=physical)
        driver._next = 0.0
        driver.step()
        assert link.sent == ["roll"] and link.args == [{}] and said == []


class GuideLink(ScriptedLink):
    """... and answers `guide` as a board does for the roll being played (white's)."""

    def __init__(self, states, dice):
        super().__init__(states)
        self.dice = dice
        self.guides = []

    def command(self, name, **args):
        if name == "guide":
            self.guides.append(args)
            return {"player": 0, "dice": list(self.dice), "start": CLOSED, "moves": None}
        return super().command(name, **args)


def test_a_hint_is_for_the_person_on_roll_with_dice_and_lights_the_best_play(engine):
    from bgboard.engine_coach import CoachError

    for st, words in ((state(1, ["roll"], (3, 1)), "gnubg is on roll"),
                      (state(0, ["roll", "double"]), "throw first"),
                      ({"phase": "idle"}, "no game")):
        driver = EngineDriver(engine, 1, GuideLink([st], (3, 1)))
        with pytest.raises(CoachError) as err:
            driver.hint()
        assert words in str(err.value) and driver.link.guides == []
    changed = []
    link = GuideLink([state(0, [], (3, 1))], (3, 1))
    driver = EngineDriver(engine, 1, link, on_coach=lambda: changed.append(1))
    hint = driver.hint()
    assert hint["plays"][0]["play"] == "8/5 6/5" and hint["level"] == "worldclass"
    assert link.guides[-1] == {"moves": "8/5 6/5", "start": CLOSED, "hint": True}
    assert driver.coach_view()["hint"] == hint and changed
    # the person's play committed: rated on the page, the hint gone with its roll
    driver._st = state(0, [], (3, 1))
    driver.event({"ev": "game", "number": 1, "score": [0, 0], "crawford": False, "seq": 1})
    driver.event({"ev": "play", "seq": 2, "player": 0, "dice": [3, 1],
                  "moves": [[8, 7, 0], [8, 5, 0]]})
    view = driver.coach_view()
    assert view["hint"] is None
    (rated,) = view["ratings"]
    assert rated["play"] == "8/7 8/5" and rated["mark"] == "very bad"
    assert rated["best"] == "8/5 6/5" and view["tally"]["very bad"] == 1


MONEY = {"length": 0, "rules": {"beavers": True, "raccoons": True}}


def _side(points):
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    return counts


def test_a_double_gnubg_calls_a_beaver_is_beavered_and_a_refusal_is_asked_again(engine):
    # The person (white) doubles in the starting position: gnubg says "No double, beaver".
    doubled = state(0, ["take", "drop", "beaver"], **MONEY)
    link = ScriptedLink([doubled])
    driver = EngineDriver(engine, 1, link)
    _steps(driver, 1)
    assert link.sent == ["beaver"] and driver.beavers == 1 and driver.takes == 0
    # without beavers (match play): a take
    link = ScriptedLink([state(0, ["take", "drop"])])
    _steps(EngineDriver(engine, 1, link), 1)
    assert link.sent == ["take"]
    # gnubg refuses once (an error answer): nothing is sent, the same decision is asked
    # again from the board's state and made
    real = engine.ask
    failed = []

    def refuse_once(request):
        if request["op"] == "cube" and not failed:
            failed.append(request)
            return real({"op": "no such op"})  # gnubg's own error answer
        return real(request)

    said = []
    engine.ask = refuse_once
    try:
        link = ScriptedLink([doubled, doubled])
        driver = EngineDriver(engine, 1, link, say=said.append)
        _steps(driver, 2)
    finally:
        engine.ask = real
    assert failed and link.sent == ["beaver"] and "asking again" in said[0], said


def test_a_beaver_of_the_engines_double_is_raccooned_when_gnubg_would_double(engine):
    from bgcore import Position

    ahead = Position(_side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), _side({6: 4, 5: 4, 4: 4, 3: 3}))
    # the engine (black) on roll, its double beavered (cube 4 on white's side)
    beavered = dict(MONEY, cube=4, owner=0, position=ahead.swapped().to_id())
    link = ScriptedLink([state(1, ["roll", "raccoon"], **beavered)])
    driver = EngineDriver(engine, 1, link)
    _steps(driver, 1)
    assert link.sent == ["raccoon"] and driver.raccoons == 1
    # at the start a beaver is right: the engine just throws
    link = ScriptedLink([state(1, ["roll", "raccoon"], **dict(beavered, position=CLOSED))])
    _steps(EngineDriver(engine, 1, link), 1)
    assert link.sent == ["roll"]


def test_the_engine_resigns_what_gnubg_says_and_offers_no_less_once_rejected(engine):
    from bgcore import Position

    # black (the engine) cannot bear off before white's last checker: a gammon
    lost = Position(_side({12: 15}), _side({1: 1})).swapped().to_id()  # white's view
    on_roll = state(1, ["roll", "double", "resign"], position=lost)
    offered = state(1, ["accept_resignation", "reject_resignation", "demand"], position=lost,
                    resignation=2)
    link = ScriptedLink([on_roll, offered, on_roll])
    driver = EngineDriver(engine, 1, link)
    _steps(driver, 3)  # resigns a gammon, waits for the answer, rejected: throws
    assert link.sent == ["resign", "roll"] and link.args[0] == {"level": 2}
    assert driver.resigned == 1
    # a demand for a backgammon: gnubg would not resign that much, the engine plays on
    link = ScriptedLink([on_roll, state(1, ["accept_resignation", "reject_resignation"],
                                        position=lost, resignation=3)])
    driver = EngineDriver(engine, 1, link)
    _steps(driver, 2)
    assert link.sent == ["resign", "reject"]


def test_the_persons_resignation_is_answered(engine):
    # White resigns a single at the start: more than the engine expects, accepted.
    link = ScriptedLink([state(0, ["accept_resignation", "reject_resignation", "demand"],
                               resignation=1)])
    driver = EngineDriver(engine, 1, link)
    _steps(driver, 1)
    assert link.sent == ["accept"] and driver.accepted == 1


def test_physical_dice_the_engine_asks_before_its_dice_are_taken(engine):
    # --dice physical: the person's throw is taken as typed; the engine's only once it has
    # decided on the cube and asked (then it sends no throw of its own); asked once a turn.
    from bgboard.engine_coach import CoachError

    said = []
    engine_turn = state(1, ["roll", "double"])
    link = ScriptedLink([state(0, ["roll"]), engine_turn, engine_turn, engine_turn,
                         engine_turn])
    driver = EngineDriver(engine, 1, link, say=said.append, physical_dice=True)
    driver.enter_dice([5, 2])  # the person's own throw
    assert (link.sent, link.args) == (["roll"], [{"dice": [5, 2]}])
    with pytest.raises(CoachError):  # the engine on roll, its cube not decided yet
        driver.enter_dice([6, 6])
    _steps(driver, 2)  # the opening position: gnubg does not double; it asks, once, and
    # throws nothing
    assert link.sent == ["roll"] and len(said) == 1 and "enter them" in said[0]
    driver.enter_dice([6, 1])
    assert (link.sent[-1], link.args[-1]) == ("roll", {"dice": [6, 1]})
