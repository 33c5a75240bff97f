# The stress soak, short, continued (soak_stress.py; `make bench` prints the whole table):
# everything at once with a strong set of checkers (+15 %: single checkers read at the level
# of two until the set is learned at the set-up), and a board whose dead sensor calibrates
# like a good one (found from play at the first set-up, then worked around as a blind slot),
# and one under a point empty at the start (found from its neighbours' checkers).
# Every match finishes, every committed play is the hands' play, fewer than one restore a
# game.
from soak_stress import SEEDS, _check, _corner
from sim.stress import run


def test_everything_at_once_with_a_strong_set_of_checkers():
    _check(run(_corner("all at once, magnets +15%"), SEEDS))


def test_a_dead_sensor_that_calibrates_is_found_from_play():
    _check(run(_corner("a dead sensor that calibrates"), SEEDS))


def test_a_dead_sensor_on_a_slot_no_checker_stands_on_at_the_start_is_worked_around():
    _check(run(_corner("a dead sensor on an empty point"), SEEDS))
