# Power cuts at the end of a game (board.controller resume): the last action and the game's
# result are separate journal lines, and a cut between them must not lose the result. Its own
# file: one MicroPython interpreter per file, and these many restarts fragment its heap.
from board.controller import IDLE, PLAYING, Controller
from board.journal import Journal
from board.storage import FlashStorage
from board_support import Dice, Eyes, rmtree, tmpdir
from faulty_storage import FaultyStorage, PowerCut
from sim.clock import SimClock


def kinds(events):
    return [e["ev"] for e in events]


def test_a_power_cut_before_the_result_is_written_commits_it_on_resume():
    # A 1-point match ended by an accepted resignation: the accept, the result and the
    # match's end are three journal lines. Cut the power throughout them: the board comes
    # back either still waiting for the answer, or with the match over, its result and end
    # in the journal exactly once.
    def play(path, cut_at=-1):
        storage = FaultyStorage(path, cut_at)
        board = Controller(SimClock(), Dice((3, 1)), Journal(storage), None, lambda m: None)
        eyes = Eyes(board)
        board.new_match(1)
        eyes.start()
        board.roll()
        board.resign(1)
        start = storage.steps
        board.answer_resignation(True)
        return start, storage.steps

    path = tmpdir()
    try:
        start, end = play(path)
    finally:
        rmtree(path)
    finished = 0
    for cut in range(start, end + 1, 5):
        path = tmpdir()
        try:
            try:
                play(path, cut)
            except PowerCut:
                pass
            again = Controller(SimClock(), Dice(), Journal(FlashStorage(path)), None,
                               lambda m: None)
            again.resume()
            evs = kinds(Journal(FlashStorage(path)).since(0))
            if "accept" in evs:
                finished += 1
                assert evs.count("result") == 1 and evs[-2:] == ["result", "match_over"], evs
                assert again.phase == IDLE and again.match.score == [0, 1]
            else:
                assert again.phase == PLAYING and again.match.game.resignation, cut
        finally:
            rmtree(path)
    assert finished > 20  # most cuts fall after the accept line


def test_a_made_up_result_in_the_journal_does_not_replay():
    # Issue 29: a line with a good CRC appended to a finished match,
    # {"ev": "result", "winner": 7, "points": -3, ...}, was replayed: the board journaled a
    # second match_over and the host recorded both. Replay checks a result and a match's
    # end against the game as the live path makes them: such a journal will not replay (the
    # App then keeps it aside and starts clean).
    path = tmpdir()
    try:
        board = Controller(SimClock(), Dice((3, 1)), Journal(FlashStorage(path)), None,
                           lambda m: None)
        Eyes(board).start()
        board.new_match(1)
        Eyes(board).start()
        board.roll()
        board.resign(1)
        board.answer_resignation(True)
        good = list(Journal(FlashStorage(path)).since(0))
        assert kinds(good)[-2:] == ["result", "match_over"]
        for extra in ({"ev": "result", "winner": 7, "points": -3, "level": 9, "how": "x",
                       "score": [0, 1]},
                      {"ev": "match_over", "winner": 0, "score": [1, 0]},
                      dict(good[-2], seq=None)):
            copy = tmpdir()
            try:
                j = Journal(FlashStorage(copy))
                for ev in good:
                    j.append({k: v for k, v in ev.items() if k != "seq"})
                j.append({k: v for k, v in extra.items() if k != "seq"})
                again = Controller(SimClock(), Dice(), Journal(FlashStorage(copy)), None,
                                   lambda m: None)
                try:
                    again.resume()
                    raise AssertionError("replayed %r" % extra)
                except ValueError:
                    pass
            finally:
                rmtree(copy)
        # The genuine journal still replays to the match's end.
        again = Controller(SimClock(), Dice(), Journal(FlashStorage(path)), None,
                           lambda m: None)
        again.resume()
        assert again.phase == IDLE and kinds(Journal(FlashStorage(path)).since(0)) == \
            kinds(good)
    finally:
        rmtree(path)
