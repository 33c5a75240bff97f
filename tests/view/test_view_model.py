"""The view's model without a browser: what it asks the virtual board to do with a page's
clicks and buttons, how it reads LED lines, and the move list it sends (bgboard.matfile's
.mat notation)."""

import pytest

from bgboard.events import START
from bgboard.view.drawing import leds_from_live, led_places
from bgboard.view.model import BoardModel, arrangement, check_sim


def test_sim_lines_from_pages_are_checked():
    assert check_sim({"sim": "lift", "side": 1, "at": 25}) == {"sim": "lift", "side": 1,
                                                               "at": 25}
    assert check_sim({"sim": "press", "button": "verify", "x": 1}) == {
        "sim": "press", "button": "verify"}
    for bad in ({"sim": "lift", "side": 2, "at": 3}, {"sim": "place", "side": 0, "at": 26},
                {"sim": "place", "side": True, "at": 3}, {"sim": "press", "button": "x"},
                {"sim": "explode"}, {"cmd": "new"}, None):
        with pytest.raises(ValueError):
            check_sim(bad)


def test_a_pages_money_session_carries_its_rule_options_to_the_board():
    """The page's Money session with its Jacoby, beavers and raccoons boxes: the options
    ticked go to the board's `new`; anything else is refused before the board is asked."""
    from bgboard.view.server import _from_page

    class Worker:
        def __init__(self):
            self.sent = []

        def request(self, kind, what, answer):
            self.sent.append((kind, what))

    w = Worker()
    _from_page({"type": "new", "kind": "money"}, None, w, None, None)
    _from_page({"type": "new", "kind": "money", "options": {
        "jacoby": False, "beavers": True, "raccoons": True}}, None, w, None, None)
    assert w.sent == [("command", ("new", {"kind": "money"})),
                      ("command", ("new", {"kind": "money", "options": {
                          "beavers": True, "raccoons": True}}))]
    for bad in ({"holland": True}, {"beavers": 1}, ["beavers"], {"cube_cap": 8}):
        with pytest.raises(ValueError, match="jacoby, beavers, raccoons"):
            _from_page({"type": "new", "kind": "money", "options": bad}, None, w, None, None)
    assert len(w.sent) == 2


def _apply(table, hand, lines):
    table = [list(table[0]), list(table[1])]
    hand = list(hand)
    for line in lines:
        s, at = line["side"], line["at"]
        if line["sim"] == "lift":
            assert table[s][at] > 0
            table[s][at] -= 1
            hand[s] += 1
        else:
            assert hand[s] > 0
            hand[s] -= 1
            table[s][at] += 1
    return table, hand


def test_arranging_moves_checkers_from_the_trays_and_hands_to_the_position():
    empty = [[15] + [0] * 25, [15] + [0] * 25]
    lines = arrangement(empty, [0, 0], [list(START), list(START)])
    assert len(lines) == 60  # a lift and a place for each of the 30 checkers
    assert _apply(empty, [0, 0], lines) == ([list(START), list(START)], [0, 0])
    # mid-game: one checker in hand, one on a wrong point
    table = [list(START), list(START)]
    table[0][13] -= 1  # in hand
    table[1][6] -= 1
    table[1][4] += 1  # misplaced
    lines = arrangement(table, [1, 0], [list(START), list(START)])
    assert lines[0] == {"sim": "place", "side": 0, "at": 13}
    assert _apply(table, [1, 0], lines) == ([list(START), list(START)], [0, 0])


def test_led_lines_in_both_forms_map_to_the_pinmap_places():
    places = led_places()
    leds = leds_from_live({"live": "leds", "lit": {"00400a": [0, 4], "0f0000": [97]}})
    assert leds == {0: (0, 64, 10), 4: (0, 64, 10), 97: (15, 0, 0)}
    assert leds_from_live({"live": "leds", "on": [[0, 0, 64, 10], [97, 15, 0, 0]]}) == {
        0: (0, 64, 10), 97: (15, 0, 0)}
    assert places.where[0] == ("point", 1, 0) and places.where[4] == ("point", 1, 4)
    assert places.where[94] == ("bar", 0, 0) and places.where[97] == ("bar", 0, 3)
    assert places.where[151] == ("tray", 0, 0)
    assert places.where[133][:2] == ("die", 0)
    assert len(places.where) == places.count == 152
    assert leds_from_live({"live": "leds", "lit": {"zz": [1]}, "on": [[1, 2]]}) == {}


def test_the_move_list_and_the_play_being_made_in_mat_notation():
    model = BoardModel("/dev/null")
    for ev in ({"ev": "match", "seq": 1, "length": 3, "rules": {}},
               {"ev": "game", "seq": 2, "number": 1, "score": [0, 0], "crawford": False},
               {"ev": "opening", "seq": 3, "dice": [3, 5]},
               {"ev": "play", "seq": 4, "player": 1, "dice": [5, 3],
                "moves": [[8, 3, False], [6, 3, False]]},
               {"ev": "roll", "seq": 5, "player": 0, "dice": [6, 4]}):
        model.event(ev)
    model.set_state({"ok": True, "phase": "playing",
                     "game": {"player": 0, "dice": [6, 4], "moves": [[24, 18, 0]]}})
    games = model.games()
    assert games == [{"number": 1, "names": ["White", "Black"], "score": [0, 0],
                      "rows": [[1, None, "53: 8/3 6/3"]]}]
    assert model.pending() == "White 64: 24/18 (White's numbering)"
    snap = model.snapshot()
    assert snap["games"] == games and snap["pending"] == "White 64: 24/18 (White's numbering)"
    assert snap["svg"].startswith("<svg")


def test_the_opening_throws_are_noted_in_words_a_tie_and_its_automatic_double_too():
    # nothing on the board changes on a tie: the page's notes are all that says it
    model = BoardModel("/dev/null")
    model.event({"seq": 1, "ev": "match", "length": 0, "kind": "money"})
    model.event({"seq": 2, "ev": "game", "number": 1, "score": [0, 0], "crawford": False})
    model.event({"seq": 3, "ev": "opening", "dice": [2, 2], "cube": 2})
    model.event({"seq": 4, "ev": "opening", "dice": [3, 3]})
    model.event({"seq": 5, "ev": "opening", "dice": [5, 2]})
    assert [n["text"] for n in model.snapshot()["notes"]][-3:] == [
        "opening throw: White 2, Black 2 (a tie: the cube turns to 2; both throw again)",
        "opening throw: White 3, Black 3 (a tie: both throw again)",
        "opening throw: White 5, Black 2"]
