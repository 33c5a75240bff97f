# The turn as a person plays it: lifts, destinations, chains, hits, takebacks, refusals.
from bgcore import AmbiguousMoveError, IllegalMoveError, Position, Turn, notation
from support import board, raises


def test_opening_3_1_destinations_and_play():
    turn = Turn(Position.initial(), (3, 1))
    assert turn.destinations(8) == (7, 5, 4)  # 1, 3, and the chain of both
    assert turn.destinations(24) == (23, 21, 20)
    assert turn.destinations(5) == ()  # nothing of mine there
    assert turn.destinations(25) == ()  # nobody on the bar
    assert turn.destinations(0) == () and turn.destinations(26) == ()
    assert not turn.can_end()
    turn.move(8, 5)
    assert turn.remaining == (1,)
    assert turn.destinations(6) == (5,)
    turn.move(6, 5)
    assert turn.can_end()
    assert notation(turn.steps) == "8/5 6/5"
    assert turn.position == board({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert turn.destinations(13) == ()  # no dice left


def test_chain_records_each_die_as_a_step():
    turn = Turn(Position.initial(), (6, 5))
    steps = turn.move(24, 13)
    assert [(s.src, s.dst) for s in steps] in ([(24, 18), (18, 13)], [(24, 19), (19, 13)])
    assert turn.can_end()


def test_a_copy_has_the_moves_made_hits_included_and_goes_its_own_way():
    turn = Turn(board({13: 2, 6: 5}, {15: 1, 1: 14}), (3, 1))
    turn.move(13, 9, hits=[10])
    copy = turn.copy()
    assert copy.steps == turn.steps and copy.position == turn.position
    assert copy.remaining == turn.remaining == ()
    copy.undo()
    assert copy.position.opponent[25] == 0 and turn.position.opponent[25] == 1
    assert copy.destinations(13) == (12, 10, 9) and turn.destinations(13) == ()


def test_chain_past_a_blot_may_or_may_not_hit():
    # 3-1 from 13 to 9: through 10 (a blot) or through 12 (empty).
    p = board({13: 2, 6: 5}, {15: 1, 1: 14})
    turn = Turn(p, (3, 1))
    ways = turn.paths(13, 9)
    assert len(ways) == 2
    assert sorted(tuple(s.hit for s in w) for w in ways) == [(False, False), (True, False)]
    turn.move(13, 9)  # nothing seen on the bar: it passed by
    assert turn.position.opponent[25] == 0
    turn.undo()
    turn.move(13, 9, hits=[10])  # the board saw the blot go to the bar
    assert turn.position.opponent[25] == 1 and turn.position.opponent[15] == 0
    assert notation(turn.steps) in ("13/10* 10/9",)


def test_chain_with_blots_on_both_ways_must_say_which():
    p = board({13: 2, 6: 5}, {15: 1, 13: 1, 1: 13})  # blots on my 10 and my 12
    turn = Turn(p, (3, 1))
    e = raises(AmbiguousMoveError, turn.move, 13, 9)
    assert "10" in str(e) and "12" in str(e)
    assert turn.position == p  # refused: nothing changed
    turn.move(13, 9, hits=[12])
    assert turn.position.opponent[13] == 0 and turn.position.opponent[15] == 1
    raises(IllegalMoveError, Turn(p, (3, 1)).move, 13, 9, [10, 12])


def test_doubles_chain_hits_what_it_lands_on():
    p = board({13: 2, 6: 5}, {14: 1, 1: 14})  # blot on my 11, on the way to 9
    turn = Turn(p, (2, 2))
    assert len(turn.paths(13, 9)) == 1
    steps = turn.move(13, 9)
    assert [s.hit for s in steps] == [True, False]


def test_bear_off_prefers_the_single_die():
    turn = Turn(board({2: 1, 1: 1}), (6, 1))
    assert [len(w) for w in turn.paths(2, 0)] == [1, 2]
    turn.move(2, 0)
    assert turn.remaining == (1,)
    turn.move(1, 0)
    assert turn.can_end() and turn.position.mover[0] == 15


def test_undo_takes_back_the_last_checker():
    start = Position.initial()
    turn = Turn(start, (3, 1))
    turn.move(8, 5)
    turn.move(6, 5)
    steps = turn.undo()
    assert [(s.src, s.dst) for s in steps] == [(6, 5)]
    assert turn.remaining == (1,)
    turn.undo()
    assert turn.position == start and turn.remaining == (3, 1)
    e = raises(IllegalMoveError, turn.undo)
    assert "nothing" in str(e)


def test_undo_returns_a_hit_checker_from_the_bar():
    p = board({13: 2, 6: 5}, {15: 1, 1: 14})
    turn = Turn(p, (3, 1))
    turn.move(13, 10)
    assert turn.position.opponent[25] == 1
    turn.undo()
    assert turn.position == p


def test_refusals_explain_the_rule():
    turn = Turn(Position.initial(), (6, 5))
    cases = [
        ((7, 1), "no checker"),
        ((6, 8), "higher points to lower"),
        ((13, 10), "no die"),
        ((6, 0), "all your checkers are home"),
        ((13, 30), "no such move"),
    ]
    for (src, dst), words in cases:
        e = raises(IllegalMoveError, turn.move, src, dst)
        assert words in str(e), (src, dst, str(e))
    e = raises(IllegalMoveError, Turn(Position.initial(), (5, 5)).move, 6, 1)
    assert "held by your opponent" in str(e)
    on_bar = board({25: 1, 13: 14}, {1: 15})
    e = raises(IllegalMoveError, Turn(on_bar, (3, 1)).move, 13, 10)
    assert "bar first" in str(e)
    e = raises(IllegalMoveError, Turn(board({13: 1}, {23: 2}), (6, 5)).move, 13, 8)
    assert "must be the 6" in str(e)
    dead_end = board({13: 1, 24: 1}, {9: 2, 18: 2})  # 24/22 leaves the 6 unplayable
    turn = Turn(dead_end, (6, 2))
    assert turn.destinations(24) == (18,)
    e = raises(IllegalMoveError, turn.move, 24, 22)
    assert "must use 2 dice" in str(e)
    blocked = Turn(board({10: 1}, {18: 2, 19: 2}), (4, 3))
    e = raises(IllegalMoveError, blocked.move, 10, 7)
    assert "no legal play" in str(e)
    assert blocked.can_end()


def test_turn_complete_refuses_more():
    turn = Turn(Position.initial(), (6, 5))
    turn.move(24, 13)
    e = raises(IllegalMoveError, turn.move, 13, 7)
    assert "complete" in str(e)


def test_refused_move_changes_nothing():
    turn = Turn(Position.initial(), (6, 5))
    before = turn.position
    for src, dst in ((6, 0), (13, 10), (1, 0), (24, 24)):
        raises(IllegalMoveError, turn.move, src, dst)
        assert turn.position == before and turn.remaining == (6, 5) and not turn.moves


def test_every_destination_can_be_completed():
    # Whatever the player picks among the destinations, the play can still be finished.
    from random_games import random_positions
    for position, dice in random_positions(11, 60):
        turn = Turn(position, dice)
        _finish_each_way(turn, 3)


def _finish_each_way(turn, depth):
    if turn.can_end() or depth == 0:
        return
    found = False
    for src in range(25, 0, -1):
        for dst in turn.destinations(src):
            found = True
            for way in turn.paths(src, dst):
                turn.move(src, dst, [s.dst for s in way[:-1] if s.hit])
                _finish_each_way(turn, depth - 1)
                turn.undo()
    assert found, "dice left %r but no move offered in %r" % (turn.remaining, turn.position)


def test_a_one_die_move_may_name_its_die():
    # 6-5 with checkers on the 5 and 4: 5/off may use the 6 or the 5.
    turn = Turn(board({5: 1, 4: 1}), (6, 5))
    turn.move(5, 0, die=5)
    assert turn.remaining == (6,)
    turn.undo()
    turn.move(5, 0, die=6)
    assert turn.remaining == (5,)
    raises(IllegalMoveError, Turn(board({5: 1, 4: 1}), (6, 5)).move, 5, 0, None, 3)


def test_destinations_worked_out_ahead_are_those_of_the_turn_as_it_stands():
    # A board works out each point's destinations between scans (prepare()) so that a lift
    # lights at once; after every move and takeback they must still be where a path goes.
    from random_games import random_positions
    for position, dice in random_positions(5, 40):
        turn = Turn(position, dice)
        while turn.prepare():
            pass
        for step in range(3):
            for src in range(25, 0, -1):
                by_paths = tuple(d for d in range(24, -1, -1) if turn.paths(src, d))
                assert turn.destinations(src) == by_paths, (position, dice, src)
            sources = [p for p in range(25, 0, -1) if turn.destinations(p)]
            if not sources:
                break
            _move_first_way(turn, sources[0], turn.destinations(sources[0])[0])
            if step == 0:
                turn.undo()
                _move_first_way(turn, sources[-1], turn.destinations(sources[-1])[-1])
            while turn.prepare():
                pass


def _move_first_way(turn, src, dst):
    way = turn.paths(src, dst)[0]
    turn.move(src, dst, [s.dst for s in way[:-1] if s.hit])
