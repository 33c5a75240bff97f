# A game: opening roll, alternating turns, corrections until the next throw, the end and its
# value, resignations, the old opening rethrow, snapshots.
import random

from bgcore import DiceError, Game, IllegalMoveError, Position, RuleError, Rules, Turn
from play_support import is_plain, play_out, refused, roll_and_play, says, start
from support import board, raises


def test_opening_ties_are_thrown_again_and_the_higher_die_plays_both():
    g = Game()
    assert g.game_state == "none" and g.allowed() == ["roll"]
    assert g.roll((4, 4)) is None  # a tie: throw again
    assert g.roll((2, 2)) is None
    assert g.phase == "opening" and g.cube.value == 1  # no automatic doubles by default
    turn = g.roll((3, 5))
    assert isinstance(turn, Turn)
    assert g.player == 1 and g.on_roll == 1
    assert turn.dice == (5, 3) and g.dice == (5, 3)
    assert g.opening == (3, 5)
    assert g.position == Position.initial()
    assert g.rolls == [0, 1]


def test_opening_throw_is_two_single_dice():
    g = Game()
    raises(DiceError, g.roll, (0, 3))
    raises(DiceError, g.roll, (7, 3))
    raises(DiceError, g.roll, 5)
    assert g.phase == "opening"


def test_turns_alternate_and_a_player_throws_only_when_on_roll():
    g = Game()
    start(g, 0, (6, 1))
    e = refused(g, g.roll, (3, 3))
    says(e, "not finished the play")
    g.move(13, 7)
    g.move(8, 7)
    assert g.on_roll == 1 and g.dice == ()
    e = refused(g, g.roll, (3, 3), player=0)
    says(e, "in turn", "player 1 is on roll")
    g.roll((3, 3), player=1)
    assert g.player == 1 and g.on_roll == 1 and g.dice == (3, 3)
    play_out(g)
    roll_and_play(g, (2, 1))
    assert g.rolls == [2, 1] and g.on_roll == 1


def test_moves_may_be_taken_back_until_the_opponent_throws():
    g = Game()
    start(g, 0, (3, 1))
    g.move(8, 5)
    g.move(6, 5)
    assert g.turn.can_end() and g.on_roll == 1
    assert "undo" in g.allowed()
    g.undo()  # correction before the next throw
    assert g.on_roll == 0 and g.turn.remaining == (1,)
    g.move(24, 23)
    played = g.turn.position
    g.roll((6, 5))  # the opponent throws: the play is accepted
    assert g.position == g.turn.start == played.swapped()
    e = refused(g, g.undo)
    says(e, "nothing to take back")
    assert "undo" not in g.allowed()


def test_a_double_accepts_the_previous_play():
    g = Game()
    start(g, 0, (3, 1))
    g.move(8, 5)
    g.move(6, 5)
    g.double()
    e = refused(g, g.undo)
    says(e, "take back")


def test_no_legal_play_passes_the_turn():
    # Player on roll on the bar against a closed board: any roll passes.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    g = Game(position=board({25: 1, 13: 14}, closed))
    start(g, 0, (6, 5))
    assert g.turn.required == () and g.turn.can_end()
    assert g.on_roll == 1
    e = refused(g, g.move, 25, 20)
    says(e, "no legal play", "turn passes")


def test_a_single_win_scores_the_cube():
    g = Game(position=board({1: 1}, {6: 14}))  # the loser has borne one off
    start(g, 0, (2, 1))
    g.move(1, 0)
    assert g.is_over() and g.game_state == "over"
    assert g.result == (0, 1, 1, "over")
    assert g.allowed() == []
    e = refused(g, g.roll, (3, 1))
    says(e, "game is over")


def test_gammon_with_the_cube_on_4_wins_8_points():
    g = Game(position=board({1: 1, 2: 1}, {6: 15}))
    start(g, 0, (6, 1))
    g.move(1, 0)
    assert not g.is_over()
    g.undo()
    g.cube.value, g.cube.owner = 4, 0
    g.move(2, 0)
    g.move(1, 0)
    assert g.result.level == 2 and g.result.points == 8


def test_backgammon_with_a_checker_on_the_bar_or_in_the_winners_home():
    for loser in ({25: 1, 6: 14}, {19: 1, 6: 14}, {23: 2, 6: 13}):
        g = Game(position=board({1: 1}, loser))
        start(g, 0, (2, 1))
        g.move(1, 0)
        assert g.result.level == 3 and g.result.points == 3, loser
    # a checker only in the winner's outer board is a gammon
    g = Game(position=board({1: 1}, {18: 1, 6: 14}))
    start(g, 0, (2, 1))
    g.move(1, 0)
    assert g.result.level == 2


def test_player_one_can_win_and_the_value_is_times_the_cube():
    g = Game(position=board({6: 15}, {1: 1}))  # player 1 is the one about to bear off
    start(g, 1, (2, 1))
    g.cube.value = 2
    g.move(1, 0)
    assert g.result == (1, 2, 4, "over")  # player 0 has borne off none: a gammon


def test_resignation_accepted_ends_the_game_at_its_level_times_the_cube():
    g = Game()
    start(g, 0)
    play_out(g)
    g.double()  # player 1, on roll, doubles
    g.take()
    assert g.cube.value == 2 and g.cube.owner == 0
    g.resign(2)  # player 1 is on roll, resigns a gammon
    assert g.resignation == (1, 2) and g.decider == 0
    assert g.allowed() == ["accept_resignation", "reject_resignation", "demand"]
    e = refused(g, g.accept_resignation, player=1)
    says(e, "offered to resign")
    e = refused(g, g.roll, (3, 1))
    says(e, "resignation is on offer")
    g.accept_resignation(player=0)
    assert g.result == (0, 2, 4, "resigned") and g.game_state == "resigned"


def test_the_acceptor_may_demand_a_higher_forfeit():
    """"In the case of a player offering to forfeit, the player accepting the forfeit must
    decide whether to accept the forfeit as a single loss or to require the opponent to
    forfeit to a gammon. If a forfeit is refused play continues." (rules-pc-gammon)"""
    g = Game()
    start(g, 0)
    play_out(g)
    g.resign(1)  # player 1, on roll, offers a single
    e = refused(g, g.demand, 2, player=1)
    says(e, "offered to resign")
    e = refused(g, g.demand, 1)
    says(e, "more than the single offered")
    g.demand(2, player=0)  # the acceptor requires a gammon
    assert g.resignation == (1, 2, 1)
    e = refused(g, g.accept_resignation, player=0)
    says(e, "player 1 agrees or plays on")
    says(refused(g, g.demand, 3), "higher forfeit is demanded")
    assert g.allowed() == ["accept_resignation", "reject_resignation"]
    h = Game.from_dict(g.to_dict())  # a snapshot keeps the demand
    h.accept_resignation(player=1)  # the resigner agrees: a gammon
    assert h.result == (0, 2, 2, "resigned")
    g.reject_resignation(player=1)  # or plays on
    assert g.resignation is None and not g.is_over()
    roll_and_play(g, (4, 2))
    g.resign(3, player=1)
    says(refused(g, g.demand, 3), "more than the backgammon offered")


def test_resignation_rejected_plays_on():
    g = Game()
    start(g, 0)
    g.resign(3, player=1)  # the opponent may offer too
    e = refused(g, g.resign, 1)
    says(e, "already on offer")
    g.reject_resignation()
    assert g.resignation is None and not g.is_over()
    play_out(g)
    roll_and_play(g, (4, 2))
    e = refused(g, g.resign, 4)
    says(e, "single", "gammon", "backgammon")
    e = refused(g, g.reject_resignation)
    says(e, "no resignation")


def test_old_variant_first_player_may_throw_both_dice_again():
    g = Game(Rules(opening_rethrow=True))
    start(g, 1, (2, 1))
    assert "rethrow" in g.allowed()
    e = refused(g, g.rethrow, (6, 6), player=0)
    says(e, "only the first player")
    g.rethrow((6, 6))
    assert g.turn.dice == (6, 6) and g.player == 1
    e = refused(g, g.rethrow, (5, 5))
    says(e, "only the first player")
    # Once checkers move, the opening numbers are being played.
    g = Game(Rules(opening_rethrow=True))
    start(g, 0, (2, 1))
    g.move(13, 11)
    e = refused(g, g.rethrow, (6, 6))
    says(e, "being played")
    # Without the option the opening numbers must be played.
    g = Game()
    start(g, 0, (2, 1))
    e = refused(g, g.rethrow, (6, 6))
    says(e, "opening_rethrow")


def test_moves_are_checked_by_the_turn():
    g = Game()
    e = refused(g, g.move, 13, 7)
    says(e, "opening roll")
    start(g, 0, (6, 1))
    before = g.to_dict()
    raises(IllegalMoveError, g.move, 13, 9)
    assert g.to_dict() == before


def test_roll_with_a_random_source():
    rng = random.Random(5) if hasattr(random, "Random") else random
    g = Game()
    while g.phase == "opening":
        g.roll_random(rng)
    assert g.turn is not None and len(g.dice) == 2


def test_snapshot_round_trips_mid_turn_and_is_plain_data():
    g = Game(Rules(jacoby=True, beavers=True, raccoons=True, cube_cap=64))
    start(g, 1, (4, 2))
    g.move(8, 4)
    data = g.to_dict()
    assert is_plain(data)
    h = Game.from_dict(data)
    assert h.to_dict() == data
    assert h.turn.remaining == (2,) and h.position == g.position
    h.move(6, 4)
    h.double()
    h.beaver()
    data = h.to_dict()
    k = Game.from_dict(data)
    assert k.to_dict() == data and k.can("raccoon")
    k.resign(1)
    k.accept_resignation()
    assert Game.from_dict(k.to_dict()).result == k.result


def test_refusals_raise_rule_errors_which_are_value_errors():
    g = Game()
    for action in (g.double, g.take, g.drop, g.beaver, g.raccoon, g.undo,
                   g.accept_resignation):
        e = refused(g, action)
        assert isinstance(e, RuleError) and isinstance(e, ValueError)


def _shut_out(rules):
    # Player 0 holds every point of its home board; player 1 has a checker on the bar.
    g = Game(rules, position=board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 1, 13: 14}))
    start(g, 0, (2, 1))
    play_out(g)  # 8/7 8/6: the board stays closed
    from bgcore import rare
    assert g.on_roll == 1 and rare.shut_out(g)
    return g


def test_a_shut_out_player_passes_without_rolling_with_the_option():
    """"A player may double when he is on the bar even if his opponent has a closed board
    and he cannot enter. Though he does not roll the dice, since he cannot make a checker
    play, he still has the right to double." (rules-cube-match-chouette)"""
    from bgcore import rare
    g = _shut_out(Rules(shut_out_pass=True))
    says(refused(g, g.roll, (6, 6)), "shut out", "passes unthrown")
    g.double()  # he keeps the right to double
    g.take()
    assert g.allowed() == ["pass", "resign"]
    rare.pass_turn(g, player=1)
    assert g.on_roll == 0 and g.player == 0 and g.turn is None and g.rolls == [1, 0]
    assert g.position.opponent[25] == 1  # still on the bar
    says(refused(g, rare.pass_turn, g), "only a shut-out player")
    roll_and_play(g, (2, 1))  # player 0 throws next
    assert g.on_roll == 1


def test_allowed_names_the_shut_out_pass_for_a_host_to_find():
    """"Though he does not roll the dice, since he cannot make a checker play, he still has
    the right to double." (rules-cube-match-chouette) With rule option shut_out_pass a host
    learns from allowed() that the player on roll passes (and may double) instead of
    throwing; without the option, or when not shut out, no pass is listed."""
    g = _shut_out(Rules(shut_out_pass=True))
    assert g.allowed() == ["pass", "undo", "double", "resign"]  # undo: the last play
    assert g.can("pass") and g.can("pass", 1) and not g.can("pass", 0)
    assert "players throw in turn" in g.why_not_pass(0)
    assert "pass" not in _shut_out(Rules()).allowed()
    g = Game(Rules(shut_out_pass=True))
    start(g, 0)
    play_out(g)
    assert "pass" not in g.allowed() and "only a shut-out player" in g.why_not_pass()


def test_without_the_option_the_shut_out_player_throws_and_loses_the_turn():
    """"If neither number rolled corresponds to an open point, then the checker cannot be
    moved off the bar and the player loses his turn." (rules-instructions-match-play): the
    default, as gnubg plays it and .mat records it (a roll with no play)."""
    from bgcore import rare
    g = _shut_out(Rules())
    says(refused(g, rare.pass_turn, g), "rule option shut_out_pass is off")
    turn = g.roll((6, 5))
    assert not turn.required and turn.can_end() and g.on_roll == 0


WRONG_SETUP = {6: 4, 7: 1, 8: 3, 13: 5, 24: 2}  # one checker on the 7 point, not the 6


def test_a_wrong_setup_is_corrected_before_a_subsequent_throw():
    """"If an error has been made in setup or play, either player may require its
    correction before a subsequent throw of the dice, but not afterwards. Any man
    incorrectly played must be restored to its previous position, and a correct play then
    made." (rules-pc-gammon) A setup found wrong after the opening throw: the checkers are
    set up right and the opening numbers played again from there, by the same player."""
    from bgcore import irregular
    usual = {6: 5, 8: 3, 13: 5, 24: 2}
    for first in (0, 1):
        g = Game(position=board(WRONG_SETUP, usual))
        says(refused(g, irregular.correct_setup, g), "before the opening throw")
        start(g, first, (3, 1))
        g.move(8, 5)
        g.move(6, 5)
        assert g.play_complete()
        for bad in (2, True):
            says(refused(g, irregular.correct_setup, g, None, bad), "players are 0 and 1")
        says(refused(g, irregular.correct_setup, g, "6/4"), "a setup is a Position")
        turn = irregular.correct_setup(g, None, 1 - first)  # either player requires it
        assert g.player == first and turn.dice == (3, 1) and not turn.moves
        assert g.position == Position.initial() and g.start == Position.initial()
        play_out(g)
        g.roll((2, 1))  # the subsequent throw: the setup stands now
        says(refused(g, irregular.correct_setup, g), "the setup stands")
        assert g.rolls[first] == 1 and g.rolls[1 - first] == 1
    # Not while a resignation waits, nor once the opponent has doubled (the play stands)
    g = Game(position=board(WRONG_SETUP, usual))
    start(g, 0, (3, 1))
    play_out(g)
    g.resign(1, player=0)
    says(refused(g, irregular.correct_setup, g), "resignation is on offer")
    g.reject_resignation()
    g.double()
    says(refused(g, irregular.correct_setup, g), "the setup stands")
    # Given in a journal's event, as the board replays it
    from bgcore import rare
    g = Game(position=board(WRONG_SETUP, usual))
    start(g, 1, (4, 2))
    rare.apply(g, {"ev": "correct_setup", "player": 1})
    assert g.position == Position.initial() and g.turn.dice == (4, 2)


def test_cocked_dice_are_thrown_again():
    """"The dice must be rolled together and come to rest flat (not "cocked") on the board
    at the player's right, otherwise they must be thrown again." (rules-es-lowe-bgaa, law 9)"""
    from bgcore import irregular

    g = Game()
    start(g, 0)
    says(refused(g, irregular.rethrow, g, (5, 5)), "not the opening throw")
    play_out(g)
    g.roll((6, 5))  # player 1's dice are cocked: thrown again
    says(refused(g, irregular.rethrow, g, (4, 2), 0), "player 1 threw these dice")
    turn = irregular.rethrow(g, (4, 2), 1)
    assert g.turn is turn and turn.dice == (4, 2) and g.rolls == [1, 1] and g.player == 1
    g.move(13, 9)
    says(refused(g, irregular.rethrow, g, (3, 3)), "checkers have been moved")
    raises(DiceError, irregular.rethrow, g, (7, 1))


def test_a_play_finished_with_the_dice_picked_up_may_be_voided():
    """"Each Player must leave the dice on the board until his play is completed. Should he
    pick them up before the completion of the play, his Opponent may declare the play void
    and require him to replace the man or men moved and throw again. A move is deemed
    accepted as taken, if the Opponent throws the dice for the next turn" (rules-es-lowe-bgaa,
    law 10)"""
    from bgcore import irregular

    g = Game()
    start(g, 0)
    play_out(g)
    g.roll((6, 5))
    g.move(24, 18)
    says(refused(g, irregular.void, g, 1), "only the opponent voids it")
    irregular.void(g, 0)  # player 0 voids player 1's play
    assert g.turn is None and g.player == 1 and g.on_roll == 1 and g.rolls == [1, 0]
    assert g.position.mover[24] == 2  # the checker moved is back
    says(refused(g, irregular.void, g), "nobody has thrown")
    g.roll((3, 1), player=1)  # the same player throws again
    play_out(g)
    g.roll((2, 1))  # the opponent throws: player 1's play stands; player 0's is the one now
    assert g.player == 0 and irregular.why_not_void(g, 1) is None
    says(refused(g, irregular.void, g, 0), "only the opponent voids it")


def test_a_game_played_as_the_board_plays_it_loads_no_seldom_rules():
    """Resignations, beavers and raccoons, the opening rethrow, moving by command, snapshots
    and Position IDs decoded (bgcore.resign, beavers, rare, moving, gamedata, positionid)
    are loaded when first used, for a Pico's RAM: a game thrown, played through its Turn,
    doubled and taken, as the board plays it, loads none of them; each works once loaded."""
    import sys

    import bgcore

    lazy = ("resign", "beavers", "rare", "moving", "gamedata", "positionid")
    saved = {}
    for name in lazy:  # as if never loaded (MicroPython keeps a submodule in its package)
        saved[name] = (sys.modules.pop("bgcore." + name, None), bgcore.__dict__.pop(name, None))
    try:
        g = Game(Rules(beavers=True))
        start(g, 0, (6, 1))
        g.turn.move(13, 7)  # the board's tracker moves through the Turn
        g.turn.move(8, 7)
        g.double(1)
        g.take(0)
        g.roll((3, 1))
        g.turn.move(8, 5)
        g.turn.move(6, 5)
        assert g.on_roll == 0 and g.cube.value == 2
        assert [n for n in lazy if "bgcore." + n in sys.modules] == []
        says(refused(g, g.raccoon, 0), "rule option raccoons is off")  # loaded when asked
        g.resign(2)
        says(refused(g, g.demand, 1), "asks more than the gammon")
        g.accept_resignation()
        assert g.result == (1, 2, 4, "resigned")
        assert "bgcore.beavers" in sys.modules and "bgcore.resign" in sys.modules
        again = Game.from_dict(g.to_dict())  # a snapshot and back: a Position ID decoded
        assert again.result == g.result and again.start == g.start
        assert "bgcore.gamedata" in sys.modules and "bgcore.positionid" in sys.modules
    finally:
        for name in lazy:
            module, attr = saved[name]
            if module is not None:
                sys.modules["bgcore." + name] = module
            if attr is not None:
                setattr(bgcore, name, attr)


def _act(g, action, rng):
    # Carry out `action`, allowed now, with random dice, checkers and levels.
    if action in ("roll", "rethrow"):
        getattr(g, action)((rng.randint(1, 6), rng.randint(1, 6)))
    elif action == "move":
        turn = g.turn
        src = rng.choice([p for p in range(25, 0, -1) if turn.destinations(p)])
        dst = rng.choice(turn.destinations(src))
        way = rng.choice(turn.paths(src, dst))
        g.move(src, dst, [s.dst for s in way[:-1] if s.hit])
    elif action == "pass":
        from bgcore import rare
        rare.pass_turn(g)
    elif action == "resign":
        g.resign(rng.randint(1, 3))
    elif action == "demand":
        g.demand(g.resignation[1] + 1)
    else:
        getattr(g, action)()


def test_allowed_names_every_action_the_rules_allow_and_no_other():
    """allowed() looks at a condition of each seldom action first (not to load its rules for
    a host's state): it still names exactly the actions can() allows, through whole games
    with every option that makes one possible."""
    from bgcore import gamedata

    if hasattr(random, "Random"):
        rng = random.Random(5)
    else:  # MicroPython: the module's own source, seeded
        random.seed(5)
        rng = random
    for rules in (Rules(), Rules(jacoby=True, beavers=True, raccoons=True,
                                 opening_rethrow=True, shut_out_pass=True)):
        for _ in range(8):
            g = Game(rules)
            steps = 0
            while not g.is_over() and steps < 300:
                allowed = g.allowed()
                assert allowed == [a for a in gamedata.ACTIONS if g.can(a)], (allowed, steps)
                # Mostly on with the game: what ends it, one time in ten.
                going = [a for a in allowed if a not in ("drop", "accept_resignation")]
                _act(g, rng.choice(going if going and rng.randint(1, 10) > 1 else allowed), rng)
                steps += 1
