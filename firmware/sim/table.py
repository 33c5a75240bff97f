"""The physical truth of a simulated board: where every checker really is, including the ones
in a hand and in the trays, pushed into the sensor model as slot heights."""

from board.layout import BAR_SLOTS, POINT_SLOTS, bar_slot, expected_slots, point_slot
from bgwire import BLACK, WHITE
from bgwire import physical as _physical


class Table:
    """Checkers per side in its own numbering (0 tray, 1..24 points, 25 bar), plus the
    checkers in the hands. Every change updates `sensors` (a sim.sensor_model.SensorModel or
    anything with set_slot/set_heights)."""

    def __init__(self, sensors):
        self.sensors = sensors
        self.count = (bytearray(26), bytearray(26))
        self.in_hand = [0, 0]
        self.sliding = None  # (side, own point) a checker is being slid across, or None

    def set_position(self, white, black):
        """Put the checkers exactly so (sequences of 26 in each side's numbering); the rest
        of each side's 15 go to its tray. Hands leave the board."""
        self.sliding = None
        for side, counts in ((WHITE, white), (BLACK, black)):
            total = 0
            for p in range(1, 26):
                self.count[side][p] = counts[p]
                total += counts[p]
            self.count[side][0] = 15 - total
            self.in_hand[side] = 0
        self._push_all()

    def clear(self):
        """Every checker in its tray (an empty board)."""
        self.sliding = None
        for side in (WHITE, BLACK):
            for p in range(26):
                self.count[side][p] = 0
            self.count[side][0] = 15
            self.in_hand[side] = 0
        self._push_all()

    def lift(self, side, point):
        if not self.count[side][point]:
            raise ValueError("no checker of side %d on %d to lift" % (side, point))
        self.count[side][point] -= 1
        self.in_hand[side] += 1
        self._push(side, point)

    def put(self, side, point):
        if not self.in_hand[side]:
            raise ValueError("side %d has no checker in hand" % side)
        self.in_hand[side] -= 1
        self.count[side][point] += 1
        self._push(side, point)

    def slide_over(self, side, point):
        """A checker in hand dragged across `point` (briefly sensed there)."""
        before = self.sliding
        self.sliding = (side, point)
        if before is not None:
            self._push(before[0], before[1])  # it has left the point before
        self._push(side, point)

    def slide_done(self):
        if self.sliding:
            side, point = self.sliding
            self.sliding = None
            self._push(side, point)

    # --- into the sensors ------------------------------------------------------------------

    def _push_all(self):
        for p in range(1, 26):
            self._push(WHITE, p)
            self._push(BLACK, p)

    def _push(self, side, point):
        if point == 0:
            return  # trays are not sensed
        if point == 25:
            colour = 1 if side == WHITE else -1
            heights = expected_slots(self.count[side][25], colour, BAR_SLOTS)
            for k in range(BAR_SLOTS):
                self.sensors.set_slot(bar_slot(colour, k), heights[k])
            return
        physical = _physical(side, point)
        w = self.count[WHITE][physical]
        b = self.count[BLACK][25 - physical]
        # Two colours meet only while a hit is in progress: the blot keeps slot 0.
        if w and b:
            first, second = (1, -1) if w == 1 else (-1, 1)
            n_second = b if first > 0 else w
            heights = [first] + expected_slots(n_second, second, POINT_SLOTS - 1)
        elif w:
            heights = expected_slots(w, 1)
        else:
            heights = expected_slots(b, -1)
        if self.sliding is not None:
            s_side, s_point = self.sliding
            s_phys = _physical(s_side, s_point)
            if s_phys == physical:
                heights[2] += 1 if s_side == WHITE else -1
        for k in range(POINT_SLOTS):
            self.sensors.set_slot(point_slot(physical, k), heights[k])
