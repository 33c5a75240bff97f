"""Shared fixtures of the host tests: a corpus of random matches and money sessions played
with bgcore (tests/host/eventgen.py), generated once per test session."""

import os
import random
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from eventgen import Odds, play_match  # noqa: E402

from bgcore import Rules  # noqa: E402


class Case:
    def __init__(self, name, events, match, rules, mat_exact=True):
        self.name = name
        self.events = events
        self.match = match
        self.rules = rules
        # False: the .mat format cannot carry the session's rules (automatic doubles, a
        # match without the Crawford rule); SGF can.
        self.mat_exact = mat_exact


def make_corpus(seed=2024):
    rng = random.Random(seed)
    cases = []
    lengths = [1, 2, 3, 3, 4, 5, 5, 7, 7, 9, 11, 15]
    k = 0

    def odds():
        return Odds(double=rng.choice([0.03, 0.08, 0.15, 0.3]), take=rng.choice([0.5, 0.75, 0.9]),
                    beaver=rng.choice([0.2, 0.6]), raccoon=rng.choice([0.3, 0.8]),
                    resign=rng.choice([0.0, 0.01, 0.03, 0.08]),
                    resign_after_roll=rng.choice([0.0, 0.01, 0.03]),
                    accept=rng.choice([0.4, 0.8]))

    for rep in range(6):
        for length in lengths:
            k += 1
            events, match = play_match(random.Random(seed + k), length, Rules(), odds=odds())
            cases.append(Case("match%d-%dpt" % (k, length), events, match, Rules()))
    for rep in range(30):
        k += 1
        rules = Rules(jacoby=rng.random() < 0.5, beavers=rng.random() < 0.7, cube_cap=1024)
        if rules.beavers and rng.random() < 0.5:
            rules = Rules(jacoby=rules.jacoby, beavers=True, raccoons=True, cube_cap=1024)
        events, match = play_match(random.Random(seed + k), 0, rules, odds=odds(),
                                   games=rng.randint(1, 5))
        cases.append(Case("money%d" % k, events, match, rules))
    # What .mat cannot say but SGF can: automatic doubles, matches without Crawford.
    for rep in range(6):
        k += 1
        rules = Rules(automatic_doubles=2, beavers=True, cube_cap=1024)
        events, match = play_match(random.Random(seed + k), 0, rules, odds=odds(), games=3)
        cases.append(Case("autodouble%d" % k, events, match, rules, mat_exact=False))
        k += 1
        rules = Rules(crawford=False)
        events, match = play_match(random.Random(seed + k), rng.choice([3, 5]), rules,
                                   odds=odds())
        cases.append(Case("nocrawford%d" % k, events, match, rules, mat_exact=False))
    # Jacoby after an automatic double ("if neither player has offered a double"): these
    # seeds end a game in a gammon or backgammon on the centred cube of 2, which counts 2.
    # gnubg must load them cleanly; it takes the results as the files record them, so the
    # rule itself is tested in tests/core.
    calm = Odds(double=0.03, take=0.9, beaver=0.2, raccoon=0.3, resign=0.0,
                resign_after_roll=0.0, accept=0.8)
    for s in (3006, 3094, 3101):
        rules = Rules(automatic_doubles=2, jacoby=True, cube_cap=1024)
        events, match = play_match(random.Random(s), 0, rules, odds=calm, games=4)
        cases.append(Case("autojacoby%d" % s, events, match, rules, mat_exact=False))
    return cases


@pytest.fixture(scope="session")
def corpus():
    return make_corpus()
