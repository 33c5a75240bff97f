# Where the 128 sensed slots are, and how checkers on a point fill them.
#
# Slot numbers: point p (1..24, white's numbering: white moves 24 -> 1, black's point q is
# physical point 25 - q) has slots (p - 1) * 5 + k, k = 0 at the board's edge (the wide end of
# the triangle) to k = 4 at its tip. The bar: white's 4 slots 120..123 (top half, next to
# white's entry quarter, points 19..24), black's 124..127 (bottom half), k = 0 at the edge.
# hardware/pinmap.json ("sensors") and hardware/field_table.json number slots the same way.
#
# Board geometry (for neighbour coupling; hardware/geometry.json): two halves, 13 columns
# each: bottom 12..7, bar, 6..1 from left to right; top 13..18, bar, 19..24. Slot k of every
# column in a half lies on the same row; slots are 32 mm apart along a point and across
# points; the bar is 40 mm wide.
#
# Colour: white checkers are magnet north-up: a positive field (reading above the zero
# level), sign +1. Black: south-up, negative, sign -1. A slot's code is the signed stack
# height clipped to 3: 0 empty, +1/+2/+3 white 1, 2, "3 or more", -1/-2/-3 black.
#
# Filling convention (expected_slots): up to 5 checkers take one slot each from slot 0; more
# stack in layers, again from slot 0: 6 -> 2,1,1,1,1; 7 -> 2,2,1,1,1; 11 -> 3,2,2,2,2. The
# bar fills its 4 slots the same way. People do not always stack like this: compare a point
# by its codes' sum against its count (a 3 means "3 or more"), not slot by slot.

from array import array

POINTS = 24
POINT_SLOTS = 5
BAR_SLOTS = 4  # per colour
SLOTS = 128
BAR_FIRST = 120  # white's bar slots 120..123, black's 124..127
WHITE_SIGN = 1  # a colour's sign in slot codes (the sides' numbers, 0 and 1, are bgwire's)
BLACK_SIGN = -1
MAX_CODE = 3


def point_slot(point, k):
    """Slot of position k (0 edge .. 4 tip) on physical point 1..24 (white's numbering)."""
    return (point - 1) * POINT_SLOTS + k


def bar_slot(colour, k):
    """Slot of position k (0..3) of colour's (WHITE_SIGN or BLACK_SIGN) part of the bar."""
    return BAR_FIRST + k if colour > 0 else BAR_FIRST + BAR_SLOTS + k


def where(slot):
    """(point, k) of a slot: point 1..24 in white's numbering, or 25 for a bar slot."""
    if slot >= BAR_FIRST:
        return 25, (slot - BAR_FIRST) % BAR_SLOTS
    return slot // POINT_SLOTS + 1, slot % POINT_SLOTS


def expected_slots(count, colour, nslots=POINT_SLOTS):
    """Signed stack heights, one per slot, for count checkers of colour (+1/-1) on a point
    (nslots 5) or a bar part (nslots 4), following the filling convention above."""
    base = count // nslots
    extra = count % nslots
    out = [0] * nslots
    for k in range(nslots):
        out[k] = colour * (base + (1 if k < extra else 0))
    return out


def code(height):
    """The sensing code of a signed stack height: clipped to -3..3."""
    if height > MAX_CODE:
        return MAX_CODE
    if height < -MAX_CODE:
        return -MAX_CODE
    return height


def heights_from_counts(white, black, out=None):
    """Signed stack heights of all 128 slots from bgcore-style counts: white[p] and black[p]
    are each side's checkers on its own point p (1..24) and bar (25). out: a preallocated
    array('b', 128) or bytearray-like to fill (a new list otherwise)."""
    if out is None:
        out = [0] * SLOTS
    for p in range(1, POINTS + 1):
        w = white[p]
        b = black[POINTS + 1 - p]
        if w and b:
            raise ValueError("point %d holds both colours" % p)
        col = expected_slots(w, WHITE_SIGN) if w else expected_slots(b, BLACK_SIGN)
        first = (p - 1) * POINT_SLOTS
        for k in range(POINT_SLOTS):
            out[first + k] = col[k]
    for colour, n in ((WHITE_SIGN, white[25]), (BLACK_SIGN, black[25])):
        col = expected_slots(n, colour, BAR_SLOTS)
        first = bar_slot(colour, 0)
        for k in range(BAR_SLOTS):
            out[first + k] = col[k]
    return out


def _column(point):
    # (half, column) of a point: half 0 bottom (points 1..12), 1 top; column 0..12, 6 = bar.
    if point <= 6:
        return 0, 13 - point
    if point <= 12:
        return 0, 12 - point
    if point <= 18:
        return 1, point - 13
    return 1, point - 12


def _slot_at(half, col, row):
    # The slot at a (half, column, row) of the grid, or -1.
    if col < 0 or col > 12 or row < 0:
        return -1
    if col == 6:
        return bar_slot(WHITE_SIGN if half else BLACK_SIGN, row) if row < BAR_SLOTS else -1
    if row >= POINT_SLOTS:
        return -1
    if half:
        point = col + 13 if col < 6 else col + 12
    else:
        point = 12 - col if col < 6 else 13 - col
    return point_slot(point, row)


# Neighbour kernels: counts a neighbouring stack of 1, 2 and "3 or more" white checkers adds
# to a slot's reading (black: the negatives). A magnet 8.65 mm above its own sensor is seen
# 32 mm to the side with the opposite sign (a dipole's field lines return around it) and
# about 1.2 % of its strength: four such neighbours holding three checkers each shift a
# reading by about 51 counts, hardware.md's worst case. The bar is 40 mm wide: a bar slot
# and the point slot beside it are 36 mm apart. hardware/field_table.json has the full
# magpylib table (diagonals, across the tips): plug it in with Field.from_table.
ALONG = (-10.0, -12.0, -12.7)  # 32 mm: the next slot on a point, or on the next point
ACROSS_BAR = (-7.0, -8.4, -8.9)  # 36 mm


def neighbour_table(along=ALONG, across_bar=ACROSS_BAR):
    """The default neighbour table as (kernels, table): kernels[k] the counts a neighbour
    holding 1, 2, 3+ white checkers adds; table[slot] = bytes [other, k, other, k, ...] for
    the slot's nearest neighbours (along its point, the same row of the next points, the bar
    and the points beside it): hardware/field_table.json's "neighbours" format. The table
    makes each row when it is asked for: all 128 at once would be 128 pieces of heap."""
    return [along, across_bar], _Rows()


class _Rows:
    def __len__(self):
        return SLOTS

    def __getitem__(self, slot):
        if not 0 <= slot < SLOTS:
            raise IndexError(slot)
        point, row = where(slot)
        if point == 25:
            half = 1 if slot < BAR_FIRST + BAR_SLOTS else 0
            col = 6
        else:
            half, col = _column(point)
        entry = bytearray()
        for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            other = _slot_at(half, col + dc, row + dr)
            if other >= 0:
                entry.append(other)
                entry.append(1 if dc and (col == 6 or col + dc == 6) else 0)
        return entry


def slot_table(sensors, channels=16):
    """Each slot's (bank, channel), from hardware/pinmap.json's "sensors" section: "points"
    (24 lists of 5 scan indices, slot 0 first) and "bar" ({"white": 4, "black": 4}), a
    scan index being bank * channels + channel."""
    points = sensors["points"]
    bar = sensors["bar"]
    if len(points) != POINTS or len(bar["white"]) != BAR_SLOTS or len(bar["black"]) != BAR_SLOTS:
        raise ValueError("pin map: 24 points and 4 bar slots per colour")
    index = [0] * SLOTS
    for p in range(POINTS):
        if len(points[p]) != POINT_SLOTS:
            raise ValueError("pin map: point %d needs %d slots" % (p + 1, POINT_SLOTS))
        for k in range(POINT_SLOTS):
            index[p * POINT_SLOTS + k] = points[p][k]
    for k in range(BAR_SLOTS):
        index[bar_slot(WHITE_SIGN, k)] = bar["white"][k]
        index[bar_slot(BLACK_SIGN, k)] = bar["black"][k]
    if len(set(index)) != SLOTS:
        raise ValueError("pin map: two slots share a sensor channel")
    return [(i // channels, i % channels) for i in index]


def filled(code, n, value=0):
    """array(code) of n values in one allocation: MicroPython sizes an array from its
    initializer's length, so a range needs no temporary buffer the array's size (the heap
    is small and fragments). Byte codes start from bytes (a range would overflow them)."""
    byte = code in "bB"
    a = array(code, bytes(n) if byte else range(n))
    if value or not byte:
        for i in range(n):
            a[i] = value
    return a
