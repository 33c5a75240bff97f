# The stress soak, short (issue 16; `make bench` prints the whole table): whole matches on
# virtual boards built at the corners of what real parts give (sensitivity +-10 %, offsets
# +-150, noise 10 RMS, drift +-60 counts an hour, checkers 4 mm off-centre with weak or
# strong magnets, one dead sensor). Every match finishes, every committed play is the one
# the hands made, and the players are asked to restore fewer than once a game. The strong
# corner and a dead sensor that calibrates: soak_stress_more.py (an interpreter of its own:
# the worlds of three corners one after another fragment a 176K heap).
from sim.stress import CONDITIONS, run

SEEDS = [1, 2]


def _corner(name):
    for cond in CONDITIONS:
        if cond[0] == name:
            return cond
    raise KeyError(name)


def _check(tally):
    assert tally.wrong == 0, "%s: %d wrong commits, e.g. %r" % (tally.name, tally.wrong,
                                                                tally.example)
    assert tally.finished == tally.matches, "%s: %d of %d matches finished" % (
        tally.name, tally.finished, tally.matches)
    assert tally.restores < tally.games, "%s: %d restores in %d games" % (
        tally.name, tally.restores, tally.games)
    print(tally.row())


def test_everything_at_once_with_a_weak_set_of_checkers():
    # Six matches on one board, as make bench's table has them: the fifth stalled (a
    # checker slid across an empty slot at the set-up was learned as that slot's stack).
    _check(run(_corner("all at once, magnets -25%"), [1, 2, 3, 4, 5, 6]))

