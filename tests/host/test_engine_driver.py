"""bgboard.engine_cmd.EngineDriver on states a board gives (a scripted link: the board's side
of these is tested end to end in tests/sim/test_engine_sim.py), with real gnubg."""

import pytest

from bgboard.engine import Engine
from bgboard.engine_cmd import EngineDriver

CLOSED = "4HPwATDgc/ABMA"  # any position: the driver only passes it on here


class ScriptedLink:
    """Answers `state` with the states given, one each; records the other commands."""

    def __init__(self, states):
        self.states = list(states)
        self.sent = []
        self.on_live = None

    def command(self, name, **args):
        if name == "state":
            return self.states.pop(0)
        self.sent.append(name)
        return {}


def state(player, allowed, dice=()):
    return {"phase": "playing", "settings": {"rules": {}},
            "match": {"length": 3, "score": [0, 0], "crawford": False},
            "game": {"player": player, "dice": list(dice), "cube": 1, "cube_owner": None,
                     "position_id": CLOSED, "match_id": "cAkAAAAAAAAA", "allowed": allowed,
                     "moves": []}}


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
    from bgboard.engine_cmd import CoachError

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
