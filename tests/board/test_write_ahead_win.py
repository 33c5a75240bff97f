# Write ahead, the last checker: a winning play the flash refuses does not end the game in
# RAM. Apart from test_write_ahead (160K: its heap has no room for a second position).
from board.controller import Controller
from board.journal import Journal
from board_support import WHITE, Dice, Eyes, rmtree, tmpdir
from faulty_storage import FailingStorage
from sim.clock import SimClock


def _events(messages):
    return [m for m in messages if "ev" in m]


def _replayed(path):
    again = Controller(SimClock(), Dice(), Journal(FailingStorage(path)), None, lambda m: None)
    again.resume()
    return again.snapshot()


def test_a_winning_play_that_cannot_be_stored_does_not_end_the_game():
    """The last checker borne off, its play refused by the flash: the game is not over in
    RAM (no result may be journaled without the play before it); once the flash works, the
    play and then the result are committed."""
    from bgcore import Match, Position, encode_match_id
    path = tmpdir()
    try:
        storage = FailingStorage(path)
        messages = []
        journal = Journal(storage)
        board = Controller(SimClock(), Dice((6, 5)), journal, None, messages.append)
        eyes = Eyes(board)
        board.new_match(5)
        white = [0, 0, 1] + [0] * 23  # white's last checker, on its 2-point
        black = [0] * 26
        for p in (13, 8, 6):
            black[p] = 5
        board.match = Match.from_match_id(encode_match_id({
            "cube": 1, "cube_owner": None, "on_roll": WHITE, "crawford": False,
            "game_state": "playing", "turn": WHITE, "double_offered": False,
            "resignation": 0, "dice": [], "match_length": 5, "score": [0, 0],
            "jacoby": False}), Position(white, black))
        board.phase = "playing"
        journal.compact(board.snapshot())  # the flash holds this position
        eyes.show(white, black)
        board.roll()
        eyes.lift(WHITE, 2)
        eyes.put(WHITE, 0)  # into the tray
        told = len(_events(messages))
        storage.fail_next()
        board.clock.advance(1600)
        board.tick()  # off it is: the winning play would be committed, and is refused
        assert storage.failures == 1 and len(_events(messages)) == told
        assert not board.match.game.is_over()
        board.tick()  # the flash works again: the next look commits play, then result
        assert [e["ev"] for e in _events(messages)[told:]] == ["play", "result"]
        assert board.snapshot() == _replayed(path)
    finally:
        rmtree(path)
