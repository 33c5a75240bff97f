# Matches (Crawford, post-Crawford, Holland) and money sessions; Match IDs as gnubg writes
# them for the same states.
from bgcore import Game, Match, RuleError, Rules
from play_support import is_plain, play_out, refused, roll_and_play, says, start
from support import board, raises


def _win(m, winner, level=1):
    """The loser resigns `level`, the winner accepts; the next game starts unless the match is
    over."""
    g = m.game
    if g.phase == "opening":
        g.roll((6, 1))
    g.resign(level, player=1 - winner)
    g.accept_resignation()
    if not m.is_over():
        m.next_game()


def _double_to(g, value):
    # From the opening, the sides double and take in turn until the cube shows `value`.
    if g.phase == "opening":
        start(g, 0, (6, 1))
        play_out(g)
    while g.cube.value < value:
        g.double()
        g.take()
        roll_and_play(g, (2, 1))


def test_a_7_point_match_can_end_in_one_game():
    m = Match(7)
    _double_to(m.game, 4)
    loser = m.game.on_roll
    m.game.resign(2, player=loser)  # a gammon with the cube on 4: 8 points
    m.game.accept_resignation()
    assert m.score[1 - loser] == 8 and m.winner == 1 - loser and m.is_over()
    e = refused(m, m.next_game)
    says(e, "match is over")


def test_scores_add_up_and_the_match_ends_at_n():
    m = Match(3, Rules(crawford=False))
    _win(m, 0)
    assert m.score == [1, 0] and m.games == 1
    _win(m, 1, 2)
    assert m.score == [1, 2] and not m.is_over()
    _win(m, 1)
    assert m.score == [1, 3] and m.winner == 1


def test_next_game_only_after_the_game_is_over():
    m = Match(5)
    e = refused(m, m.next_game)
    says(e, "game is not over")


def test_crawford_game_then_post_crawford():
    m = Match(5)
    _win(m, 0, 2)
    _win(m, 0, 2)  # 4-0: one point short of the match
    g = m.game
    assert g.crawford and not m.post_crawford
    start(g, 0)
    play_out(g)
    e = refused(m, g.double)
    says(e, "Crawford rule")
    assert m.id_fields()["crawford"] is True
    _win(m, 1)  # the trailer wins the Crawford game: 4-1
    assert m.post_crawford and not m.game.crawford
    start(m.game, 0)
    play_out(m.game)
    assert m.game.can("double")  # post-Crawford: doubling is back
    _win(m, 1, 3)  # 4-4: no second Crawford game
    assert m.score == [4, 4] and not m.game.crawford


def test_crawford_only_when_the_option_is_on():
    m = Match(3, Rules(crawford=False))
    _win(m, 0, 2)
    assert not m.game.crawford
    start(m.game, 0)
    play_out(m.game)
    assert m.game.can("double")  # the trailer, on roll


def test_the_crawford_game_comes_after_first_reaching_n_minus_1_even_by_a_jump():
    m = Match(7)
    _win(m, 1, 3)
    _win(m, 1, 3)  # 0-6
    assert m.game.crawford
    m2 = Match(7, score=(5, 3))
    _win(m2, 0)
    assert m2.game.crawford


def test_holland_rule_the_trailer_doubles_only_after_two_rolls_each():
    m = Match(5, Rules(holland=True), score=(4, 1))  # post-Crawford: 4 is one short of 5
    assert m.post_crawford and m.game.trailer == 1
    g = m.game
    start(g, 1, (6, 1))  # the trailer's first roll
    play_out(g)
    roll_and_play(g, (2, 1))  # the leader's first
    e = refused(m, g.double)
    says(e, "Holland rule", "two rolls")
    roll_and_play(g, (3, 1))  # the trailer's second
    assert g.on_roll == 0 and g.can("double")  # the leader: no Holland rule restrains him
    roll_and_play(g, (4, 1))  # the leader's second
    assert g.on_roll == 1 and g.can("double")
    g.double()


def test_without_holland_the_trailer_may_double_at_once():
    m = Match(5, score=(4, 1))
    g = m.game
    start(g, 0)
    play_out(g)
    assert g.can("double")


def test_a_dead_cube_may_be_turned_by_default():
    """"There is no limit to the number of times a double may be offered in one game." In
    matches only Crawford (and the Holland option) restrain the cube: at 8-4 in 9 the leader,
    whom any win gives the match, may still double, and the trailer redouble, also once a
    win gives either side the match. Such doubles, which change nothing, stop where money
    play's stop, at the one cap on every cube: the largest GNU Backgammon imports
    (bgcore.rules.MAX_CUBE, 128; a match's cube of 256 crashes gnubg 1.07's import)."""
    m = Match(9, score=(8, 4))
    g = m.game
    start(g, 1)
    play_out(g)
    assert g.can("double") and g.on_roll == 0
    g.double()
    g.take()
    assert g.cube.value == 2 and g.cube.owner == 1
    roll_and_play(g, (2, 1))
    g.double()  # the trailer, needing 5: 2 does not give it him
    g.take()
    roll_and_play(g, (3, 1))
    assert g.cube.value == 4 and g.cube.owner == 0 and g.on_roll == 0
    g.double()  # 4 gives the leader the match, not the trailer
    g.take()
    dice = 4
    while g.cube.value < 128:  # 8 gives either side the match: on past 64, to 128
        roll_and_play(g, (dice, 1))
        g.double()
        g.take()
        dice = dice % 6 + 1
    assert g.cube.value == 128
    roll_and_play(g, (dice, 1))
    e = refused(m, g.double)
    says(e, "past 128", "the largest GNU Backgammon imports")
    g.resign(1, player=g.on_roll)
    g.accept_resignation()
    assert m.is_over() and m.score == [136, 4]


def test_the_dead_cube_option_refuses_what_gnubg_refuses():
    """Rule option dead_cube: gnubg's own play ("The cube is dead; you can't double any
    more.") refuses a double when a win on the present cube already wins the match."""
    m = Match(9, Rules(dead_cube=True), score=(8, 4))
    g = m.game
    start(g, 1)
    play_out(g)
    e = refused(m, g.double)
    says(e, "dead cube", "present 1 gives player 0", "rule option dead_cube")
    roll_and_play(g, (2, 1))
    g.double()  # the trailer, needing 5, may
    g.take()
    assert g.needs == [1, 5] and g.cube.value == 2
    assert Rules.from_dict(Rules(dead_cube=True).to_dict()).dead_cube
    assert "dead_cube" not in Rules().to_dict()  # off: left out, as before the option


def test_money_options_are_not_used_in_match_play():
    for rules, word in ((Rules(jacoby=True), "jacoby"), (Rules(beavers=True), "beavers"),
                        (Rules(automatic_doubles=1), "automatic")):
        e = raises(RuleError, Match, 7, rules)
        says(e, word, "not used in match play")


def test_a_score_past_the_match_length_is_refused():
    e = raises(RuleError, Match, 7, None, (7, 2))
    says(e, "past the 7-point match")
    raises(RuleError, Match, 7, None, (1, -1))
    raises(RuleError, Match, -1)
    e = raises(RuleError, Match, 7, None, (5, 0), True)
    says(e, "Crawford")
    m = Match(7, score=(6, 2), crawford=True)
    assert m.game.crawford and not m.post_crawford
    m = Match(7, score=(6, 2))
    assert m.post_crawford and not m.game.crawford


def test_money_session_keeps_a_cumulative_score_and_never_ends():
    m = Match(0, Rules(jacoby=True, beavers=True))
    assert m.money and m.game.money
    _double_to(m.game, 4)
    _win(m, 0, 2)
    _win(m, 1, 3)  # the cube is centred: Jacoby, a backgammon counts 1
    _win(m, 1)
    assert m.score == [8, 2] and m.games == 3 and not m.is_over() and m.winner is None


def test_match_ids_agree_with_gnubg():
    # IDs gnubg 1.07 printed for the same states (tests/test_matchid_gnubg.py checks more).
    m = Match(7)
    m.game.roll((2, 5))  # gnubg 2, root 5: root (player 1) opens with 52
    assert m.match_id() == "cInqAAAAAAAE"
    m = Match(5)
    start(m.game, 0, (5, 2))
    play_out(m.game)
    m.game.double()  # root doubles, gnubg drops
    m.game.drop()
    assert m.match_id() == "cASgAAAACAAE"
    m = Match(5)
    m.game.roll((3, 6))
    play_out(m.game)
    m.game.resign(3)  # gnubg resigns a backgammon, root accepts
    m.game.accept_resignation()
    assert m.match_id() == "MGugAAAAGAAE"
    m = Match(9, score=(8, 4))  # gnubg's `set score 8 4`: post-Crawford
    m.game.roll((5, 3))
    play_out(m.game)
    m.game.roll((2, 1))
    play_out(m.game)
    assert m.match_id() == "MAEgAYAAIAAE"
    m = Match(7, score=(6, 0), crawford=True)
    m.game.roll((1, 2))
    assert m.match_id() == "8AnlAGAAAAAE"
    m = Match(1)  # no Crawford game in a 1-point match
    m.game.roll((2, 5))
    assert m.match_id() == "cIkqAAAAAAAE"
    m = Match(0, Rules(jacoby=True))
    m.game.roll((6, 1))
    assert m.match_id() == "MAEHAAAAAAAA"
    m = Match(0)
    m.game.roll((1, 2))
    assert m.match_id() == "cAkFAAAAAAAE"


def test_game_over_by_bearing_off_matches_gnubg():
    # gnubg: 3-point match, cube 4 owned by player 0, player 1 bears off the last checker
    # against 15 checkers at home: a gammon, 8 points, score 0-8.
    m = Match(3)
    m.game = Game(m.rules, money=False, position=board({6: 15}, {1: 1}))
    start(m.game, 1, (2, 1))
    m.game.cube.value, m.game.cube.owner = 4, 0
    m.game.move(1, 0)
    assert m.score == [0, 8] and m.winner == 1
    assert m.match_id() == "AgJgAAAAQAAE"


def test_snapshot_round_trip():
    m = Match(7, Rules(holland=True))
    _win(m, 0, 3)
    _win(m, 0, 3)
    g = m.game
    start(g, 1)
    g.move(13, 7)
    data = m.to_dict()
    assert is_plain(data)
    m2 = Match.from_dict(data)
    assert m2.to_dict() == data and m2.match_id() == m.match_id()
    assert m2.game.crawford and m2.score == [6, 0]


def test_resume_from_a_match_id():
    m = Match.from_match_id("kQHgADAAMAAE")  # gnubg: 7 points, 3-6, Crawford, cube 2 owned by 1
    assert m.length == 7 and m.score == [3, 6] and m.game.crawford
    assert m.game.cube.value == 2 and m.game.cube.owner == 1
    assert m.match_id() == "kQHgADAAMAAE"
    m = Match.from_match_id("MBngAAAAAAAE")  # a double on offer to player 1
    assert m.game.decider == 1 and m.game.can("take") and m.match_id() == "MBngAAAAAAAE"
    m.game.take()
    assert m.match_id() == "EQHgAAAAAAAE"
    e = raises(RuleError, Match.from_match_id, "cASgAAAACAAE")
    says(e, "dropped")


def test_a_match_over_a_number_of_games_is_decided_by_the_total():
    """"backgammon can be played as a series, or match, with the winner of the match
    determined by a tally of total points (based on the number of games won and lost) after
    the final game in an agreed-upon number of games." (rules-instructions-match-play)"""
    from bgcore import GamesMatch

    m = GamesMatch(3)
    assert m.money and m.limit == 3 and not m.is_over()
    _win(m, 0, 3)  # a backgammon: 3 points
    _win(m, 1)
    assert m.score == [3, 1] and not m.is_over() and m.winner is None
    g = m.game
    start(g, 1)
    play_out(g)
    g.double()  # the cube as in any game: no Crawford, no target score
    g.take()
    g.resign(2, player=0)
    g.accept_resignation()  # the leader loses 4 in the last game
    assert m.score == [3, 5] and m.is_over() and m.winner == 1
    says(refused(m, m.next_game), "its 3 games are played")
    m2 = GamesMatch.from_dict(m.to_dict())
    assert m2.to_dict() == m.to_dict() and m2.winner == 1 and isinstance(m2, GamesMatch)


def test_a_match_over_a_number_of_games_may_end_level():
    """"the winner of the match determined by a tally of total points": equal totals after
    the final game name no winner (a drawn match)."""
    from bgcore import GamesMatch

    m = GamesMatch(2)
    _win(m, 0)
    _win(m, 1)
    assert m.is_over() and m.score == [1, 1] and m.winner is None
    for bad in (0, 256, True, "3"):
        says(raises(RuleError, GamesMatch, bad), "1 to 255 games")
    says(raises(RuleError, GamesMatch, 5, Rules(jacoby=True)), "not used in match play")
