"""A turn as a person plays it: lift a checker, see where it may go, place it, take it back."""

from collections import namedtuple

from bgcore.errors import AmbiguousMoveError, DiceError, IllegalMoveError
from bgcore.movegen import apply, can_play_all, dice_to_play, landing, retract
from bgcore.position import BAR, OFF, Position, point_name

# One die's movement of one checker. dst 0 is borne off; src 25 is the bar; hit is True when
# it sent an opposing blot to the bar.
Step = namedtuple("Step", ("src", "dst", "die", "hit"))


def check_dice(dice):
    """(high, low) from two ints 1..6 in any order, or DiceError."""
    try:
        a, b = dice
    except (TypeError, ValueError):
        raise DiceError("dice must be two numbers, got %r" % (dice,))
    for d in (a, b):
        if not isinstance(d, int) or isinstance(d, bool) or d < 1 or d > 6:
            raise DiceError("a die shows 1 to 6, got %r" % (d,))
    return (a, b) if a >= b else (b, a)


class Turn:
    """One roll being played, step by step, from `position` (mover on roll) with `dice`.

    `required` is what the rules demand of the whole play: every die that can be played
    (all four of a double, or as many as possible; the higher die when only one of two can be
    played). Every move offered by `destinations` leaves the rest of `required` playable.
    """

    def __init__(self, position, dice):
        self.dice = check_dice(dice)
        self.start = position
        self._me = bytearray(position.mover)
        self._opp = bytearray(position.opponent)
        self.required = tuple(dice_to_play(self._me, self._opp, self.dice[0], self.dice[1]))
        self._left = list(self.required)
        self.moves = []  # one tuple of Steps per placed checker, in order
        self._position = None  # the position as played so far, once asked for
        # Per point, its destinations once known (worked out ahead of a lift by prepare(),
        # a board lights them at once), a tuple made once: a lift's takes nothing from the
        # heap, by point. None: none known.
        self._dests = None  # type: dict | None
        self._ahead = BAR  # the next point prepare() looks at

    # --- what the player may do -------------------------------------------------------------

    def destinations(self, src):
        """Every point (0 = off) a checker lifted from `src` may be placed on now: one die or
        a chain of dice, each landing open and the rest of the roll still playable."""
        if not _is_point(src, 1, BAR) or not self._me[src] or not self._left:
            return ()
        known = self._dests
        if known is None or src not in known:
            known = self._work_out(src)
        return known[src]

    def _work_out(self, src):
        # The destinations by point, with src's.
        known = self._dests
        if known is None:
            known = self._dests = {}
        seen = bytearray(26)
        self._explore(src, seen, None, None)
        known[src] = tuple(p for p in range(25, -1, -1) if seen[p])
        return known

    def prepare(self):
        """Work out one more point's destinations ahead of its lift (a board does this
        between scans: a lift then costs a Pico 1.2 ms less). False once all are known."""
        while self._ahead > 0:
            p = self._ahead
            self._ahead -= 1
            if self._me[p] and (self._dests is None or p not in self._dests):
                self.destinations(p)
                return True
        return False

    def _changed(self):
        # A checker moved: what was worked out for the old position no longer holds.
        self._position = None
        self._dests = None
        self._ahead = BAR

    def paths(self, src, dst):
        """The ways (tuples of Steps, fewest dice first) to bring a checker from src to dst.
        Two paths of one move differ in what they hit on the way: the board decides which
        happened from what it senses."""
        if not _is_point(src, 1, BAR) or not _is_point(dst, OFF, 24) or not self._me[src]:
            return []
        routes = []
        self._explore(src, None, dst, routes)
        routes.sort(key=_route_order)  # a full key: MicroPython's sort is not stable
        return routes

    def _explore(self, src, seen, target, routes, path=()):
        me = self._me
        opp = self._opp
        left = self._left
        for i in range(len(left)):
            die = left[i]
            if i and left[i - 1] == die:
                continue  # same die value: same step
            dst = landing(me, opp, src, die)
            if dst < 0:
                continue
            hit = apply(me, opp, src, dst)
            del left[i]
            if can_play_all(me, opp, left):
                if seen is not None:
                    seen[dst] = 1
                step_path = path
                if routes is not None:
                    step_path = path + (Step(src, dst, die, bool(hit)),)
                    if dst == target:
                        routes.append(step_path)
                if dst and left:
                    self._explore(dst, seen, target, routes, step_path)
            left.insert(i, die)
            retract(me, opp, src, dst, hit)

    @property
    def remaining(self):
        """Dice still to play."""
        return tuple(self._left)

    @property
    def steps(self):
        return [s for move in self.moves for s in move]

    def can_end(self):
        """True when the play is complete: every required die used."""
        return not self._left

    @property
    def position(self):
        """The position as played so far (mover still on roll). Made once per move: a board
        asks for it several times for each thing the sensors see (1 ms each on a Pico)."""
        if self._position is None:
            self._position = Position(self._me, self._opp)
        return self._position

    # --- doing it ------------------------------------------------------------------------------

    def move(self, src, dst, hits=None, die=None):
        """Place a checker lifted from `src` on `dst`; returns the Steps it took.

        For a chain, `hits` names the intermediate points where an opposing blot was hit
        (the board sees it on the bar); None takes the way that hits nothing on the way when
        there is one. The final landing always hits a blot there. `die` asks for a one-die
        move with that die (bearing off from the 5 with 6-5 may use either).
        """
        routes = self.paths(src, dst)
        if die is not None:
            routes = [r for r in routes if len(r) == 1 and r[0].die == die]
        if not routes:
            raise IllegalMoveError(self.why_not(src, dst))
        if hits is None:
            chosen = [r for r in routes if not _hits_on_way(r)] or routes
            outcomes = {_hits_on_way(r) for r in chosen}
            if len(outcomes) > 1:
                raise AmbiguousMoveError(
                    "%s to %s may hit on %s: say which"
                    % (point_name(src), point_name(dst), " or ".join(str(o[0]) for o in outcomes))
                )
        else:
            want = tuple(sorted(hits))
            chosen = [r for r in routes if _hits_on_way(r) == want]
            if not chosen:
                raise IllegalMoveError(
                    "no way from %s to %s hits exactly %s on the way"
                    % (point_name(src), point_name(dst), list(want) or "nothing")
                )
        return self.play(chosen[0])

    def play(self, route):
        """Make a move given as one of paths()' ways, as it is; returns it."""
        for s in route:
            apply(self._me, self._opp, s.src, s.dst)
            self._left.remove(s.die)
        self.moves.append(route)
        self._changed()
        return route

    def copy(self):
        """A turn in the same state (the same moves made), to try moves on."""
        other = Turn(self.start, self.dice)
        for route in self.moves:
            other.play(route)
        return other

    def undo(self):
        """Take back the last placed checker; returns its Steps."""
        if not self.moves:
            raise IllegalMoveError("nothing to take back this turn")
        route = self.moves.pop()
        for s in reversed(route):
            retract(self._me, self._opp, s.src, s.dst, s.hit)
            self._left.append(s.die)
        self._left.sort(reverse=True)
        self._changed()
        return route

    # --- explaining a refusal --------------------------------------------------------------------

    def why_not(self, src, dst):
        """Why a checker may not go from src to dst now, in words for the player."""
        from bgcore import moving  # loaded when a move is refused

        return moving.why_not(self, src, dst)


def _route_order(route):
    # Fewest dice first; then the higher die first.
    return (len(route), tuple(-s.die for s in route))


def _is_point(p, lo, hi):
    return isinstance(p, int) and not isinstance(p, bool) and lo <= p <= hi


def _hits_on_way(route):
    return tuple(sorted(s.dst for s in route[:-1] if s.hit))
