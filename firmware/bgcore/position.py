"""A backgammon position seen from the side on roll (the mover).

Each side's checkers are 26 counts indexed by that side's own point numbers:
0 borne off, 1..24 the points (1 is the ace point), 25 the bar. The mover's point p is the
opponent's point 25 - p."""

import binascii

from bgcore.errors import PositionError

OFF = 0
BAR = 25
CHECKERS = 15

# Starting layout of one side: 2 on 24, 5 on 13, 3 on 8, 5 on 6.
_START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _side(counts, who):
    if len(counts) != 26:
        raise PositionError("%s: need 26 counts (off, points 1-24, bar), got %d" % (who, len(counts)))
    side = bytearray(26)
    total = 0
    for i in range(1, 26):
        n = counts[i]
        if n < 0 or n > CHECKERS:
            raise PositionError("%s: %d checkers on %s" % (who, n, point_name(i)))
        side[i] = n
        total += n
    if total > CHECKERS:
        raise PositionError("%s has %d checkers on the board and bar, at most 15" % (who, total))
    side[0] = CHECKERS - total
    return bytes(side)


def point_name(p):
    if p == BAR:
        return "the bar"
    if p == OFF:
        return "off"
    return "point %d" % p


class Position:
    """Both sides' checkers, from the mover's point of view; immutable and hashable.

    `mover[p]` and `opponent[p]` are counts on each side's own point p (0 off, 25 bar).
    Borne-off counts are derived: 15 less what is on the board and the bar.
    """

    def __init__(self, mover, opponent):
        self.mover = _side(mover, "mover")
        self.opponent = _side(opponent, "opponent")
        m = self.mover
        o = self.opponent
        for p in range(1, 25):
            if m[p] and o[25 - p]:
                raise PositionError(
                    "point %d holds checkers of both sides (%d and %d)" % (p, m[p], o[25 - p])
                )

    @classmethod
    def initial(cls):
        return cls(_START, _START)

    @classmethod
    def from_id(cls, pid):
        """Decode a gnubg Position ID (14 base64 characters); the side on roll is the mover."""
        from bgcore.positionid import decode  # loaded when first asked (a snapshot, the host)

        return cls(*decode(pid))

    def to_id(self):
        """The gnubg Position ID of this position with the mover on roll."""
        raw = bytearray(10)
        k = 0
        for side in (self.opponent, self.mover):
            for p in range(1, 26):
                for _ in range(side[p]):
                    raw[k >> 3] |= 1 << (k & 7)
                    k += 1
                k += 1
        return binascii.b2a_base64(bytes(raw)).decode().strip()[:14]

    def swapped(self):
        """The same checkers seen from the other side (the position the opponent rolls in)."""
        return Position(self.opponent, self.mover)

    def pips(self):
        """(mover, opponent) pip counts; a checker on the bar counts 25."""
        return (_pips(self.mover), _pips(self.opponent))

    def __eq__(self, other):
        return (
            isinstance(other, Position)
            and self.mover == other.mover
            and self.opponent == other.opponent
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.mover + self.opponent)

    def __repr__(self):
        return "Position.from_id(%r)" % self.to_id()

    def __str__(self):
        """A text board from the mover's side (bgcore.drawing, loaded when asked: the board
        itself never draws one)."""
        from bgcore.drawing import diagram

        return diagram(self)


def _pips(side):
    total = 0
    for p in range(1, 26):
        total += p * side[p]
    return total
