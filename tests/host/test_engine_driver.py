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
