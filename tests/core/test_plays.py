# Legal plays, by the rule texts in shared/seeds/ and their worked examples.
from bgcore import DiceError, Position, Turn, legal_plays, plays_with_steps
from support import board, on_micropython, raises


def ids(plays):
    return sorted(p.to_id() for p in plays)


def movers(plays):
    return [dict((i, p.mover[i]) for i in range(1, 26) if p.mover[i]) for p in plays]


def test_opening_roll_counts():
    start = Position.initial()
    assert len(legal_plays(start, (3, 1))) == 16
    assert len(legal_plays(start, (1, 3))) == 16
    assert len(legal_plays(start, (6, 6))) == 11
    assert len(legal_plays(start, (2, 2))) == 75


def test_hard_double_has_2140_distinct_plays():
    if on_micropython():
        return  # lists thousands of positions: a host-side job, beyond a device heap
    assert len(legal_plays(Position.from_id("/yMigBBUSimlFA"), (1, 1))) == 2140


def test_plays_are_distinct_positions():
    plays = legal_plays(Position.initial(), (2, 2))
    assert len(set(ids(plays))) == len(plays)


def test_opening_3_1_makes_the_5_point():
    plays = dict((p.to_id(), s) for p, s in plays_with_steps(Position.initial(), (3, 1)))
    made = board({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert made.to_id() in plays
    assert sorted((s.src, s.dst) for s in plays[made.to_id()]) == [(6, 5), (8, 5)]


def test_blocked_3_4_cannot_move_even_though_7_away_is_open():
    # Parker Brothers: light cannot play 3-4 when the points 3 and 4 away are held,
    # though the point 7 away is open: the dice are two numbers, not a total.
    p = board({10: 1}, {18: 2, 19: 2})  # opponent holds my 7 and 6
    assert legal_plays(p, (4, 3)) == []
    turn = Turn(p, (4, 3))
    assert turn.required == ()
    assert turn.destinations(10) == ()


def test_entering_only_on_open_points_of_the_home_board():
    # Parker: light may enter on points 1, 3 and 5 (opponent's numbering), not 2, 4, 6.
    p = board({25: 1, 13: 14}, {2: 2, 4: 2, 6: 2, 13: 9})
    assert legal_plays(p, (4, 2)) == []  # no entry: nothing else may move
    turn = Turn(p, (5, 2))
    # Enters on the opponent's 5-point only (the 2-point is held), and may go on with the 2.
    assert turn.destinations(25) == (20, 18)
    assert turn.destinations(13) == ()  # nothing moves while a checker is on the bar
    for q in legal_plays(p, (5, 2)):
        assert q.mover[25] == 0


def test_partial_entry_forfeits_the_rest():
    # Two on the bar against a board closed but for the 5-point: one enters, the 3 is lost.
    p = board({25: 2, 13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 13: 5})
    plays = legal_plays(p, (5, 3))
    assert movers(plays) == [{25: 1, 20: 1, 13: 13}]
    assert Turn(p, (5, 3)).required == (5,)
    # A double of the open number enters both and plays on.
    for q in legal_plays(p, (5, 5)):
        assert q.mover[25] == 0 and q.pips()[0] == p.pips()[0] - 20


def test_after_entering_the_other_die_must_be_played():
    p = board({25: 1, 13: 14}, {3: 2, 13: 13})  # my 22 is held: enter with the 5 only
    plays = legal_plays(p, (5, 3))
    assert plays
    for q in plays:
        assert q.mover[25] == 0 and q.pips()[0] == p.pips()[0] - 8


def test_higher_die_when_only_one_can_be_played():
    # One checker on 13; the point 2 is held, so 13/7 and 13/8 each block the other die.
    p = board({13: 1}, {23: 2})
    assert movers(legal_plays(p, (6, 5))) == [{7: 1}]
    turn = Turn(p, (6, 5))
    assert turn.required == (6,)
    assert turn.destinations(13) == (7,)


def test_lower_die_when_the_higher_cannot_be_played_at_all():
    p = board({13: 1}, {18: 2, 23: 2})  # my 7 and my 2 held
    assert movers(legal_plays(p, (6, 5))) == [{8: 1}]
    assert Turn(p, (6, 5)).required == (5,)


def test_both_dice_when_one_order_allows_it():
    p = board({13: 1}, {13: 2})  # my 12 is held: the 1 cannot go first
    assert movers(legal_plays(p, (6, 1))) == [{6: 1}]
    turn = Turn(p, (6, 1))
    assert turn.destinations(13) == (7, 6)


def test_doubles_play_as_many_as_possible():
    p = board({13: 1}, {20: 2})  # my 5 held: 13/9 and no further
    assert movers(legal_plays(p, (4, 4))) == [{9: 1}]
    assert Turn(p, (4, 4)).required == (4,)
    p = board({24: 1}, {20: 2})  # 24/20/16/12/8: the held 5-point is not in the way
    assert Turn(p, (4, 4)).required == (4, 4, 4, 4)
    p = board({17: 1}, {20: 2})  # 17/13/9 then 5 is held
    assert movers(legal_plays(p, (4, 4))) == [{9: 1}]


def test_landing_on_a_blot_hits_it():
    p = board({13: 2}, {15: 1, 1: 14})  # opponent blot on my 10
    hits = [q for q in legal_plays(p, (3, 1)) if q.opponent[25] == 1]
    assert hits
    for q in hits:
        assert q.opponent[15] == 0
    assert not [q for q in legal_plays(p, (3, 1)) if q.opponent[15] == 1 and q.mover[10]]


def test_bear_off_exact_and_with_higher_die_from_highest_point():
    # 6-3 with the 6-point cleared: the 6 bears off from the 5-point.
    p = board({5: 3, 4: 2})
    plays = movers(legal_plays(p, (6, 3)))
    assert {5: 2, 4: 1, 1: 1} in plays  # 5/off 4/1
    assert {5: 1, 4: 2, 2: 1} in plays  # 5/off 5/2
    # 6-5 with nothing on the 6: two checkers come off the 5-point.
    assert {2: 3} in movers(legal_plays(board({5: 2, 2: 3}), (6, 5)))


def test_no_bear_off_from_a_lower_point_while_a_higher_is_occupied():
    # Parker: a 4 with none on the 4-point may not take a checker off the 3-point while
    # the 5 or 6 holds one: it must move a checker 4 pips instead.
    p = board({6: 1, 3: 2, 1: 2})
    turn = Turn(p, (4, 4))
    assert 0 not in turn.destinations(3)
    assert turn.destinations(6) == (2,)
    turn.move(6, 2)
    assert turn.destinations(3) == (0,)  # now the 3 is the highest point


def test_no_bear_off_until_all_are_home():
    p = board({7: 1, 1: 14})
    turn = Turn(p, (6, 1))
    assert turn.destinations(1) == ()
    assert 1 in turn.destinations(7)
    turn.move(7, 1)
    assert turn.destinations(1) == (0,)


def test_checker_on_bar_stops_bearing_off():
    p = board({25: 1, 3: 5}, {1: 2})
    for q in legal_plays(p, (6, 6)):
        assert q.mover[0] == p.mover[0]


def test_bad_dice_are_refused():
    e = raises(DiceError, legal_plays, Position.initial(), (7, 1))
    assert "1 to 6" in str(e)
    raises(DiceError, legal_plays, Position.initial(), (3,))
    raises(DiceError, legal_plays, Position.initial(), "31")
    raises(DiceError, Turn, Position.initial(), (0, 2))
    assert issubclass(DiceError, ValueError)
