# The controller and the rest of the rule texts (#18): a beaver after the take, the
# acceptor's demand, a match over a number of games, a shut-out pass, cocked dice and a voided
# play; driven as players drive a board (perfect sensing), checked by the events committed.
# Apart from test_controller (168K): in 160K, a power cut here drops the old board first.
import gc

from bgcore import GAMMON, Rules
from board.controller import IDLE, OVER, PLAYING, Controller
from bgwire import DOUBLE, MENU, ROLL, TAKE
from board.journal import Journal
from board.storage import FlashStorage
from board_support import BLACK, WHITE, Dice, rmtree, tmpdir
from chouette_support import Clock as SimClock, rig  # light: no sensor model in 160K
from support import raises


def kinds(events):
    return [e["ev"] for e in events if "ev" in e]


def started(*throws, length=3, rules=None):
    board, eyes, events, emit = rig(*throws)
    board.new_match(length, rules)
    eyes.start()
    return board, eyes, events


def counts(points):
    out = [0] * 26
    for p, n in points.items():
        out[p] = n
    return out


def _match_id(length, on_roll, score=(0, 0)):
    from bgcore import encode_match_id
    return encode_match_id({
        "cube": 1, "cube_owner": None, "on_roll": on_roll, "crawford": False,
        "game_state": "playing", "turn": on_roll, "double_offered": False, "resignation": 0,
        "dice": [], "match_length": length, "score": list(score), "jacoby": False})


def test_the_post_crawford_leader_doubles_with_the_button():
    """"There is no limit to the number of times a double may be offered in one game."
    (rules-cube-match-chouette) At 2-0 in a 3-point match, after the Crawford game, a win
    on the present cube already gives White the match: Double still offers the cube, Take
    takes it. With rule option dead_cube (gnubg's play) the press is refused."""
    from bgcore import Match, Position
    for rules in (Rules(), Rules(dead_cube=True)):
        board, eyes, events, emit = rig()
        board.new_match(3, rules)
        board.match = Match.from_match_id(_match_id(3, WHITE, (2, 0)), Position.initial(),
                                          rules)
        board.phase = PLAYING
        start = counts({6: 5, 8: 3, 13: 5, 24: 2})
        eyes.show(start, start)
        n = len(events)
        board.on_buttons(DOUBLE)  # White, on roll, needing 1 point
        if rules.dead_cube:
            assert len(events) == n and "dead cube" in board.last_refusal
            continue
        assert events[-1]["ev"] == "double" and events[-1]["player"] == WHITE
        assert events[-1]["cube"] == 2
        board.on_buttons(TAKE)
        assert events[-1]["ev"] == "take" and events[-1]["player"] == BLACK
        assert board.match.game.cube.value == 2 and board.match.game.cube.owner == BLACK


def test_a_shut_out_player_passes_with_the_roll_button():
    """"Though he does not roll the dice, since he cannot make a checker play, he still has
    the right to double." (rules-cube-match-chouette; rule option shut_out_pass): Roll
    journals a pass, no dice; the opponent throws next."""
    from bgcore import Match, Position
    board, eyes, events, emit = rig((3, 1))
    rules = Rules(shut_out_pass=True)
    black = counts({25: 1, 13: 14})
    white = counts({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    board.new_match(0, rules)
    board.match = Match.from_match_id(_match_id(0, BLACK), Position(black, white), rules)
    board.phase = PLAYING
    eyes.show(white, black)
    board.on_buttons(ROLL)  # black, on the bar against a closed board
    assert events[-1]["ev"] == "pass" and events[-1]["player"] == BLACK
    assert board.match.game.on_roll == WHITE
    board.on_buttons(ROLL)
    assert events[-1]["ev"] == "roll" and events[-1]["player"] == WHITE


def test_take_then_beaver_then_raccoon_on_the_buttons():
    """"After accepting a double, he may immediately turn the cube to 4" and "if the opponent
    still believes he is the favorite after the first player's beaver, he may immediately turn
    the cube another notch to 8" (rules-cube-match-chouette): Take, then Double and Take
    together; the doubler answers with Double and Take together. A power cut between the take
    and the beaver keeps the chance."""
    path = tmpdir()
    try:
        board, eyes, events, emit = rig((3, 1), (5, 2), journal=Journal(FlashStorage(path)))
        board.new_match(0, Rules(beavers=True, raccoons=True))
        eyes.start()
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        board.on_buttons(DOUBLE)  # black doubles
        board.on_buttons(TAKE)  # white takes
        assert kinds(events)[-2:] == ["double", "take"]
        board = eyes.board = None  # the power goes: so does the old board's RAM
        gc.collect()
        board = Controller(SimClock(), Dice((5, 2)), Journal(FlashStorage(path)), None,
                      emit)  # the power came back
        board.resume()
        eyes.board = board
        board.on_buttons(DOUBLE | TAKE)  # white beavers at once
        assert events[-1]["ev"] == "beaver" and events[-1]["player"] == WHITE
        assert events[-1]["cube"] == 4
        board.on_buttons(DOUBLE | TAKE)  # black, the doubler, raccoons
        assert events[-1]["ev"] == "raccoon" and events[-1]["player"] == BLACK
        assert events[-1]["cube"] == 8 and board.match.game.cube.owner == WHITE
        n = len(events)
        board.on_buttons(DOUBLE | TAKE)  # nothing more to answer: refused
        assert len(events) == n and "no double" in board.last_refusal
        board.on_buttons(ROLL)
        assert kinds(events)[-1] == "roll"
    finally:
        rmtree(path)


def test_cocked_dice_thrown_again_and_a_play_voided():
    """Lowe's laws 9 and 10 (rules-es-lowe-bgaa): "otherwise they must be thrown again" and
    "his Opponent may declare the play void and require him to replace the man or men moved
    and throw again". Physical dice entered on the board: rethrow replaces cocked dice; void
    (the opponent's) sends the checkers back and the same player throws again."""
    from board import seldom  # loaded when asked, as the firmware loads it
    board, eyes, events = started((3, 1))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.roll((6, 5))  # black's dice, cocked
    seldom.irregular(board, "rethrow", (4, 2))
    assert events[-1] == {"ev": "rethrow", "player": BLACK, "dice": [4, 2], "seq": 0}
    assert board.match.game.turn.dice == (4, 2)
    eyes.carry(BLACK, 13, 9)  # black plays with the new dice, then picks them up early
    raises(ValueError, seldom.irregular, board, "rethrow", (3, 3))  # they lay flat
    seldom.irregular(board, "void")
    assert events[-1]["ev"] == "void" and events[-1]["player"] == WHITE
    missing, extra = board.verify()
    assert missing == [(BLACK, 13)] and extra == [(BLACK, 9)]  # the checker goes back
    eyes.carry(BLACK, 9, 13)
    board.roll((5, 2))
    assert events[-1]["ev"] == "roll" and events[-1]["player"] == BLACK
    eyes.carry(BLACK, 13, 8)
    eyes.carry(BLACK, 13, 11)
    assert board.match.game.play_complete()


def test_a_wrong_setup_is_corrected_before_the_next_throw():
    """"If an error has been made in setup or play, either player may require its
    correction before a subsequent throw of the dice, but not afterwards." (rules-pc-gammon)
    The host's correct_setup after the opening play: the checkers go back to the setup (the
    LEDs show where), the same player plays the opening numbers again; once the opponent
    throws the setup stands (a power cut: tests/board/test_replay_rules.py)."""
    from board import seldom
    from bgcore import Position
    board, eyes, events = started((3, 1))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    assert board.match.game.play_complete()
    seldom.command(board, "correct_setup", {})
    assert events[-1] == {"ev": "correct_setup", "player": WHITE, "seq": 0}
    game = board.match.game
    assert game.player == WHITE and game.turn.dice == (3, 1) and not game.turn.moves
    assert game.position == Position.initial()
    missing, extra = board.verify()
    assert sorted(missing) == [(WHITE, 6), (WHITE, 8)] and extra == [(WHITE, 5)]
    eyes.carry(WHITE, 5, 8)
    eyes.carry(WHITE, 5, 6)
    eyes.carry(WHITE, 24, 21)  # a correct play then made
    eyes.carry(WHITE, 21, 20)
    board.roll((6, 5))  # black's throw: the setup stands now
    raises(ValueError, seldom.command, board, "correct_setup", {})
    assert "the setup stands" in str(raises(ValueError, seldom.correct_setup, board))
    assert kinds(events)[-2:] == ["play", "roll"]
    assert events[-2]["moves"] == [[24, 21, False], [21, 20, False]]


def test_a_demanded_gammon_agreed_or_refused():
    """"the player accepting the forfeit must decide whether to accept the forfeit as a single
    loss or to require the opponent to forfeit to a gammon. If a forfeit is refused play
    continues." (rules-pc-gammon): the acceptor's demand, then the resigner's answer."""
    from board import seldom
    board, eyes, events = started((3, 1), length=7)
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.resign(1)  # black offers a single
    raises(ValueError, seldom.demand, board, 1)  # no more than offered
    seldom.demand(board, GAMMON)  # white requires a gammon
    assert events[-1]["ev"] == "demand" and events[-1]["player"] == WHITE
    board.answer_resignation(False)  # black plays on
    assert events[-1]["ev"] == "reject" and events[-1]["player"] == BLACK
    assert board.match.game.resignation is None and not board.match.game.is_over()
    board.resign(1)
    seldom.demand(board, GAMMON)
    board.answer_resignation(True)  # black agrees
    assert kinds(events)[-3:] == ["demand", "accept", "result"]
    assert events[-2]["player"] == BLACK
    assert events[-1]["points"] == 2 and events[-1]["level"] == GAMMON
    assert events[-1]["winner"] == WHITE and events[-1]["how"] == "resigned"


def test_a_match_over_a_number_of_games_ends_after_the_last_one():
    """"the winner of the match determined by a tally of total points (based on the number
    of games won and lost) after the final game in an agreed-upon number of games"
    (rules-instructions-match-play): the board's match of 2 games, resumed from a compacted
    journal between them, ends after the second with the higher total; level: no winner."""
    path = tmpdir()
    try:
        journal = Journal(FlashStorage(path))
        board, eyes, events, emit = rig((3, 1), (3, 1), journal=journal)
        board.new_match(0, None, 2)
        assert events[-1]["games"] == 2 and board.state()["settings"]["games"] == 2
        for n in (1, 2):
            eyes.start()
            board.roll()
            eyes.carry(WHITE, 8, 5)
            eyes.carry(WHITE, 6, 5)
            board.resign(n)  # black: a single, then a gammon
            board.answer_resignation(True)
            if n == 1:
                assert kinds(events)[-1] == "result" and board.phase == OVER
                journal.compact(board.snapshot())
                board = eyes.board = journal = None  # the power goes, and the old board
                gc.collect()
                board = Controller(SimClock(), Dice((3, 1)), Journal(FlashStorage(path)), None,
                              emit)
                board.resume()
                eyes.board = board
        assert kinds(events)[-2:] == ["result", "match_over"] and board.phase == IDLE
        assert events[-1]["winner"] == WHITE and events[-1]["score"] == [3, 0]
        board.on_buttons(MENU)  # another, with the same settings
        assert events[-1]["ev"] == "match" and events[-1]["games"] == 2
        raises(ValueError, board.new_match, 0, None, 300)
    finally:
        rmtree(path)
