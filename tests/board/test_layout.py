# Slot numbering, the filling convention and the default neighbour table.
from board.layout import (
    BAR_FIRST, BLACK_SIGN, SLOTS, WHITE_SIGN, bar_slot, code, expected_slots,
    heights_from_counts, point_slot, where,
)
from board.neighbours import ALONG, neighbour_table
from sensing_rig import raises


def test_slot_numbers():
    assert point_slot(1, 0) == 0 and point_slot(24, 4) == 119
    assert bar_slot(WHITE_SIGN, 0) == BAR_FIRST == 120 and bar_slot(BLACK_SIGN, 3) == 127
    seen = set()
    for p in range(1, 25):
        for k in range(5):
            s = point_slot(p, k)
            assert where(s) == (p, k)
            seen.add(s)
    for colour in (WHITE_SIGN, BLACK_SIGN):
        for k in range(4):
            assert where(bar_slot(colour, k)) == (25, k)
            seen.add(bar_slot(colour, k))
    assert seen == set(range(SLOTS))


def test_points_fill_one_per_slot_then_stack_from_slot_0():
    assert expected_slots(0, WHITE_SIGN) == [0, 0, 0, 0, 0]
    assert expected_slots(3, WHITE_SIGN) == [1, 1, 1, 0, 0]
    assert expected_slots(5, BLACK_SIGN) == [-1, -1, -1, -1, -1]
    assert expected_slots(6, WHITE_SIGN) == [2, 1, 1, 1, 1]
    assert expected_slots(7, BLACK_SIGN) == [-2, -2, -1, -1, -1]
    assert expected_slots(11, WHITE_SIGN) == [3, 2, 2, 2, 2]
    assert expected_slots(15, WHITE_SIGN) == [3, 3, 3, 3, 3]
    assert expected_slots(5, WHITE_SIGN, 4) == [2, 1, 1, 1]  # the bar: 4 slots per colour
    for n in range(16):
        assert sum(expected_slots(n, WHITE_SIGN)) == n
    assert [code(h) for h in (-7, -3, -1, 0, 2, 3, 4, 15)] == [-3, -3, -1, 0, 2, 3, 3, 3]


def test_heights_from_bgcore_counts():
    start = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    white = list(start)
    white[25] = 1
    white[6] = 4
    h = heights_from_counts(white, start)
    assert [h[point_slot(24, k)] for k in range(5)] == [1, 1, 0, 0, 0]  # white's 24
    assert [h[point_slot(1, k)] for k in range(5)] == [-1, -1, 0, 0, 0]  # black's 24
    assert [h[point_slot(19, k)] for k in range(5)] == [-1] * 5  # black's 6
    assert [h[point_slot(6, k)] for k in range(5)] == [1, 1, 1, 1, 0]
    assert h[bar_slot(WHITE_SIGN, 0)] == 1 and h[bar_slot(BLACK_SIGN, 0)] == 0
    assert sum(x for x in h if x > 0) == 15 and sum(x for x in h if x < 0) == -15
    both = list(start)
    both[1] = 1  # white on 1, where black's 24 stands
    raises(ValueError, heights_from_counts, both, start)


def _others(row):
    return [row[j] for j in range(0, len(row), 2)]


def test_default_neighbours_are_the_nearest_four_and_symmetric():
    kernels, table = neighbour_table()
    assert len(table) == SLOTS and kernels[0] == ALONG
    pairs = set()
    for s in range(SLOTS):
        row = table[s]
        for j in range(0, len(row), 2):
            pairs.add((s, row[j]))
    for s, o in pairs:
        assert (o, s) in pairs
    mid = point_slot(9, 2)
    assert sorted(_others(table[mid])) == sorted(
        [point_slot(9, 1), point_slot(9, 3), point_slot(8, 2), point_slot(10, 2)])
    # Worst case in hardware.md: four neighbours of three checkers shift a reading ~51.
    assert 50 <= -4 * ALONG[2] <= 52
    # Across the bar: point 7 and point 6 meet black's bar slots, not each other.
    six = _others(table[point_slot(6, 1)])
    assert bar_slot(BLACK_SIGN, 1) in six and point_slot(7, 1) not in six
    assert point_slot(18, 0) in _others(table[bar_slot(WHITE_SIGN, 0)])
    assert len(table[point_slot(1, 4)]) == 2 * 2  # a tip at the board's side


def test_the_neighbour_table_is_let_go_once_a_field_or_sensor_model_stands():
    """The default neighbour table is loaded only while a Field or a simulated sensor model
    is built (board.neighbours, with the Field's builder board.field): not resident, and
    each still builds on it when it is loaded again."""
    import sys

    from board.sensing import Field
    from sim.sensor_model import SensorModel, SimClock

    f = Field()
    assert "board.neighbours" not in sys.modules and "board.field" not in sys.modules
    model = SensorModel(SimClock(), seed=3)
    assert "board.neighbours" not in sys.modules and "board.field" not in sys.modules
    table = neighbour_table()[1]
    assert f.npairs == sum(len(table[s]) // 2 for s in range(SLOTS))
    assert len(model._nb_other) == f.npairs
