# The journal replays a shut-out pass (#18, rule option shut_out_pass) after a power cut. A
# file of its own, as test_replay_rules: beside that file's test, one interpreter ran out
# near its 160K edge (the board rebuilt after the cut needs a fresh heap).
import gc

from bgcore import Rules
from board.controller import PLAYING, Controller
from board.journal import Journal
from board.storage import FlashStorage
from bgwire import ROLL
from board_support import BLACK, WHITE, Dice, rmtree, tmpdir
from chouette_support import Clock as SimClock, rig


def test_a_shut_out_pass_survives_a_power_cut():
    """Rule option shut_out_pass ("Though he does not roll the dice, since he cannot make a
    checker play, he still has the right to double", rules-cube-match-chouette): the Roll
    button's pass is journaled on top of a snapshot of the shut-out position; after a power
    cut the board resumes with the opponent to throw."""
    from bgcore import Match, Position, encode_match_id
    path = tmpdir()
    try:
        rules = Rules(shut_out_pass=True)
        board, eyes, events, emit = rig((3, 1), journal=Journal(FlashStorage(path)))
        board.new_match(0, rules)
        black = [0] * 26
        white = [0] * 26
        black[25], black[13] = 1, 14
        for p in (1, 2, 3, 4, 5, 6):
            white[p] = 2
        white[8] = 3
        mid = encode_match_id({
            "cube": 1, "cube_owner": None, "on_roll": BLACK, "crawford": False,
            "game_state": "playing", "turn": BLACK, "double_offered": False,
            "resignation": 0, "dice": [], "match_length": 0, "score": [0, 0],
            "jacoby": False})
        board.match = Match.from_match_id(mid, Position(black, white), rules)
        board.phase = PLAYING
        board.journal.compact(board.snapshot())  # the shut-out position, on flash
        eyes.show(white, black)
        board.on_buttons(ROLL)  # black, on the bar against a closed board: a pass
        assert events[-1]["ev"] == "pass" and events[-1]["player"] == BLACK
        before = board.state()
        board = eyes.board = None  # the power goes
        gc.collect()
        assert [e["ev"] for e in Journal(FlashStorage(path)).recover()[1]] == ["pass"]
        board = Controller(SimClock(), Dice((3, 1)), Journal(FlashStorage(path)), None, emit)
        board.resume()
        eyes.board = board
        board.on_sensed(eyes.sensed)
        assert board.state() == before and board.match.game.on_roll == WHITE
        board.on_buttons(ROLL)
        assert events[-1]["ev"] == "roll" and events[-1]["player"] == WHITE
    finally:
        rmtree(path)
