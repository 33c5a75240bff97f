"""Simulated hands: a person moving checkers on the board, clumsily at times.

Each action is a generator that changes the Table and yields how many milliseconds pass
before its next change; the simulator scans the sensors meanwhile. A person rests a checker
long enough for the board to see it (over 150 ms), slides some across other points on the
way, hesitates, knocks a checker off and puts it back, drops one on a wrong point and
corrects it, sends hit checkers to the bar and bears off into the tray."""

from bgwire import BLACK, WHITE


class Hands:
    """Physical actions on `table` (sim.table.Table), timed by `rng` (randint(a, b)).
    `clumsy` 0..100: the percentage chance of each kind of slip per move. `brisk`: a quick
    player, who rests a checker 220-360 ms instead of 250-700 ms, carries it 60-200 ms
    instead of 60-300 ms and hesitates with it in the air 300-900 ms instead of 600-1800 ms
    (the emulated Pico's autoplay: every emulated second costs it about two)."""

    def __init__(self, table, rng, clumsy=20, brisk=False):
        self.table = table
        self.rng = rng
        self.clumsy = clumsy
        self.brisk = brisk

    def _chance(self):
        return self.rng.randint(1, 100) <= self.clumsy

    def pause(self, lo=None, hi=None):
        """A rest (a checker put down) unless lo and hi say otherwise."""
        brisk = self.brisk
        return self.rng.randint(lo or (220 if brisk else 250), hi or (360 if brisk else 700))

    # --- single actions --------------------------------------------------------------------

    def carry(self, side, src, dst, over=()):
        """Lift a checker from src and put it on dst, perhaps sliding it over `over`."""
        t = self.table
        t.lift(side, src)
        yield self.pause(60, 200 if self.brisk else 300)
        if over and self._chance():
            for p in over:  # slid across: each point sees it for a moment only
                t.slide_over(side, p)
                yield self.rng.randint(20, 70)
            t.slide_done()
        elif self._chance():
            yield self.pause(300, 900) if self.brisk else self.pause(600, 1800)  # hesitation
        t.put(side, dst)
        yield self.pause()

    def knock(self, side, point):
        """Knock a checker off its point and put it back."""
        self.table.lift(side, point)
        yield self.pause(400, 1200)
        self.table.put(side, point)
        yield self.pause()

    def play(self, side, turn, moves):
        """Make `moves` (tuples of Steps, as bgcore.Turn records them) physically, continuing
        `turn` (a scratch bgcore.Turn in the state the board shows; it is played along).
        Hit checkers go to the bar; slips happen at random, but a wrong placement is always
        on a point the rules refuse, so it cannot pass for a move."""
        for move in moves:
            src = move[0].src
            dst = move[-1].dst
            if self._chance():
                mine = turn.position.mover
                victim = self._pick(lambda p: p != src and mine[p])
                if victim:
                    for w in self.knock(side, victim):
                        yield w
            if self._chance():
                wrong = self._pick(self._wrong_point(turn, src, dst))
                if wrong:
                    for w in self.carry(side, src, wrong):
                        yield w
                    src = wrong  # and now correct it
            if len(move) > 1 and self._chance():
                for s in move:  # a chain, one die at a time
                    for w in self.carry(side, src, s.dst):
                        yield w
                    src = s.dst
                    if s.hit:
                        for w in self.carry(1 - side, 25 - s.dst, 25):
                            yield w
            else:
                over = range(src - 1, max(dst, 1, src - 4) - 1, -1)  # up to 4 points passed
                for w in self.carry(side, src, dst, over):
                    yield w
                for s in move:
                    if s.hit:  # the hit checker goes to its bar
                        for w in self.carry(1 - side, 25 - s.dst, 25):
                            yield w
            turn.move(move[0].src, dst, [s.dst for s in move[:-1] if s.hit])

    def _pick(self, test):
        # A random point 1..24 of those test(p) accepts (0: none). Counted, then drawn: no
        # list of them (the soaks run in a Pico's heap).
        return _nth(test, 1, 24, self.rng)

    def _wrong_point(self, turn, src, dst):
        # Points the rules refuse for this checker, empty or the mover's own, and not the
        # origin of an earlier move (putting it there would read as a takeback).
        theirs = turn.position.opponent
        legal = turn.destinations(src)
        moves = turn.moves

        def wrong(p):
            if p == src or p == dst or p in legal or theirs[25 - p]:
                return False
            for m in moves:
                if m[0].src == p:
                    return False
            return True

        return wrong


def scratch(turn):
    """A copy of `turn` (bgcore.Turn) with the same moves made, to plan on."""
    return turn.copy()


def random_play(turn, rng):
    """Complete `turn` (a bgcore.Turn) in place with random legal moves: a random checker,
    a random destination, a random way there (hit or pass by). rng: randint(a, b)."""
    while not turn.can_end():
        src = _nth(turn.destinations, 25, 1, rng)  # the points, from the bar down
        dests = turn.destinations(src)
        dst = dests[rng.randint(0, len(dests) - 1)]
        ways = turn.paths(src, dst)
        way = ways[rng.randint(0, len(ways) - 1)]
        turn.move(src, dst, [s.dst for s in way[:-1] if s.hit])
    return turn


def choose_play(turn, rng):
    """Random legal moves that complete `turn` (left as it was): ([tuples of Steps], the
    Position they lead to, the mover still on roll)."""
    plan = scratch(turn)
    done = len(plan.moves)
    random_play(plan, rng)
    return plan.moves[done:], plan.position


def _nth(test, first, last, rng):
    # A random one of the points from first to last (either way) that test(p) accepts, as
    # rng.randint over the list of them would draw it; 0 when there is none.
    step = 1 if last >= first else -1
    n = 0
    for p in range(first, last + step, step):
        if test(p):
            n += 1
    if not n:
        return 0
    k = rng.randint(0, n - 1)
    for p in range(first, last + step, step):
        if test(p):
            if not k:
                return p
            k -= 1
    return 0
