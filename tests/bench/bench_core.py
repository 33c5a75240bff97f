# Rules-core figures for the board: run under the MicroPython unix port with a small heap
# (`make bench`). A Pico is about 100x slower than this machine's unix port, so the budgets
# are: a lift's destinations <= 0.1 ms here, everything at the roll <= 2.5 ms here.
import gc
import random
import sys
import time

from bgcore import Position, Turn
from sim.hands import random_play

MICRO = sys.implementation.name == "micropython"
if MICRO:
    def now_us():
        return time.ticks_us()

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)
else:
    def now_us():
        return time.perf_counter_ns() // 1000

    def since_us(t0):
        return now_us() - t0

HARD = ("/yMigBBUSimlFA", "4HPwATDgc/ABMA")
GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 150
REPEAT = 5

most_allocated = [0, ""]  # the most heap one measured operation allocated, and where


def timed(fn, *args):
    """Best of REPEAT runs, in microseconds (the best filters out scheduler noise). The
    first run is also weighed: bytes allocated, from a freshly collected heap."""
    best = 1 << 30
    for i in range(REPEAT):
        if i == 0 and MICRO:
            gc.collect()
            before = gc.mem_alloc()
        t0 = now_us()
        fn(*args)
        dt = since_us(t0)
        if i == 0 and MICRO:
            used = gc.mem_alloc() - before
            if used > most_allocated[0]:
                most_allocated[0] = used
                most_allocated[1] = getattr(fn, "__name__", "?")
        if dt < best:
            best = dt
    return best


def at_roll(position, dice):
    # What the board computes when the dice land: can anything be played, how many dice,
    # and where each checker could go if lifted first.
    turn = Turn(position, dice)
    for src in range(25, 0, -1):
        if position.mover[src]:
            turn.destinations(src)
    return turn


class Worst:
    def __init__(self, name):
        self.name = name
        self.us = -1
        self.where = ""
        self.count = 0
        self.total = 0

    def add(self, us, where):
        self.count += 1
        self.total += us
        if us > self.us:
            self.us = us
            self.where = where


lift = Worst("destinations() for one lift")
roll = Worst("work at the roll")


def measure(position, dice):
    pid = position.to_id()
    roll.add(timed(at_roll, position, dice), "%s %d-%d" % (pid, dice[0], dice[1]))
    turn = Turn(position, dice)
    # Lifts at the start of the turn, then after one move (a mid-turn lift).
    for stage in range(2):
        first = None
        for src in range(25, 0, -1):
            if turn._me[src]:
                us = timed(turn.destinations, src)
                lift.add(us, "%s %d-%d from %d%s" % (
                    pid, dice[0], dice[1], src, " (after a move)" if stage else ""))
                if first is None and turn.destinations(src):
                    first = src
        if first is None or stage:
            break
        turn.move(first, turn.destinations(first)[0], ())


def random_game_positions(seed):
    random.seed(seed)
    position = Position.initial()
    while position.mover[0] < 15:
        dice = (random.randint(1, 6), random.randint(1, 6))
        yield position, dice
        position = random_play(Turn(position, dice), random).position.swapped()


def blocking_positions(seed, count):
    # Adversarial: the opponent holds 4-7 random points, the mover's 15 checkers are spread
    # behind and among them, so many rolls can be played only in part and proving that
    # takes the whole search.
    random.seed(seed)
    made = 0
    while made < count:
        mover = [0] * 26
        opp = [0] * 26
        held = []
        while len(held) < random.randint(4, 7):
            p = random.randint(1, 24)
            if p not in held:
                held.append(p)
        for p in held:
            opp[25 - p] = 2
        left = 15 - 2 * len(held)
        opp[random.randint(1, 6)] += left if left > 0 else 0
        for _ in range(15):
            p = random.randint(1, 25)
            while p < 25 and opp[25 - p]:
                p = random.randint(1, 25)
            mover[p] += 1
        try:
            position = Position(mover, opp)
        except ValueError:
            continue
        made += 1
        yield position


def main():
    gc.collect()
    base = gc.mem_alloc() if MICRO else 0
    for pid in HARD:
        for a in range(1, 7):
            for b in range(1, a + 1):
                measure(Position.from_id(pid), (a, b))
    n = 0
    for position in blocking_positions(1, GAMES * 4):
        for d in range(1, 7):
            measure(position, (d, d))
        measure(position, (random.randint(1, 6), random.randint(1, 6)))
        n += 7
    gc.collect()
    for g in range(GAMES):
        for position, dice in random_game_positions(g):
            measure(position, dice)
            n += 1
        gc.collect()
    print("bgcore on %s: %d rolls (random games, blocking positions, hard positions)"
          % (sys.implementation.name, n))
    for w, budget in ((lift, 100), (roll, 2500)):
        print("%-30s worst %5d us (budget %d us), mean %4d us over %d; worst at %s"
              % (w.name, w.us, budget, w.total // w.count, w.count, w.where))
    if MICRO:
        gc.collect()
        print("heap in use after import: %d bytes; most allocated by one call: %d bytes (%s)"
              % (base, most_allocated[0], most_allocated[1]))


main()
