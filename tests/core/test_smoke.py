from bgcore import Position, legal_plays


def test_opening_counts():
    p = Position.initial()
    assert len(legal_plays(p, (3, 1))) == 16
