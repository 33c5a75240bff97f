"""The sensors a board no longer trusts, in words for the player: the board's `blind` live
line says them, and a host (bgboard monitor) says the `state` reply's `untrusted` slots the
same way. Loaded only when they change (every string costs the board RAM)."""

BAR_FIRST = 120  # slots 0..119 the points' (5 each, 0 at the board's edge), then the bar's
BAR_SLOTS = 4  # per colour: white's 120..123, black's 124..127


def place(slot):
    """(side, point) a slot lights (its LEDs): white's numbering (side 0) on the points, each
    colour's own bar (25)."""
    if slot >= BAR_FIRST:
        return (0 if slot < BAR_FIRST + BAR_SLOTS else 1), 25
    return 0, slot // 5 + 1


def slot_words(slot):
    """One slot: its point in white's numbering and its place from the board's edge."""
    if slot >= BAR_FIRST:
        k = slot - BAR_FIRST
        return "%s's bar, slot %d" % ("white" if k < BAR_SLOTS else "black", k % BAR_SLOTS + 1)
    return "point %d, slot %d" % (slot // 5 + 1, slot % 5 + 1)


def untrusted_words(slots):
    """The whole list, as the player reads it (the points lit red say where)."""
    if not slots:
        return "every sensor is trusted"
    return "sensors not trusted (their checkers are read by the rules): %s; points in " \
           "white's numbering, slots from the board's edge" % "; ".join(
               [slot_words(s) for s in slots])
