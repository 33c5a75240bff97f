# Write ahead: an event that cannot be stored is refused and changes nothing. The board's RAM
# is never ahead of its journal, and what the host was told is what the flash replays.
# Whole matches with writes failing at random: tests/soak/soak_faults.py.
from board.controller import IDLE, Controller
from bgwire import ROLL
from board.journal import Journal
from board_support import WHITE, Dice, Eyes, rmtree, tmpdir
from faulty_storage import FailingStorage
from sim.clock import SimClock


def _events(messages):
    return [m for m in messages if "ev" in m]


def _replayed(path):
    # What a board powered up on this flash comes back to.
    again = Controller(SimClock(), Dice(), Journal(FailingStorage(path)), None, lambda m: None)
    again.resume()
    return again.snapshot()


def test_a_play_that_cannot_be_stored_is_refused_and_nothing_changes():
    path = tmpdir()
    try:
        storage = FailingStorage(path)
        messages = []
        board = Controller(SimClock(), Dice((3, 1), (6, 5)), Journal(storage), None,
                      messages.append)
        eyes = Eyes(board)
        board.new_match(5)
        eyes.start()
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        before = board.snapshot()
        told = len(_events(messages))
        storage.fail_next()
        board.on_buttons(ROLL)  # the opponent throws: white's play would be committed
        assert storage.failures == 1
        assert len(_events(messages)) == told  # the host heard of nothing
        refused = messages[-1]
        assert refused["live"] == "refused" and "could not store" in refused["reason"]
        assert board.refused_until is not None  # the LEDs show it
        assert board.snapshot() == before == _replayed(path)
        # The flash works again: the checkers still stand as played, and the same press
        # commits that play.
        board.tick()
        board.on_buttons(ROLL)
        play, roll = _events(messages)[-2:]
        assert play["ev"] == "play" and play["moves"] == [[8, 5, 0], [6, 5, 0]]
        assert roll["ev"] == "roll" and roll["seq"] == play["seq"] + 1 == told + 2
        assert board.snapshot() == _replayed(path)
    finally:
        rmtree(path)


def test_a_new_match_that_cannot_be_stored_is_not_started():
    path = tmpdir()
    try:
        storage = FailingStorage(path)
        messages = []
        board = Controller(SimClock(), Dice(), Journal(storage), None, messages.append)
        storage.fail_next()
        try:
            board.new_match(5)
            raise AssertionError("a match started that the flash does not hold")
        except ValueError as e:
            assert "could not store" in str(e)
        assert board.match is None and board.phase == IDLE and not _events(messages)
    finally:
        rmtree(path)
