""".mat text from journaled events: the layout formats.md gives, the placement rules for
cube actions and `Wins`, and, for many random matches, a re-read of the file whose every play
is legal for its dice when replayed through bgcore and whose scores are the events'."""

import random

import matparse
from eventgen import journal_of, play_match

from bgboard.events import build_matches, check_event, EventError
from bgboard.matfile import mat_text, layout, render_row

import pytest


def J(*events):
    """Events with seqs 1, 2, ..."""
    return [dict(e, seq=i) for i, e in enumerate(events, 1)]


def M(events, names=("White", "Black")):
    (match,) = build_matches(events)
    return mat_text(match, names)


START = [
    {"ev": "match", "length": 5, "rules": {"crawford": True}},
    {"ev": "game", "number": 1, "score": [0, 0], "crawford": False},
]


def body(text):
    """The lines after the names line of the first game."""
    lines = text.split("\n")
    k = lines.index(" Game 1")
    return lines[k + 2:]


def test_header_names_and_first_rows_match_formats_md():
    text = M(J(*START,
               {"ev": "opening", "dice": [3, 1]},
               {"ev": "play", "player": 0, "dice": [3, 1], "moves": [[8, 5, False], [6, 5, False]]},
               {"ev": "roll", "player": 1, "dice": [5, 2]},
               {"ev": "play", "player": 1, "dice": [5, 2],
                "moves": [[13, 11, False], [13, 8, False]]}),
             ("Alice", "Bob"))
    lines = text.split("\n")
    assert " 5 point match" in lines
    assert lines[lines.index(" 5 point match") - 1] == ""
    k = lines.index(" Game 1")
    assert lines[k + 1] == " Alice : 0                      Bob : 0"
    assert lines[k + 1] == " %-31s%s" % ("Alice : 0", "Bob : 0")
    assert lines[k + 2] == "  1) 31: 8/5 6/5                 52: 13/11 13/8"
    assert lines[k + 2].index("52:") == 33  # gnubg: "%3d) %-27s " (formats.md: column 34)
    assert text.startswith("; [")  # comment header lines first
    assert text.endswith("\n")


def test_right_player_opening_leaves_the_left_column_empty():
    rows = body(M(J(*START,
                    {"ev": "opening", "dice": [4, 4]},
                    {"ev": "opening", "dice": [2, 5]},
                    {"ev": "play", "player": 1, "dice": [5, 2],
                     "moves": [[13, 8, False], [13, 11, False]]},
                    {"ev": "roll", "player": 0, "dice": [6, 6]},
                    {"ev": "play", "player": 0, "dice": [6, 6],
                     "moves": [[24, 18, False], [24, 18, False], [13, 7, False],
                               [13, 7, False]]})))
    assert rows[0] == "  1)                             52: 13/8 13/11"
    assert rows[1] == "  2) 66: 24/18 24/18 13/7 13/7"


def test_bar_off_hits_and_no_play_rolls():
    g = {"ev": "game", "number": 1, "score": [0, 0], "crawford": False}
    text = M(J(START[0], g,
               {"ev": "opening", "dice": [6, 1]},
               {"ev": "play", "player": 0, "dice": [6, 1],
                "moves": [[13, 7, False], [8, 7, False]]},
               {"ev": "roll", "player": 1, "dice": [6, 4]},
               {"ev": "play", "player": 1, "dice": [6, 4],
                "moves": [[24, 18, False], [18, 14, False]]},
               {"ev": "roll", "player": 0, "dice": [4, 2]},
               {"ev": "play", "player": 0, "dice": [4, 2],
                "moves": [[13, 9, False], [13, 11, True]]},
               {"ev": "roll", "player": 1, "dice": [6, 6]},
               {"ev": "play", "player": 1, "dice": [6, 6], "moves": []},
               {"ev": "roll", "player": 0, "dice": [2, 1]},
               {"ev": "play", "player": 0, "dice": [2, 1],
                "moves": [[6, 4, False], [4, 3, False]]},
               {"ev": "roll", "player": 1, "dice": [5, 3]},
               {"ev": "play", "player": 1, "dice": [5, 3],
                "moves": [[25, 20, False], [20, 17, False]]}))
    rows = body(text)
    assert rows[0] == "  1) 61: 13/7 8/7                64: 24/18 18/14"
    assert rows[1] == "  2) 42: 13/9 13/11*             66:"
    assert rows[2] == "  3) 21: 6/4 4/3                 53: 25/20 20/17"


def _game(*events, length=5, score=(0, 0)):
    return J({"ev": "match", "length": length, "rules": {}},
             {"ev": "game", "number": 1, "score": list(score), "crawford": False},
             {"ev": "opening", "dice": [3, 1]},
             {"ev": "play", "player": 0, "dice": [3, 1],
              "moves": [[8, 5, False], [6, 5, False]]},
             *events)


def test_left_drop_of_a_right_double_puts_wins_on_the_drops_line():
    rows = body(M(_game({"ev": "double", "player": 1, "cube": 2},
                        {"ev": "drop", "player": 0},
                        {"ev": "result", "winner": 1, "points": 1, "level": 1,
                         "how": "dropped", "score": [0, 1]})))
    assert rows[0] == "  1) 31: 8/5 6/5                  Doubles => 2"
    assert rows[1] == "  2)  Drops                       Wins 1 point"
    assert rows[1].index("Wins") == 34


def test_right_drop_of_a_left_double_puts_wins_on_its_own_line_under_the_left():
    rows = body(M(_game({"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]},
                        {"ev": "double", "player": 0, "cube": 2},
                        {"ev": "drop", "player": 1},
                        {"ev": "result", "winner": 0, "points": 1, "level": 1,
                         "how": "dropped", "score": [1, 0]})))
    assert rows[1] == "  2)  Doubles => 2                Drops"
    assert rows[2] == "      Wins 1 point"


def test_take_then_bear_off_win_and_redouble_values():
    rows = body(M(_game({"ev": "double", "player": 1, "cube": 2},
                        {"ev": "take", "player": 0},
                        {"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]},
                        {"ev": "double", "player": 0, "cube": 4},
                        {"ev": "take", "player": 1})))
    assert rows[0].endswith(" Doubles => 2")
    assert rows[1] == "  2)  Takes                      52: 13/11 13/8"
    assert rows[2] == "  3)  Doubles => 4                Takes"


def test_beaver_is_gnubgs_beavers_line_taken_by_the_next_roll():
    rows = body(M(_game({"ev": "double", "player": 1, "cube": 2},
                        {"ev": "beaver", "player": 0, "cube": 4},
                        {"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]}, length=0)))
    assert rows[0].endswith(" Doubles => 2")
    assert rows[1] == "  2)  Beavers => 4               52: 13/11 13/8"


def test_a_beaver_after_the_take_is_written_as_the_same_beaver():
    """"After accepting a double, he may immediately turn the cube to 4": the board journals
    the take, then the beaver; .mat and SGF show gnubg's beaver, as if pressed at once."""
    from bgboard.sgf import sgf_text

    tail = ({"ev": "raccoon", "player": 1, "cube": 8},
            {"ev": "roll", "player": 1, "dice": [5, 2]},
            {"ev": "play", "player": 1, "dice": [5, 2],
             "moves": [[13, 11, False], [13, 8, False]]})
    at_once = _game({"ev": "double", "player": 1, "cube": 2},
                    {"ev": "beaver", "player": 0, "cube": 4}, *tail, length=0)
    after = _game({"ev": "double", "player": 1, "cube": 2}, {"ev": "take", "player": 0},
                  {"ev": "beaver", "player": 0, "cube": 4}, *tail, length=0)
    assert body(M(after))[1] == "  2)  Beavers => 4                Raccoons => 8"
    assert M(after) == M(at_once)
    (a,), (b,) = build_matches(after), build_matches(at_once)
    assert sgf_text(a) == sgf_text(b)


def test_raccoon_is_taken_explicitly():
    rows = body(M(_game({"ev": "double", "player": 1, "cube": 2},
                        {"ev": "beaver", "player": 0, "cube": 4},
                        {"ev": "raccoon", "player": 1, "cube": 8},
                        {"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]}, length=0)))
    assert rows[1] == "  2)  Beavers => 4                Raccoons => 8"
    assert rows[2] == "  3)  Takes                      52: 13/11 13/8"


def test_beaver_then_resignation_is_a_redouble_and_an_explicit_take():
    rows = body(M(_game({"ev": "double", "player": 1, "cube": 2},
                        {"ev": "beaver", "player": 0, "cube": 4},
                        {"ev": "resign", "player": 1, "level": 1},
                        {"ev": "accept", "player": 0},
                        {"ev": "result", "winner": 0, "points": 4, "level": 1,
                         "how": "resigned", "score": [4, 0]}, length=0)))
    assert rows[1] == "  2)  Doubles => 4                Takes"
    assert rows[2] == "      Wins 4 points"


def test_resignation_after_rolling_shows_the_dice_and_wins_beside_them():
    rows = body(M(_game({"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]},
                        {"ev": "roll", "player": 0, "dice": [6, 4]},
                        {"ev": "resign", "player": 0, "level": 2},
                        {"ev": "reject", "player": 1},
                        {"ev": "resign", "player": 0, "level": 1},
                        {"ev": "accept", "player": 1},
                        {"ev": "result", "winner": 1, "points": 1, "level": 1,
                         "how": "resigned", "score": [0, 1]})))
    assert rows[1] == "  2) 64:                          Wins 1 point"


def test_rejected_resignation_leaves_no_trace_and_the_roll_is_played():
    rows = body(M(_game({"ev": "roll", "player": 1, "dice": [5, 2]},
                        {"ev": "resign", "player": 1, "level": 1},
                        {"ev": "reject", "player": 0},
                        {"ev": "play", "player": 1, "dice": [5, 2],
                         "moves": [[13, 11, False], [13, 8, False]]})))
    assert rows[0] == "  1) 31: 8/5 6/5                 52: 13/11 13/8"
    assert not "".join(rows[1:]).strip()


def test_a_long_left_play_is_still_separated_from_the_right_one():
    row = render_row([7, "66: 25/19* 19/13* 13/7* 7/1*", "21: 25/23 23/22"])
    assert row == "  7) 66: 25/19* 19/13* 13/7* 7/1* 21: 25/23 23/22"


def test_names_without_colons_and_money_header():
    events = J({"ev": "match", "length": 0, "rules": {"jacoby": True, "beavers": True}},
               {"ev": "game", "number": 1, "score": [0, 0], "crawford": False})
    text = M(events, ("Mr: X", ""))
    assert " 0 point match" in text
    assert " Mr X : 0                       Black : 0" in text
    assert '; [Jacoby "On"]' in text and '; [Beaver "On"]' in text


def test_limits_of_the_format_are_said_in_the_header():
    (m,) = build_matches(J({"ev": "match", "length": 7, "rules": {"crawford": False}}))
    assert '; [Crawford "Off"]' in mat_text(m)
    (m,) = build_matches(J({"ev": "match", "length": 0, "rules": {"automatic_doubles": 2}}))
    assert '; [AutoDoubles "2"]' in mat_text(m)


def test_event_shapes_are_checked():
    check_event({"ev": "play", "seq": 3, "player": 1, "dice": [5, 2],
                 "moves": [[25, 20, False], [13, 11, True]]})
    check_event({"ev": "someday", "seq": 9})  # unknown kinds pass: kept, not used
    for bad in ({"ev": "play", "seq": 3, "player": 2, "dice": [5, 2], "moves": []},
                {"ev": "play", "seq": 3, "player": 0, "dice": [7, 2], "moves": []},
                {"ev": "play", "seq": 3, "player": 0, "dice": [5, 2], "moves": [[3, 5, False]]},
                {"ev": "roll", "seq": 0, "player": 0, "dice": [5, 2]},
                {"ev": "double", "seq": 4, "player": 0, "cube": 3},
                {"ev": "result", "seq": 4, "winner": 0, "points": 1, "level": 1, "how": "x",
                 "score": [1, 0]},
                ["ev"]):
        with pytest.raises(EventError):
            check_event(bad)


def test_problems_are_reported_and_skipped():
    problems = []
    events = J(*START, {"ev": "roll", "player": 5, "dice": [1, 2]},
               {"ev": "firmware_news"})
    events.append(dict(events[1]))  # a repeated seq
    matches = build_matches(events, problems)
    assert len(matches) == 1 and len(matches[0].games) == 1
    assert len(problems) == 3


def test_journal_beginning_inside_a_match():
    problems = []
    events = [{"ev": "roll", "seq": 40, "player": 0, "dice": [1, 2]},
              {"ev": "game", "seq": 41, "number": 3, "score": [2, 1], "crawford": False},
              {"ev": "opening", "seq": 42, "dice": [3, 1]}]
    (m,) = build_matches(events, problems)
    assert m.length is None and len(m.games) == 1 and m.games[0].number == 3
    assert any("inside a match" in p for p in problems)
    assert any("40..40" in p for p in problems)


# --- random matches: re-read and replayed --------------------------------------------------


def test_random_matches_reread_legal_and_scored_as_the_events_say(corpus):
    """Every .mat of the corpus (conftest.py), read back by an independent reader: each
    play legal for its dice through bgcore (legal_plays), the game headers' scores and the
    `Wins` lines adding up to the journal's results."""
    plays = games = 0
    for case in corpus:
        events, match = case.events, case.match
        (m,) = build_matches(events)
        text = mat_text(m)
        length, mgames = matparse.parse(text)
        assert length == match.length
        assert len(mgames) == len(m.games)
        score = None
        for g, mg in zip(m.games, mgames):
            assert mg.score == g.score, case.name
            if score is not None:
                assert mg.score == score, case.name
            won, n = matparse.replay(mg)
            plays += n
            games += 1
            assert g.result is not None
            assert won == (g.result["winner"], g.result["points"]), case.name
            score = list(mg.score)
            score[won[0]] += won[1]
            assert score == g.result["score"], case.name
        assert score == match.score, case.name
    assert games > 150 and plays > 4000
    print("re-read %d files: %d games, %d plays legal for their dice"
          % (len(corpus), games, plays))


def test_one_journal_of_several_matches_gives_one_file_each():
    runs = [play_match(random.Random(s), length)[0] for s, length in ((1, 3), (2, 0), (3, 1))]
    events = journal_of(*runs)
    matches = build_matches(events)
    assert [m.length for m in matches] == [3, 0, 1]
    assert [m.first_seq for m in matches] == [1, len(runs[0]) + 1,
                                              len(runs[0]) + len(runs[1]) + 1]


def test_layout_rows_alternate_with_numbers():
    (m,) = build_matches(play_match(random.Random(4), 3)[0])
    for g in m.games:
        numbers = [r[0] for r in layout(g.entries) if r[0] is not None]
        assert numbers == list(range(1, len(numbers) + 1))


def test_gnubgs_crawford_inference_agrees_with_the_journal(corpus):
    """gnubg's .mat importer marks the Crawford game itself: the first game in which exactly
    one side stands at N-1. That must be the game the board journaled as Crawford (in
    matches played with the rule; .mat cannot say a match is played without it)."""
    crawford_games = 0
    for case in corpus:
        (m,) = build_matches(case.events)
        if not m.length or not m.rule("crawford", True):
            continue
        post = False
        for g in m.games:
            n0, n1 = g.score
            inferred = not post and ((n0 == m.length - 1) != (n1 == m.length - 1))
            post = post or inferred
            assert inferred == g.crawford, (case.name, g.number, g.score)
            crawford_games += g.crawford
    assert crawford_games > 10


def test_positions_followed_through_every_game(corpus):
    """The events' moves can all be made, and a game won by bearing off ends with the
    winner's fifteen checkers off."""
    for case in corpus:
        (m,) = build_matches(case.events)
        for g in m.games:
            assert g.problems == [], (case.name, g.number, g.problems)
            if g.result["how"] == "played":
                assert g.sides[g.result["winner"]][0] == 15
