"""The default neighbour table: which slots' sensors see which neighbours' checkers, from
the board's geometry (hardware/geometry.json): two halves, 13 columns each: bottom 12..7,
bar, 6..1 from left to right; top 13..18, bar, 19..24. Slot k of every column in a half
lies on the same row; slots are 32 mm apart along a point and across points; the bar is
40 mm wide. Loaded only where a Field (board.field) or a simulated sensor model is built,
then let go: it is not resident (board.forget)."""

from board.layout import BAR_FIRST, BAR_SLOTS, BLACK_SIGN, POINT_SLOTS, SLOTS, WHITE_SIGN, \
    bar_slot, point_slot, where


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
