"""A position as a text board, for people (the host's monitor and rules commands, str() of a
Position). Kept apart from bgcore.position: the board never draws one, and code costs RAM."""

from bgcore.position import BAR, OFF


def _cell(n, row, mark):
    # Column cell for a stack of n checkers: marks up to the 5th row, the count on the 5th
    # row when the stack is taller.
    if n > row:
        if row == 4 and n > 5:
            return "%2d" % n
        return " " + mark
    return "  "


def diagram(position):
    """A text board from the mover's side: mover X moves from 24 down to 1, opponent O."""
    m = position.mover
    o = position.opponent

    def stack(p):
        if m[p]:
            return m[p], "X"
        if o[25 - p]:
            return o[25 - p], "O"
        return 0, " "

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = []

    def numbers(points):
        cells = ["%2d" % p for p in points]
        return " +" + " ".join(cells[:6]) + " | BAR | " + " ".join(cells[6:]) + " +"

    def row(points, r):
        cells = []
        for p in points:
            n, mark = stack(p)
            cells.append(_cell(n, r, mark))
        return " |" + " ".join(cells[:6]) + " |     | " + " ".join(cells[6:]) + " |"

    lines.append(numbers(top))
    for r in range(5):
        lines.append(row(top, r))
    lines.append(" |" + " " * 17 + " | O %d | " % o[BAR] + " " * 17 + " |")
    lines.append(" |" + " " * 17 + " | X %d | " % m[BAR] + " " * 17 + " |")
    for r in range(4, -1, -1):
        lines.append(row(bottom, r))
    lines.append(numbers(bottom))
    mp, op = position.pips()
    lines.append(" X (on roll): pips %d, off %d    O: pips %d, off %d" % (mp, m[OFF], op, o[OFF]))
    lines.append(" Position ID: %s" % position.to_id())
    return "\n".join(lines)
