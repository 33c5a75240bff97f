"""The stress soak: whole matches on a virtual board built from parts a builder would really
get (issue 16): sensors with spread, noise and drift, a dead sensor, checkers with weak or
strong magnets put down off-centre; and (issue 29) up to three broken sensors at once,
under the starting position too, with strong noise and weak magnets, and checkers put down
past 4 mm off-centre: at 8 mm a single checker reads 29 % of its level, which no sensing
tells from an empty slot (the row shows where the envelope ends). Every committed play is
checked against the hands'. Run by tests/soak/soak_stress.py, soak_stress_more.py and
soak_broken_sensors.py (short ones) and tests/bench/bench_stress.py (the table)."""
import gc

from board.controller import IDLE
from sim.autoplay import Autoplay
from sim.virtual_board import DEAD as FOUND_DEAD, VirtualBoard
from sim.world import World

# (name, noise RMS, SensorModel settings, faults)
DEAD = (25, "high")  # white's 6-point, slot 0: a checker on it from the start
CALM = (116, "dead")  # white's 24-point, slot 1: reads its zero level, calibrates as good
UNUSED = (20, "dead")  # white's 5-point, slot 0: the same, on a point empty at the start
# Issue 29: up to three broken at once, under the starting position too.
DEAD_6 = (27, "dead")  # white's 6-point, slot 2 (calibrates as good)
DEAD_13 = (64, "dead")  # white's 13-point, slot 4 (calibrates as good)
EDGE_24 = (115, "dead")  # white's 24-point, slot 0: with CALM, neither of its checkers seen
STUCK_6 = (25, "low")  # white's 6-point, slot 0, stuck at the low rail (calibration: faulty)
NOISY_13 = (61, "noisy")  # white's 13-point, slot 1, 10x the noise (calibration: faulty)
BLACK_8 = (81, "dead")  # black's 8-point (physical 17), slot 1 (calibrates as good)
EMPTY_3 = (11, "dead")  # white's 3-point, slot 1: empty at the start
THREE_DEAD = (CALM, DEAD_6, BLACK_8)
THREE_BROKEN = (CALM, STUCK_6, NOISY_13)
HOSTILE = {"gain_spread": 0.10, "offset_spread": 150, "magnets": 0.75, "magnet_spread": 0.05,
           "off_centre": 4.0, "drift": 60, "drift_hours": 4.0}
CONDITIONS = (
    ("nominal", 3.0, {}, ()),
    ("noise 10 RMS", 10.0, {}, ()),
    ("sensitivity +-10%, offsets +-150", 3.0, {"gain_spread": 0.10, "offset_spread": 150}, ()),
    ("magnets -25%", 3.0, {"magnets": 0.75, "magnet_spread": 0.05}, ()),
    ("magnets +15%", 3.0, {"magnets": 1.15, "magnet_spread": 0.05}, ()),
    ("off-centre up to 4 mm", 3.0, {"off_centre": 4.0}, ()),
    ("drift +-60 counts/hour", 3.0, {"drift": 60, "drift_hours": 4.0}, ()),
    ("one dead sensor", 3.0, {}, (DEAD,)),
    ("a dead sensor that calibrates", 3.0, {}, (CALM,)),
    ("a dead sensor on an empty point", 3.0, {}, (UNUSED,)),
    ("all at once, magnets -25%", 10.0,
     {"gain_spread": 0.10, "offset_spread": 150, "magnets": 0.75, "magnet_spread": 0.05,
      "off_centre": 4.0, "drift": 60, "drift_hours": 4.0}, (DEAD,)),
    ("all at once, magnets +15%", 10.0,
     {"gain_spread": 0.10, "offset_spread": 150, "magnets": 1.15, "magnet_spread": 0.05,
      "off_centre": 4.0, "drift": 60, "drift_hours": 4.0}, (DEAD,)),
    ("two dead under the start", 3.0, {}, (CALM, DEAD_6)),
    ("two dead on one point", 3.0, {}, (EDGE_24, CALM)),
    ("three dead under the start", 3.0, {}, THREE_DEAD),
    ("dead, stuck and noisy", 3.0, {}, THREE_BROKEN),
    ("three dead, one on an empty point", 3.0, {}, (CALM, DEAD_13, EMPTY_3)),
    ("three dead, noise 10, magnets -25%", 10.0, {"magnets": 0.75, "magnet_spread": 0.05},
     THREE_DEAD),
    ("all at once, magnets -25%, 3 broken", 10.0, HOSTILE, (CALM, DEAD_6, STUCK_6)),
    ("off-centre up to 5 mm", 3.0, {"off_centre": 5.0}, ()),
    ("off-centre up to 6 mm", 3.0, {"off_centre": 6.0}, ()),
    ("off-centre up to 8 mm", 3.0, {"off_centre": 8.0}, ()),
    ("off-centre 5 mm, noise 10, -25%, 3 dead", 10.0,
     {"off_centre": 5.0, "magnets": 0.75, "magnet_spread": 0.05}, THREE_DEAD),
)


class Tally:
    def __init__(self, name):
        self.name = name
        self.matches = 0
        self.finished = 0
        self.games = 0
        self.plays = 0
        self.wrong = 0  # plays committed other than the hands made them
        self.restores = 0  # the players asked to restore: after a play, or at the set-up
        self.found = 0  # sensors the board found dead from play (a live one found: wrong)
        self.untrusted = 0  # sensors the board ignores at the end: faulty or found dead
        self.live = 0  # of those, sensors that were not broken (each one a mistake)
        self.example = None  # a wrong commit, to show

    def row(self):
        per_game = self.restores / self.games if self.games else float(self.restores)
        return "%-40s %3d/%-3d %6d %6d %6d %8d %7.2f %5d %9d %4d" % (
            self.name, self.finished, self.matches, self.games, self.plays, self.wrong,
            self.restores, per_game, self.found, self.untrusted, self.live)


HEADER = "%-40s %7s %6s %6s %6s %8s %7s %5s %9s %4s" % (
    "condition", "matches", "games", "plays", "wrong", "restores", "/game", "dead",
    "untrusted", "live")


def run(condition, seeds, length=5, max_steps=2500, clumsy=25):
    """Play a match of `length` for each seed on one board built to `condition` (an entry
    of CONDITIONS); a Tally of what happened."""
    name, noise, sensors, faults = condition
    tally = Tally(name)
    world = World(seeds[0], noise, sensors, faults)
    for seed in seeds:
        world.table.clear()
        vb = VirtualBoard(seed=seed, clumsy=clumsy, world=world)
        ap = Autoplay(vb, seed=seed)
        tally.matches += 1
        if ap.play_match(length, max_steps=max_steps):
            tally.finished += 1
        tally.games += ap.games + (0 if vb.board.phase == IDLE else 1)
        tally.plays += ap.plays
        tally.wrong += len(ap.mismatches)
        if ap.mismatches and tally.example is None:
            tally.example = ap.mismatches[0]
        tally.restores += ap.stuck + ap.setups_refused
        vb = ap = None
        gc.collect()
    tally.found = len([s for s, why in world.faulty if why == FOUND_DEAD])
    tally.untrusted = len(world.faulty)
    broken = [slot for slot, kind in faults]
    tally.live = len([s for s, why in world.faulty if s not in broken])
    return tally
