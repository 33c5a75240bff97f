"""Reading what a person did from what the sensors see.

The tracker compares the sensed board with the position the turn in progress expects and
reads the difference: one checker missing is a lift; missing here and extra there is a
placement (a move, if the rules allow it); the reverse of an earlier move is a takeback;
anything else is a disturbance to be restored. Nothing is committed until the board shows
a whole, legal step. Counts are in each side's own numbering (25 its bar); sensing cannot
see the trays, so a checker that leaves the board may be in a hand or borne off."""

from board.layout import BAR_FIRST, POINT_SLOTS, SLOTS

# What the board looks like, from the tracker's point of view.
STEADY = 0      # sensed board equals the expected position
LIFTED = 1      # one checker of the mover is off its point: show where it may go
HIT_WAIT = 2    # a checker landed on a blot: waiting for the hit checker to reach the bar
ILLEGAL = 3     # a checker was put where the rules do not allow: waiting for it to move
RESTORE = 4     # checkers are missing or extra elsewhere: show them, commit nothing


class Sensed:
    """What sensing tells, per side in its own numbering: a lower bound on the checkers at
    each point (25 the bar) and whether that point's reading saturates (a stack of 3 or
    more in some slot, so there may be more). blind: slots whose sensor is disabled (faulty,
    or found dead from play): a point expects to see its checkers but those the filling
    convention puts on its blind slots (any number of a point's slots may be blind).
    occupied[side][point]: how many of the point's slots show a checker of side."""

    def __init__(self, blind=()):
        self.count = (bytearray(26), bytearray(26))  # [side][point]
        self.saturated = (bytearray(26), bytearray(26))
        self.occupied = (bytearray(26), bytearray(26))
        self.blind = bytes(sorted(set(blind)))
        # Points with blind slots, per side: bit k set for the point's slot k (0 at the
        # edge) blind; 0 none. The filling convention says how many of a point's checkers
        # stand on them unseen.
        self.unseen = (bytearray(26), bytearray(26))
        for s in self.blind:
            if s >= BAR_FIRST:
                self.unseen[0 if s < BAR_FIRST + 4 else 1][25] |= 1 << (s - BAR_FIRST) % 4
            else:
                self.unseen[0][s // POINT_SLOTS + 1] |= 1 << s % POINT_SLOTS
                self.unseen[1][24 - s // POINT_SLOTS] |= 1 << s % POINT_SLOTS

    def read(self, codes):
        """Summarise a classified frame (board.layout's slots and signed codes): side 0 is
        white (positive codes), side 1 black. A checker on the wrong half of the bar still
        counts for its colour."""
        for p in range(1, 25):
            self._point(codes, p)
        self._bar(codes)

    def update(self, codes, changed, n):
        """The same, for the points of the first n slots in `changed` only (a scan's
        changes: a lift costs one point, not the whole board)."""
        bar = 0
        while n:  # (few locals: a frame over 11 words comes from the heap, and that
            n -= 1  # search is most of a slow lift's time: see board.leds)
            if changed[n] < BAR_FIRST:
                self._point(codes, changed[n] // POINT_SLOTS + 1)
            else:
                bar = 1
        if bar:
            self._bar(codes)

    def _point(self, codes, p):
        # Each side's checkers, slots showing them and whether one saturates (3 or more),
        # summed in one int: count + 256 a slot + 65536 a saturated slot (few locals).
        w = b = 0
        s = p * POINT_SLOTS
        while s > (p - 1) * POINT_SLOTS:
            s -= 1
            c = codes[s]
            if c > 0:
                w += c + (256 if c < 3 else 65792)
            elif c < 0:
                b += (256 if c > -3 else 65792) - c
        self.count[0][p] = w & 255
        self.occupied[0][p] = w >> 8 & 255
        self.saturated[0][p] = w > 65535
        p = 25 - p
        self.count[1][p] = b & 255
        self.occupied[1][p] = b >> 8 & 255
        self.saturated[1][p] = b > 65535

    def _bar(self, codes):
        occ = self.occupied
        for side in (0, 1):
            self.count[side][25] = 0
            self.saturated[side][25] = 0
            occ[side][25] = 0
        for s in range(BAR_FIRST, SLOTS):
            c = codes[s]
            side = 0 if c > 0 else 1
            if c:
                self.count[side][25] += c if c > 0 else -c
                occ[side][25] += 1
                if c >= 3 or c <= -3:
                    self.saturated[side][25] = 1

    def visible(self, side, point, n):
        """How many of n checkers of side on point the sensors see: all but those the
        filling convention puts on a blind slot."""
        u = self.unseen[side][point]
        if not u or not n:
            return n
        nslots = POINT_SLOTS if point < 25 else 4
        each = n // nslots
        extra = n % nslots
        for k in range(nslots):
            if u >> k & 1:
                n -= each + (1 if k < extra else 0)
        return n

    def set_position(self, mover_side, position):
        """Sense exactly `position` (for tests and the simulator's perfect eyes)."""
        for side, counts in ((mover_side, position.mover), (1 - mover_side, position.opponent)):
            for p in range(1, 26):
                self.count[side][p] = counts[p]
                self.saturated[side][p] = 0


class Reading:
    """The tracker's conclusion: `state` and the points that go with it (mover's numbering):
    `origin` and `targets` for a lift; `wrong` for an illegal or pending placement (the point
    to show; the words for it are the turn's, why_not(origin, wrong), for whoever asks: the
    LEDs do not); `missing` and `extra` as (side, point) pairs for a disturbance. `stray`:
    the point where one of the mover's checkers stands that the turn has on `stray_from`,
    the board otherwise as expected (a wrong point: ILLEGAL; behind its own: RESTORE; on a
    blot whose checker is not on the bar yet: HIT_WAIT; -1 none): lifted from there, it
    reads as lifted from stray_from."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.state = STEADY
        self.origin = -1
        self.targets = ()
        self.wrong = -1
        self.stray = -1
        self.stray_from = -1
        self.missing = ()  # not new lists: this runs at every change the sensors see
        self.extra = ()

    def lift(self, src, targets):
        """One of the mover's checkers lifted from src, its destinations `targets`: lit
        (LIFTED), or ILLEGAL when it has none."""
        self.origin = src
        self.targets = targets
        if targets:
            self.state = LIFTED
            return
        self.state = ILLEGAL
        self.wrong = src


def deviation(sensed, side, p, want, hidden=None):
    """Point p's sensed count less `want` (the checkers expected there that its sensors
    see), as the board reads it. A saturated point may hold more than it shows, so it only
    deviates by showing more than expected, or (given `hidden`, how many more than it showed
    it held when the board last agreed) by showing fewer than the expected count less
    those: checkers left it unexpected."""
    have = sensed.count[side][p]
    if have <= want and sensed.saturated[side][p]:
        if hidden is None or have >= want - hidden[side][p]:
            return 0
        return have - want + hidden[side][p]
    return have - want


def deviations(sensed, side, expected, hidden=None):
    """[(point, deviation())] where the sensed board and `expected` disagree."""
    out = []
    count = sensed.count[side]
    if not sensed.blind and count[1:] == expected[1:]:
        return out  # the usual case, at a Pico's C speed (the loop takes 0.35 ms)
    unseen = sensed.unseen[side]
    for p in range(1, 26):
        want = expected[p]
        if unseen[p]:
            want = sensed.visible(side, p, want)
        if count[p] != want:
            d = deviation(sensed, side, p, want, hidden)
            if d:
                out.append((p, d))
    return out


def differences(r, side, mine, theirs):
    """Fill r.missing and r.extra (a Reading's) with (side, point) pairs from deviations():
    `mine` those of `side`, `theirs` the other side's."""
    missing = []
    extra = []
    for who, devs in ((side, mine), (1 - side, theirs)):
        for p, d in devs:
            if d < 0:
                missing.append((who, p))
            elif d > 0:
                extra.append((who, p))
    r.missing = missing
    r.extra = extra


def _spread(devs, sign):
    # [(p, -2)] -> [p, p]: one entry per checker missing (sign -1) or extra (sign 1).
    out = []
    for p, d in devs:
        if d * sign > 0:
            out += [p] * (d * sign)
    return out


def _hit_points(way):
    return [s.dst for s in way if s.hit]


def _hits_on_way(way):
    return [s.dst for s in way[:-1] if s.hit]


class Tracker:
    """Follows one Turn: feed it the sensed board after every stable change. The turn's
    moves change only when the board shows a whole, legal step (or its takeback)."""

    def __init__(self, turn, mover_side):
        self.turn = turn
        self.mover = mover_side
        self.reading = Reading()
        self.hold = None  # type: tuple | None  # (src, dst) of a move undone by command
        # Per side and point, checkers a saturated or blind point held beyond what it showed
        # when the board last agreed (None before it first agreed in this turn).
        self.hidden = None  # type: tuple | None
        # While a checker that may be borne off is lifted: per point, how a lift from it
        # will read (prepare_off()), and the turn to try the bear-off on.
        self._off = None  # type: dict | None
        self._off_turn = None
        self._off_next = 0

    def update(self, sensed):
        """Interpret the sensed board, committing any move or takeback it completes."""
        r = self.reading
        r.clear()
        self._off = None
        self._interpret(sensed, r)
        if r.state == STEADY:
            self.hold = None  # the board agrees again: the taken-back checker is home
            if self.hidden is None:
                self.hidden = (bytearray(26), bytearray(26))
            position = self.turn.position
            for side in (0, 1):
                hidden = self.hidden[side]
                count = sensed.count[side]
                sat = sensed.saturated[side]
                want = position.mover if side == self.mover else position.opponent
                for p in range(26):
                    h = sensed.visible(side, p, want[p]) - count[p]
                    hidden[p] = h if sat[p] and h > 0 else 0
        return r

    def finish(self, sensed):
        """The turn is being handed over (the opponent rolls): a checker still off its point
        whose only explanation is bearing off is borne off, and so is a checker a blind slot
        held (not seen to go) when the play needs it. True if the board then shows a
        complete play."""
        r = self.update(sensed)
        turn = self.turn
        for _ in range(4):
            if r.state == STEADY and turn.can_end():
                break
            n = len(turn.moves)
            unseen = [p for p in r.targets if sensed.unseen[self.mover][p]]
            if r.state == LIFTED and (0 in r.targets or len(unseen) == 1):
                turn.move(r.origin, 0 if 0 in r.targets else unseen[0])
            else:
                src = self._blind_off(sensed)
                if src < 0:
                    break
                turn.move(src, 0)
            r = self.update(sensed)
            if r.state != STEADY and r.state != LIFTED:
                while len(turn.moves) > n:  # that did not explain the board
                    turn.undo()
                r = self.update(sensed)
                break
        return r.state == STEADY and turn.can_end()

    def prepare_off(self, sensed):
        """Between scans, while one of the mover's checkers that may be borne off is lifted
        (nothing tells the tray from the hand): work out how a lift of another checker will
        read (update() then takes the first lifted as borne off), one point a call; a board
        lights it at once (off_lift()). False when there is nothing more to work out."""
        r = self.reading
        if r.state != LIFTED or 0 not in r.targets:
            return False
        known = self._off
        if known is None:  # only a board that shows the turn's position less that checker
            self._off = {}  # (looked at once a reading)
            self._off_next = 0
            position = self.turn.position
            if sensed.blind or deviations(sensed, 1 - self.mover, position.opponent,
                                          self.hidden) or \
                    deviations(sensed, self.mover, position.mover, self.hidden) != \
                    [(r.origin, -1)]:
                return False
            self._off_turn = self.turn.copy()
            self._off_next = 25
            return True
        turn = self._off_turn
        if turn is None or self._off_next <= 0:  # all worked out (each tick asks)
            return False
        me = self.turn.position.mover
        origin = r.origin
        while self._off_next > 0:
            p = self._off_next
            self._off_next -= 1
            if me[p] > (1 if p == origin else 0):
                known[p] = _read_off(turn, origin, p)
                return True
        return False

    def off_lift(self, point):
        """How a lift from point will read (state, origin, targets), as prepare_off() worked
        it out; None if it did not."""
        known = self._off
        return known.get(point) if known is not None else None

    def _blind_off(self, sensed):
        # The one point whose checker a blind slot holds (the point shows the same without
        # it) and may be borne off now; -1 if none or several.
        side = self.mover
        turn = self.turn
        want = turn.position.mover
        found = -1
        for p in range(1, 26):
            if sensed.unseen[side][p] and want[p] and sensed.visible(side, p, want[p]) == \
                    sensed.visible(side, p, want[p] - 1) and 0 in turn.destinations(p):
                if found >= 0:
                    return -1
                found = p
        return found

    # --- interpretation --------------------------------------------------------------------

    def _interpret(self, sensed, r):
        position = self.turn.position
        mine = deviations(sensed, self.mover, position.mover, self.hidden)
        theirs = deviations(sensed, 1 - self.mover, position.opponent, self.hidden)
        lost = _spread(mine, -1)
        gained = _spread(mine, 1)
        if len(lost) == 1 and len(gained) == 1 and not theirs:
            r.stray_from = lost[0]
            r.stray = gained[0]
        else:  # (a placement read legal reads the board again: none then)
            r.stray = r.stray_from = -1
        if not lost and not gained:
            if not theirs:
                r.state = STEADY
                return
            if self._try_late_hit(sensed, r):
                return
        elif len(lost) == 1 and not gained and not theirs:
            self.read_lift(lost[0], r)
            return
        elif len(lost) == 1 and not gained and self.turn.paths(lost[0], 0):
            # Borne off on a chain that hit on its way (8/5*/off): the tray shows nothing,
            # the bar shows the hit.
            if self._try_placement(lost[0], 0, theirs, sensed, r):
                return
        elif len(lost) == 1 and len(gained) == 1:
            if self._try_placement(lost[0], gained[0], theirs, sensed, r):
                return
        elif not lost and len(gained) == 1:
            # Back from the tray (a bear-off taken back), or placed from a stack too tall
            # for the sensors to see one checker leave.
            if self._try_takeback(0, gained[0], theirs, sensed, r):
                return
            if self._try_hidden_lift(sensed, gained[0], theirs, r):
                return
        elif len(lost) > 1 and len(gained) <= 1:
            if self._try_bear_off(lost, sensed, r):
                return
        if lost and self._try_unseen(lost, theirs, sensed, r):
            return
        self._restore(mine, theirs, r)

    def read_lift(self, src, r):
        """Read r as one of the mover's checkers lifted from src, the board otherwise as the
        turn expects: its destinations lit (LIFTED), or ILLEGAL when it has none."""
        r.lift(src, self.turn.destinations(src))

    def _try_placement(self, src, dst, theirs, sensed, r):
        turn = self.turn
        if src < dst:  # moved backwards: only a takeback can explain it
            return self._try_takeback(src, dst, theirs, sensed, r)
        if self.hold == (src, dst):
            return False  # taken back by command: show it must move back
        ways = turn.paths(src, dst)
        if not ways:
            # Not a move: perhaps a checker back from the tray (a knock read as a bear-off)
            # while another is still lifted.
            if self._try_takeback(0, dst, theirs, sensed, r):
                return True
            r.state = ILLEGAL
            r.origin = src
            r.wrong = dst
            return True
        for way in ways:
            if _shows_hits(theirs, _hit_points(way), False, sensed.unseen[1 - self.mover]):
                turn.move(src, dst, _hits_on_way(way))
                self._interpret(sensed, r)
                return True
        for way in ways:
            if _hit_points(way):  # legal, once the hit checker is on the bar
                r.state = HIT_WAIT
                r.origin = src
                r.wrong = _hit_points(way)[0]  # its checker is to go to the bar
                return True
        return False

    def _try_hidden_lift(self, sensed, dst, theirs, r):
        # A saturated point, or one whose blind slot holds its last checker, may have lost a
        # checker unseen; take it if exactly one such point could have legally sent a
        # checker to dst.
        turn = self.turn
        side = self.mover
        count = sensed.count[side]
        sat = sensed.saturated[side]
        expected = turn.position.mover
        sources = [p for p in range(25, dst, -1)
                   if (sat[p] and count[p] < expected[p] or expected[p] and sensed.unseen[side][p]
                       and sensed.visible(side, p, expected[p])
                       == sensed.visible(side, p, expected[p] - 1))
                   and turn.paths(p, dst)]
        if len(sources) != 1:
            return False
        return self._try_placement(sources[0], dst, theirs, sensed, r)

    def _try_late_hit(self, sensed, r):
        # The last move passed a blot and that blot has now gone to the bar: it was a hit.
        turn = self.turn
        if not turn.moves:
            return False
        last = turn.undo()
        position = turn.position
        mine = deviations(sensed, self.mover, position.mover, self.hidden)
        theirs = deviations(sensed, 1 - self.mover, position.opponent, self.hidden)
        for way in turn.paths(last[0].src, last[-1].dst):
            if (len(mine) == 2 and _hit_points(way) != _hit_points(last)
                    and _shows_hits(theirs, _hit_points(way), False,
                                    sensed.unseen[1 - self.mover])):
                turn.move(last[0].src, last[-1].dst, _hits_on_way(way))
                self._interpret(sensed, r)
                return True
        turn.move(last[0].src, last[-1].dst, _hits_on_way(last))
        return False

    def _try_takeback(self, back_from, back_to, theirs, sensed, r):
        # A checker went from back_from to back_to: undo an earlier move back_to->back_from,
        # keeping the moves made after it if they still stand on their own.
        turn = self.turn
        for k in range(len(turn.moves) - 1, -1, -1):
            move = turn.moves[k]
            if move[0].src != back_to or move[-1].dst != back_from:
                continue
            if not _shows_hits(theirs, _hit_points(move), True, sensed.unseen[1 - self.mover]):
                continue
            later = []
            while len(turn.moves) > k:
                later.append(turn.undo())
            later.pop()  # the move taken back
            redone = 0
            for m in reversed(later):
                if not _redo(turn, m):
                    break
                redone += 1
            if redone < len(later):
                # The later moves needed this one: put everything back as it was.
                for _ in range(redone):
                    turn.undo()
                for m in [move] + list(reversed(later)):
                    turn.move(m[0].src, m[-1].dst, _hits_on_way(m))
                continue
            self._interpret(sensed, r)
            return True
        return False

    def _try_bear_off(self, lost, sensed, r):
        # Several checkers gone: those that may be borne off were put in the tray.
        turn = self.turn
        blind = self._blind_off(sensed)  # a blind slot's checker may have gone too
        for src in lost + ([blind] if blind >= 0 else []):
            if 0 in turn.destinations(src):
                turn.move(src, 0)
                self._interpret(sensed, r)
                if r.state != RESTORE:
                    return True
                turn.undo()
                r.clear()
        return False

    def _try_unseen(self, lost, theirs, sensed, r):
        # A checker gone from sight may have been put on a point with a blind slot: if that
        # explains the board (a legal move there, any hit on the bar, the rest reading
        # right), it was.
        turn = self.turn
        unseen = sensed.unseen[self.mover]
        for src in lost:
            for dst in turn.destinations(src):
                if not dst or not unseen[dst]:
                    continue
                n = len(turn.moves)
                if self._try_placement(src, dst, theirs, sensed, r) and r.state != RESTORE:
                    return True
                while len(turn.moves) > n:
                    turn.undo()
                r.clear()
        return False

    def _restore(self, mine, theirs, r):
        r.state = RESTORE
        differences(r, self.mover, mine, theirs)


def _read_off(turn, origin, p):
    # As Tracker._try_bear_off() reads two gone from origin and p (turn: a copy of the
    # tracker's): the first, by point, whose checker may be borne off now is off, the other
    # lifted (read_lift()).
    lo, hi = (p, origin) if p < origin else (origin, p)
    first, other = (lo, hi) if 0 in turn.destinations(lo) else (hi, lo)
    try:
        turn.move(first, 0)
    except ValueError:  # one that must say what it hit on its way: update() reads it
        return None
    targets = turn.destinations(other)
    turn.undo()
    return (LIFTED, other, targets) if targets else (ILLEGAL, other, ())


def _redo(turn, move):
    # Make an earlier move (its Steps) again, if it still plays with the same hits: True if
    # it did. (Asked first, not tried: a refused move's words cost a Pico time and RAM.)
    src = move[0].src
    dst = move[-1].dst
    hits = _hits_on_way(move)
    for way in turn.paths(src, dst):
        if _hits_on_way(way) == hits:
            turn.play(way)  # the way found: not looked for again
            return True
    return False


def _shows_hits(theirs, hit_points, undone=False, unseen=None):
    """Do the opponent's deviations show exactly these blots hit: gone from their points and
    on the bar (or, `undone`, back from the bar on their points)? unseen: the opponent's
    blind slots per point (Sensed.unseen): a blot on a blind first slot is not seen to go."""
    sign = 1 if undone else -1
    want = {}
    for p in hit_points:
        if unseen is None or not unseen[25 - p] & 1:
            want[25 - p] = want.get(25 - p, 0) + sign  # the opponent's own numbering
    if hit_points:
        want[25] = -sign * len(hit_points)
    if len(want) != len(theirs):
        return False
    for p, d in theirs:
        if want.get(p) != d:
            return False
    return True
