# Positions: gnubg Position IDs, validation, pips, diagram.
from bgcore import Position, PositionError
from random_games import random_positions
from support import board, raises

START_ID = "4HPwATDgc/ABMA"


def test_initial_position_id_is_gnubgs():
    assert Position.initial().to_id() == START_ID
    assert Position.from_id(START_ID) == Position.initial()


def test_initial_layout_and_pips():
    p = Position.initial()
    for side in (p.mover, p.opponent):
        assert (side[24], side[13], side[8], side[6]) == (2, 5, 3, 5)
        assert side[0] == 0 and side[25] == 0
    assert p.pips() == (167, 167)


def test_ids_round_trip_over_game_positions():
    for position, _ in random_positions(7, 200):
        pid = position.to_id()
        assert len(pid) == 14
        assert Position.from_id(pid) == position, pid


def test_id_orders_side_not_on_roll_first():
    # Opponent: one checker on its 1-point; mover: one on its 2-point. The ID's bits start
    # with the opponent's (1-bit then 0 for point 1, a 0 for each of 2..25).
    p = board({2: 1}, {1: 1})
    bits = _bits(p.to_id())
    assert bits[:26] == "10" + "0" * 24
    assert bits[26:52] == "0" + "10" + "0" * 23
    assert p.swapped().to_id() != p.to_id()
    assert p.swapped().swapped() == p


def _bits(pid):
    import binascii
    raw = binascii.a2b_base64(pid + "==")
    return "".join(str((raw[k >> 3] >> (k & 7)) & 1) for k in range(80))


def test_borne_off_is_what_is_not_on_the_board():
    p = board({6: 3, 25: 1}, {1: 15})
    assert p.mover[0] == 11
    assert p.opponent[0] == 0
    assert p.pips() == (6 * 3 + 25, 15)


def test_bad_ids_say_what_is_wrong():
    e = raises(PositionError, Position.from_id, "abc")
    assert "14 characters" in str(e)
    raises(PositionError, Position.from_id, "!!!!!!!!!!!!!!")
    raises(PositionError, Position.from_id, None)
    # All 80 bits set: far more than 15 checkers.
    e = raises(PositionError, Position.from_id, "//////////////")
    assert "15" in str(e)
    # All bits clear: the bit string never finishes both sides... it does (50 zeros): an
    # empty board is a valid ID; padding with a stray 1 after both sides is not.
    assert Position.from_id("AAAAAAAAAAAAAA").pips() == (0, 0)
    e = raises(PositionError, Position.from_id, "AAAAAAAAAAAAgA")
    assert "after both sides" in str(e)


def test_errors_are_value_errors():
    assert issubclass(PositionError, ValueError)


def test_validation_rejects_impossible_positions():
    e = raises(PositionError, board, {6: 16})
    assert "6" in str(e)
    e = raises(PositionError, board, {6: 10, 8: 6})
    assert "16" in str(e) and "15" in str(e)
    # Mover's 5-point is the opponent's 20-point: both sides on one point.
    e = raises(PositionError, board, {5: 2}, {20: 1})
    assert "point 5" in str(e) and "both" in str(e)
    raises(PositionError, board, {3: -1})
    raises(PositionError, Position, [0] * 25, [0] * 26)


def test_hashable_value_with_round_trip_repr():
    p = Position.initial()
    assert repr(p) == "Position.from_id('%s')" % START_ID
    assert len({p, Position.from_id(START_ID)}) == 1
    assert p != p.swapped() or p == p.swapped()  # symmetric start: equal either way


def test_diagram_shows_the_checkers_and_the_id():
    text = str(board({6: 7, 25: 1}, {1: 2}))
    assert "Position ID: " in text
    assert " 7" in text  # stacks taller than five show their count
    assert "X 1" in text  # the mover's checker on the bar
    assert "pips 67" in text
