"""The doubling cube: its value, who owns it, a double on offer. Only the cube's own rules live
here; when a double may be offered (whose turn, before the roll, Crawford, Holland) is the
game's business, beavers and raccoons bgcore.beavers' (money play's options, loaded when
used)."""

from bgcore.rules import MAX_CUBE

# Ways a game can be won, and what each multiplies the cube by.
SINGLE = 1
GAMMON = 2
BACKGAMMON = 3


class Cube:
    """value: 1, 2, 4...; owner: None while centred, else the player (0 or 1) who may redouble;
    offered_by: the player whose double awaits an answer, or None; beaver_by: the player who
    beavered the last double while the doubler may still raccoon, else None; taken_by: the
    player who has just taken a double and may still beaver it, else None."""

    def __init__(self, value=1, owner=None):
        self.value = value
        self.owner = owner
        self.offered_by = None
        self.beaver_by = None
        self.taken_by = None

    def why_not_double(self, player, rules):
        """Why `player` may not double as far as the cube goes, or None."""
        if self.offered_by is not None:
            return "a double is already offered: it must be taken or dropped first"
        if self.owner is not None and self.owner != player:
            return ("player %d owns the cube: only the cube's owner may redouble"
                    % self.owner)
        if not rules.cap_allows(self.value * 2):
            return cap_reason(rules, "a double")
        return None

    def offer(self, player):
        self.offered_by = player
        self.beaver_by = self.taken_by = None

    def why_not_answer(self, player):
        """Why `player` may not take or drop now, or None (player None: whoever must answer)."""
        if self.offered_by is None:
            return "no double has been offered: there is nothing to take or drop"
        if player is not None and player == self.offered_by:
            return "player %d offered the double: the opponent takes or drops it" % player
        return None

    def take(self):
        """The double is accepted: the cube doubles and the taker owns it."""
        doubler = self.offered_by
        self.value *= 2
        self.owner = self.taken_by = 1 - doubler  # type: ignore[operator]
        self.offered_by = None

    def drop(self):
        """The double is refused: returns the points the doubler wins (the value before it)."""
        self.offered_by = None
        return self.value

    def to_list(self):
        out = [self.value, _num(self.owner), _num(self.offered_by), _num(self.beaver_by)]
        if self.taken_by is not None:  # only just after a take: snapshots stay short
            out.append(self.taken_by)
        return out

    @classmethod
    def from_list(cls, data):
        cube = cls(data[0], _player(data[1]))
        cube.offered_by = _player(data[2])
        cube.beaver_by = _player(data[3])
        cube.taken_by = _player(data[4]) if len(data) > 4 else None
        return cube

    def __repr__(self):
        return "Cube(%r, owner=%r)" % (self.value, self.owner)


def cap_reason(rules, what):
    if rules.cube_cap is None or rules.cube_cap > MAX_CUBE:
        return "%s would take the cube past %d, the largest GNU Backgammon imports" % (
            what, MAX_CUBE)
    return "cube cap: %s would take the cube past the agreed %d" % (what, rules.cube_cap)


def _num(player):
    return -1 if player is None else player


def _player(n):
    return None if n < 0 else n


def scored(level, cube_value, jacoby):
    """Points a win of `level` is worth: level times the cube. jacoby: the Jacoby rule holds
    for this game now (money play with the rule, and the cube still centred: "if neither
    player has offered a double"; an automatic double offers none), so gammons and
    backgammons count single."""
    if jacoby:
        level = SINGLE
    return level * cube_value
