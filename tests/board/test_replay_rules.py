# The journal replays the seldom rule events (#18): a rethrow of cocked dice, a voided play and
# the acceptor's demand, each followed by a power cut (the shut-out pass: test_replay_pass).
# Apart from test_controller_rules (a file of its own: one interpreter, a fresh heap): in
# 160K there, the modules its other tests loaded left too little for the board built after
# the cut.
import gc

from bgcore import GAMMON
from board.controller import Controller
from board.journal import Journal
from board.storage import FlashStorage
from board_support import BLACK, WHITE, Dice, rmtree, tmpdir
from chouette_support import Clock as SimClock, rig


def test_a_rethrow_a_void_and_a_demand_survive_a_power_cut():
    """The journal replays what Lowe's laws 9-10 and the acceptor's demand changed: after a
    power cut the board resumes with the dice thrown again, the voided play's thrower to
    throw again, and the demand waiting for the resigner's answer."""
    from board import seldom
    path = tmpdir()
    try:
        board, eyes, events, emit = rig((3, 1), journal=Journal(FlashStorage(path)))
        board.new_match(3)
        eyes.start()
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        board.roll((6, 5))  # black's, cocked
        seldom.irregular(board, "rethrow", (4, 2))
        board = None  # the board is eyes.board alone, which the power cut takes

        def power_cut():
            before = eyes.board.state()
            eyes.board = None  # the power goes: so does the old board's RAM
            gc.collect()
            eyes.board = Controller(SimClock(), Dice((5, 2)), Journal(FlashStorage(path)), None,
                               emit)
            eyes.board.resume()
            eyes.board.on_sensed(eyes.sensed)  # the sensors report the checkers
            assert eyes.board.state() == before

        power_cut()
        assert eyes.board.match.game.turn.dice == (4, 2)
        assert eyes.board.match.game.player == BLACK
        eyes.carry(BLACK, 13, 9)
        seldom.irregular(eyes.board, "void")
        power_cut()
        game = eyes.board.match.game
        assert game.turn is None and game.on_roll == BLACK and game.rolls == [1, 0]
        game = None
        # the checker goes back
        assert eyes.board.verify() == ([(BLACK, 13)], [(BLACK, 9)])
        eyes.carry(BLACK, 9, 13)
        eyes.board.resign(1)  # black, before throwing again
        seldom.demand(eyes.board, GAMMON)
        power_cut()
        assert eyes.board.match.game.resignation == (BLACK, GAMMON, 1)  # demanded
        eyes.board.answer_resignation(True)  # black agrees to the gammon
        assert events[-1]["ev"] == "result" and events[-1]["level"] == GAMMON
        assert events[-1]["points"] == 2 and events[-1]["winner"] == WHITE
    finally:
        rmtree(path)



def test_a_corrected_setup_survives_a_power_cut():
    """"either player may require its correction before a subsequent throw of the dice"
    (rules-pc-gammon): after a power cut the journal's correct_setup leaves the opening
    player to play the opening numbers again from the setup."""
    from board import seldom
    path = tmpdir()
    try:
        board, eyes, events, emit = rig((3, 1), journal=Journal(FlashStorage(path)))
        board.new_match(3)
        eyes.start()
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        seldom.correct_setup(board)
        before = board.state()
        board = None
        eyes.board = None  # the power goes: so does the old board's RAM
        gc.collect()
        eyes.board = Controller(SimClock(), Dice((5, 2)), Journal(FlashStorage(path)), None, emit)
        eyes.board.resume()
        eyes.board.on_sensed(eyes.sensed)
        assert eyes.board.state() == before
        game = eyes.board.match.game
        assert game.player == WHITE and game.turn.dice == (3, 1) and not game.turn.moves
        assert eyes.board.verify() == ([(WHITE, 6), (WHITE, 8)], [(WHITE, 5)])
    finally:
        rmtree(path)
