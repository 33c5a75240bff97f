"""Checker-move generation on two mutable 26-byte boards, in place, without allocating.

`me` holds the mover's counts by the mover's points (0 off, 25 bar), `opp` the opponent's by
the opponent's points, so the opponent's checkers on my point t are opp[25 - t].
Searches are depth-first: every step is applied in place and taken back, and a search stops
at its first success. That keeps a lift's answer far below a millisecond and RAM flat, where
enumerating all plays of a hard roll would cost thousands of positions."""


def landing(me, opp, src, die):
    """Where a checker from `src` lands with `die` (0 = borne off), or -1 if it may not."""
    if me[src] == 0:
        return -1
    if me[25] and src != 25:
        return -1
    dst = src - die
    if dst > 0:
        if opp[25 - dst] > 1:
            return -1
        return dst
    p = 25  # bearing off: every checker must be home
    while p > 6:
        if me[p]:
            return -1
        p -= 1
    if dst == 0:
        return 0
    p = 6  # a higher die only from the highest occupied point
    while p > src:
        if me[p]:
            return -1
        p -= 1
    return 0


def apply(me, opp, src, dst):
    """Move one checker; returns 1 if it hit a blot (sent to the opponent's bar), else 0."""
    me[src] -= 1
    me[dst] += 1
    if dst and opp[25 - dst] == 1:
        opp[25 - dst] = 0
        opp[25] += 1
        return 1
    return 0


def retract(me, opp, src, dst, hit):
    """Undo apply(me, opp, src, dst) that returned `hit`."""
    me[dst] -= 1
    me[src] += 1
    if hit:
        opp[25 - dst] = 1
        opp[25] -= 1


def steps_same(me, opp, die, k, top):
    """How many of k steps of `die` can be played (at most k), sources at or below `top`.

    Steps of one die value commute, so trying sources in descending order finds every play.
    """
    if k == 0:
        return 0
    best = 0
    src = top
    while src > 0:
        if me[src]:
            dst = landing(me, opp, src, die)
            if dst >= 0:
                hit = apply(me, opp, src, dst)
                n = 1 + steps_same(me, opp, die, k - 1, src)
                retract(me, opp, src, dst, hit)
                if n == k:
                    return n
                if n > best:
                    best = n
        src -= 1
    return best


def one_then_other(me, opp, first, second):
    """True if a step of `first` and then a step of `second` can both be played."""
    src = 25
    while src > 0:
        if me[src]:
            dst = landing(me, opp, src, first)
            if dst >= 0:
                hit = apply(me, opp, src, dst)
                ok = steps_same(me, opp, second, 1, 25) == 1
                retract(me, opp, src, dst, hit)
                if ok:
                    return True
        src -= 1
    return False


def can_play_all(me, opp, dice):
    """True if every die in `dice` (a list of 0..4 values, doubles all equal) can be played."""
    n = len(dice)
    if n == 0:
        return True
    if n == 1 or dice[0] == dice[1]:
        return steps_same(me, opp, dice[0], n, 25) == n
    return one_then_other(me, opp, dice[0], dice[1]) or one_then_other(me, opp, dice[1], dice[0])


def dice_to_play(me, opp, high, low):
    """The dice a full play must use, as a list: all four of a double if possible (else as
    many as can be played), both dice, or the one die that can be played (the higher one
    when either can be played alone but not both). Empty when nothing can be played."""
    if high == low:
        return [high] * steps_same(me, opp, high, 4, 25)
    if one_then_other(me, opp, high, low) or one_then_other(me, opp, low, high):
        return [high, low]
    if steps_same(me, opp, high, 1, 25):
        return [high]
    if steps_same(me, opp, low, 1, 25):
        return [low]
    return []
