"""Decoding a gnubg Position ID (bgcore.position.Position.from_id): loaded when first asked (a
journal's snapshot at power-up, the host); the board encodes (Position.to_id) as it plays."""

import binascii

from bgcore.errors import PositionError
from bgcore.position import CHECKERS


def decode(pid):
    """(mover, opponent): each side's 26 counts from a Position ID (14 base64 characters),
    the side on roll the mover."""
    if not isinstance(pid, str) or len(pid) != 14:
        raise PositionError("a Position ID has 14 characters: %r" % (pid,))
    try:
        raw = binascii.a2b_base64(pid + "==")
    except Exception:
        raise PositionError("not a Position ID (bad base64): %r" % pid)
    if len(raw) != 10:
        raise PositionError("not a Position ID: %r" % pid)
    sides = (bytearray(26), bytearray(26))  # not on roll first, as gnubg writes it
    which = 0
    point = 1
    for k in range(80):
        if which == 2:
            if (raw[k >> 3] >> (k & 7)) & 1:
                raise PositionError("Position ID %r has bits after both sides" % pid)
            continue
        if (raw[k >> 3] >> (k & 7)) & 1:
            sides[which][point] += 1
            if sides[which][point] > CHECKERS:
                raise PositionError("Position ID %r: more than 15 checkers" % pid)
        else:
            point += 1
            if point == 26:
                which += 1
                point = 1
    if which != 2:
        raise PositionError("Position ID %r is incomplete" % pid)
    return sides[1], sides[0]
