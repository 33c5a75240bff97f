"""Where the 128 sensed slots are, and how checkers on a point fill them.

Slot numbers: point p (1..24, white's numbering: white moves 24 -> 1, black's point q is
physical point 25 - q) has slots (p - 1) * 5 + k, k = 0 at the board's edge (the wide end of
the triangle) to k = 4 at its tip. The bar: white's 4 slots 120..123 (top half, next to
white's entry quarter, points 19..24), black's 124..127 (bottom half), k = 0 at the edge.
hardware/pinmap.json ("sensors") and hardware/field_table.json number slots the same way.
Which slots neighbour which is board.neighbours', each slot's sensor channel board.wiring's:
loaded only while a Field or a Pico's scanner is built, they are not resident.

Colour: white checkers are magnet north-up: a positive field (reading above the zero
level), sign +1. Black: south-up, negative, sign -1. A slot's code is the signed stack
height clipped to 3: 0 empty, +1/+2/+3 white 1, 2, "3 or more", -1/-2/-3 black.

Filling convention (expected_slots): up to 5 checkers take one slot each from slot 0; more
stack in layers, again from slot 0: 6 -> 2,1,1,1,1; 7 -> 2,2,1,1,1; 11 -> 3,2,2,2,2. The
bar fills its 4 slots the same way. People do not always stack like this: compare a point
by its codes' sum against its count (a 3 means "3 or more"), not slot by slot."""

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
