# The doubling cube: who may double and when, take, drop, beavers, raccoons, no limit or a
# cap, the Jacoby rule, automatic doubles.
from bgcore import Cube, Game, Match, Rules
from play_support import play_out, refused, roll_and_play, says, start
from support import board


def _second_turn(rules=None):
    # Player 0 won the opening and played; player 1 is on roll, not yet thrown.
    g = Game(rules)
    start(g, 0, (6, 1))
    play_out(g)
    return g


def test_cube_is_centred_at_1_and_either_side_may_double_first():
    g = _second_turn()
    assert g.cube.value == 1 and g.cube.owner is None
    assert g.can("double") and g.can("double", 1) and not g.can("double", 0)
    g.double()
    assert g.cube.offered_by == 1 and g.decider == 0
    assert g.allowed() == ["take", "drop"]


def test_take_doubles_the_cube_and_the_taker_owns_it():
    g = _second_turn()
    g.double()
    g.take(player=0)
    assert g.cube.value == 2 and g.cube.owner == 0
    roll_and_play(g, (3, 1))  # the doubler throws and plays
    # Only the owner may redouble: player 0 on roll now, owns the cube.
    assert g.on_roll == 0 and g.can("double")
    g.double()
    g.take()
    assert g.cube.value == 4 and g.cube.owner == 1
    roll_and_play(g, (5, 2))
    roll_and_play(g, (4, 1))
    assert g.on_roll == 0 and g.cube.owner == 1
    e = refused(g, g.double)  # player 0 is on roll; player 1 owns the cube
    says(e, "player 1 owns the cube", "only the cube's owner may redouble")


def test_drop_ends_the_game_for_the_value_before_the_double():
    g = _second_turn()
    g.double()
    g.take()
    roll_and_play(g, (3, 1))
    g.double()  # player 0 redoubles to 4
    g.drop()
    assert g.result == (0, 1, 2, "dropped") and g.game_state == "dropped"
    assert g.cube.value == 2 and g.cube.offered_by is None


def test_a_drop_is_never_a_gammon():
    g = Game(position=board({1: 1}, {6: 15}))
    start(g, 1, (2, 1))  # player 1 (all 15 at home, none off) is on roll
    play_out(g)
    g.double()  # player 0, about to win a gammon, doubles
    g.drop()
    assert g.result.points == 1 and g.result.level == 1


def test_a_double_only_before_rolling_and_only_by_the_player_on_roll():
    g = _second_turn()
    e = refused(g, g.double, player=0)
    says(e, "only the player on roll may double")
    g.roll((5, 4))
    e = refused(g, g.double)
    says(e, "only before rolling")


def test_a_double_may_be_offered_on_the_bar_against_a_closed_board():
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    g = Game(position=board(closed, {25: 1, 13: 14}))
    start(g, 0, (2, 1))
    play_out(g)
    assert g.on_roll == 1 and g.can("double")
    g.double()
    assert g.position.mover[25] == 1


def test_take_or_drop_with_no_double_offered_is_refused():
    g = _second_turn()
    for action in (g.take, g.drop, g.beaver):
        e = refused(g, action)
        says(e, "no double has been offered")
    g.double()
    e = refused(g, g.take, player=1)
    says(e, "offered the double")
    e = refused(g, g.double, player=1)
    says(e, "already offered")
    e = refused(g, g.roll, (2, 1))
    says(e, "taken or dropped")


def test_the_cube_goes_past_64_up_to_the_one_cap_gnubg_imports():
    """"There is no limit to the number of times a double may be offered in one game."
    (rules-cube-match-chouette) Past the cube's last face, 64, money play goes on up to the
    one cap on every cube, the largest GNU Backgammon imports (bgcore.rules.MAX_CUBE, 128:
    measured with gnubg 1.07), the same in a match (tests/core/test_match.py)."""
    from bgcore.rules import MAX_CUBE
    assert MAX_CUBE == 128
    g = _second_turn()
    # Each double: the side on roll doubles, the other takes, both play a roll.
    for expected in (2, 4, 8, 16, 32, 64, 128):
        g.double()
        g.take()
        assert g.cube.value == expected
        roll_and_play(g, (2, 1))
    says(refused(g, g.double), "past 128", "the largest GNU Backgammon imports")
    g2 = _second_turn(Rules(cube_cap=1024))  # an agreed cap above it: the one cap still holds
    g2.cube.value, g2.cube.owner = 128, g2.on_roll
    says(refused(g2, g2.double), "past 128")


def test_a_cube_cap_stops_doubling():
    g = _second_turn(Rules(cube_cap=4))
    g.double()
    g.take()
    roll_and_play(g, (2, 1))
    g.double()
    g.take()
    roll_and_play(g, (2, 1))
    assert g.cube.value == 4
    e = refused(g, g.double)
    says(e, "cube cap", "4")


def test_beaver_the_taker_redoubles_at_once_and_keeps_the_cube():
    g = _second_turn(Rules(beavers=True))
    g.double()  # player 1 doubles
    g.beaver()  # player 0 beavers
    assert g.cube.value == 4 and g.cube.owner == 0 and g.cube.offered_by is None
    assert g.on_roll == 1  # the doubler throws next
    e = refused(g, g.raccoon)
    says(e, "raccoons are not allowed")
    roll_and_play(g, (3, 2))
    assert g.can("double") and g.on_roll == 0  # the beaverer keeps the right to double


def test_beavers_are_an_option_and_not_used_in_match_play():
    g = _second_turn()
    g.double()
    e = refused(g, g.beaver)
    says(e, "beavers are not allowed")
    m = Match(5)
    start(m.game, 0)
    play_out(m.game)
    m.game.double()
    e = refused(m, m.game.beaver)
    says(e, "not used in match play")


def test_raccoon_answers_a_beaver_before_the_next_throw():
    g = _second_turn(Rules(beavers=True, raccoons=True))
    g.double()
    g.beaver()
    e = refused(g, g.raccoon, player=0)
    says(e, "only the doubler may raccoon")
    g.raccoon(player=1)
    assert g.cube.value == 8 and g.cube.owner == 0  # the cube does not change hands
    e = refused(g, g.raccoon)
    says(e, "no beaver to answer")
    # After the doubler throws, the chance has gone.
    g = _second_turn(Rules(beavers=True, raccoons=True))
    g.double()
    g.beaver()
    g.roll((4, 3))
    e = refused(g, g.raccoon)
    says(e, "at once")


def test_a_beaver_may_follow_the_take_at_once():
    """"If one player thinks he is the favorite after accepting a double, he may immediately
    turn the cube to 4 without forfeiting his option to double again later." and "All the
    animal redoubles must be made immediately after the initial double has been accepted.
    There can be no intervening dice rolls or checker moves." (rules-cube-match-chouette)"""
    g = _second_turn(Rules(beavers=True, raccoons=True))
    g.double()  # player 1 doubles
    g.take()  # player 0 takes ...
    assert g.allowed() == ["roll", "beaver", "resign"]
    e = refused(g, g.beaver, player=1)
    says(e, "only the taker may beaver")
    g.beaver(player=0)  # ... and turns the cube to 4 at once, keeping it
    assert g.cube.value == 4 and g.cube.owner == 0 and g.on_roll == 1
    e = refused(g, g.beaver)
    says(e, "no double has been offered")
    g.raccoon(player=1)  # the doubler may answer as after any beaver
    assert g.cube.value == 8 and g.cube.owner == 0
    snap = Game.from_dict(g.to_dict())
    assert snap.cube.to_list() == g.cube.to_list()
    roll_and_play(g, (3, 2))
    assert g.can("double") and g.on_roll == 0  # the beaverer keeps the right to double


def test_the_beaver_after_a_take_ends_with_the_doublers_next_action():
    """"There can be no intervening dice rolls or checker moves." (rules-cube-match-chouette):
    once the doubler throws, or resigns, the take stands as it is."""
    g = _second_turn(Rules(beavers=True))
    g.double()
    g.take()
    h = Game.from_dict(g.to_dict())  # a snapshot keeps the chance
    assert h.can("beaver", 0) and h.cube.taken_by == 0
    g.roll((4, 3))
    e = refused(g, g.beaver)
    says(e, "no double has been offered")
    assert g.cube.value == 2 and g.cube.taken_by is None
    h.resign(1, player=1)
    h.reject_resignation()
    assert not h.can("beaver")
    g = _second_turn()  # without the option
    g.double()
    g.take()
    says(refused(g, g.beaver), "beavers are not allowed")
    g = _second_turn(Rules(beavers=True, cube_cap=2))
    g.double()
    g.take()
    says(refused(g, g.beaver), "cube cap")


def test_jacoby_gammons_count_single_unless_a_double_was_offered():
    """"Gammons and backgammons count only as a single game if neither player has offered a
    double during the course of the game." (rules-cube-match-chouette)"""
    def gammon(rules, cube, owner=None):
        g = Game(rules, position=board({1: 1}, {6: 15}))
        start(g, 0, (2, 1))
        g.cube.value = cube
        g.cube.owner = owner
        g.move(1, 0)
        return g.result

    assert gammon(Rules(jacoby=True), 1) == (0, 2, 1, "over")
    assert gammon(Rules(jacoby=True), 2, owner=1) == (0, 2, 4, "over")  # doubled and taken
    assert gammon(Rules(), 1) == (0, 2, 2, "over")
    # Jacoby is for money play: in a match the gammon counts.
    g = Game(Rules(jacoby=True), money=False, position=board({1: 1}, {6: 15}))
    start(g, 0, (2, 1))
    g.move(1, 0)
    assert g.result.points == 2


def test_jacoby_applies_to_a_resigned_gammon_too():
    g = Game(Rules(jacoby=True))
    start(g, 0)
    g.resign(2, player=1)
    g.accept_resignation()
    assert g.result == (0, 2, 1, "resigned")


def test_automatic_doubles_on_opening_ties_up_to_the_limit():
    g = Game(Rules(automatic_doubles=2))
    g.roll((3, 3))
    assert g.cube.value == 2 and g.cube.owner is None
    g.roll((5, 5))
    g.roll((1, 1))  # past the limit: thrown again without a double
    assert g.cube.value == 4 and g.automatic == 2
    g.roll((5, 1))
    assert g.cube.value == 4 and g.cube.owner is None and g.player == 0
    # An automatic double offers no double: under Jacoby the gammon counts single, on the
    # cube of 2 (gnubg's rule too: it asks whether the cube is centred).
    g = Game(Rules(automatic_doubles=1, jacoby=True), position=board({1: 1}, {6: 15}))
    g.roll((2, 2))
    g.roll((2, 1))
    g.move(1, 0)
    assert g.result == (0, 2, 2, "over")


def test_jacoby_holds_after_an_automatic_double_until_a_double_is_offered():
    """"Gammons and backgammons count only as a single game if neither player has offered a
    double during the course of the game." (rules-cube-match-chouette) An opening tie turns
    the cube with no double offered: a gammon or a backgammon, played out or resigned,
    counts single on the cube of 2; once a double is offered and taken, it counts full."""
    def after_tie(position, rules=None):
        g = Game(rules or Rules(automatic_doubles=1, jacoby=True), position=position)
        g.roll((4, 4))  # the tie: the cube goes to 2, centred
        assert g.cube.value == 2 and g.cube.owner is None
        start(g, 0, (2, 1))
        return g

    g = after_tie(board({1: 1}, {6: 15}))
    g.move(1, 0)
    assert g.result == (0, 2, 2, "over")  # a gammon, counted single on the cube of 2
    g = after_tie(board({1: 1}, {20: 15}))
    g.move(1, 0)
    assert g.result == (0, 3, 2, "over")  # a backgammon, likewise
    g = after_tie(board({1: 1}, {6: 15}))
    g.resign(2, player=1)
    g.accept_resignation()
    assert g.result == (0, 2, 2, "resigned")
    # a double offered and taken (cube 4, owned): the gammon counts double again
    g = after_tie(board({3: 2}, {6: 15}))
    g.move(3, 1)
    g.move(3, 2)
    g.double(1)
    g.take(0)
    g.roll((2, 1), player=1)
    g.move(6, 4)
    g.move(6, 5)
    g.roll((2, 1), player=0)
    g.move(2, 0)
    g.move(1, 0)
    assert g.result == (0, 2, 8, "over")
    # without the Jacoby rule the gammon after the tie counts 2 x 2
    g = after_tie(board({1: 1}, {6: 15}), Rules(automatic_doubles=1))
    g.move(1, 0)
    assert g.result == (0, 2, 4, "over")


def test_automatic_doubles_respect_the_cap_and_not_in_matches():
    g = Game(Rules(automatic_doubles=3, cube_cap=2))
    for _ in range(3):
        g.roll((4, 4))
    assert g.cube.value == 2
    g = Game(Rules(automatic_doubles=3), money=False)
    g.roll((4, 4))
    assert g.cube.value == 1


def test_cube_snapshot_round_trip():
    c = Cube(8, 1)
    c.offer(1)
    d = Cube.from_list(c.to_list())
    assert d.to_list() == [8, 1, 1, -1]
    assert Cube().to_list() == [1, -1, -1, -1]


def test_player_numbers_other_than_0_and_1_are_refused_as_rule_errors():
    """"Backgammon is a game for two players" (rules-instructions-match-play): an action
    for player 2, 7, -1 or True is refused with a ValueError subclass and changes nothing."""
    g = _second_turn()  # player 1 on roll, before rolling
    for action, args in ((g.double, ()), (g.roll, ((3, 1),)), (g.resign, (1,))):
        says(refused(g, action, *args, player=2), "players are 0 and 1")
    g.double()
    for bad in (2, 7, -1, True):
        says(refused(g, g.take, bad), "players are 0 and 1")
        says(refused(g, g.drop, bad), "players are 0 and 1")
    g.take(0)
    g.resign(1, player=1)
    for bad in (2, 7):
        says(refused(g, g.accept_resignation, bad), "players are 0 and 1")
        says(refused(g, g.reject_resignation, bad), "players are 0 and 1")
    g.reject_resignation(0)
    g.roll((3, 1))
    says(refused(g, g.move, 24, 21, player=7), "players are 0 and 1")
    g.move(24, 21)
    says(refused(g, g.undo, 2), "players are 0 and 1")
    assert g.turn.moves and g.cube.value == 2 and g.resignation is None
    # 1.0 equals 1 but is no player number; nor are the winners of an outside decision
    # (a chouette's) other than 0 and 1, nor its levels other than 1 to 3
    g.move(21, 20)
    says(refused(g, g.resign, 1, 1.0), "players are 0 and 1")
    for bad in (2, -1, True, None, 1.0):
        says(refused(g, g.finish, bad), "the winner is player 0 or 1")
    for bad in (0, 4, 2.0, True):
        says(refused(g, g.finish, 0, bad), "single (1), gammon (2) or backgammon (3)")
    assert not g.is_over() and g.resignation is None
    g.finish(0, 2)
    assert g.result == (0, 2, 4, "dropped")
