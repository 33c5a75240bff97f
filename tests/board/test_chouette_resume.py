# A chouette on the board after a power cut: the board replays its journal (or restarts
# from the snapshot compaction wrote) and is where the last committed event left it: the
# answers still due, the ledger, the line-up.
from board.controller import OVER, Controller
from bgwire import DROP
from board.journal import Journal
from board.storage import FlashStorage
from board_support import BLACK, Dice, rmtree, tmpdir
from chouette_support import Clock, box_on_roll, chouette, evs


def test_a_power_cut_resumes_the_chouette_from_the_journal():
    from board import chouette_session  # loaded when a chouette starts, as on the board
    path = tmpdir()
    try:
        board, eyes, events = chouette(multiple=False, journal=Journal(FlashStorage(path)))
        box_on_roll(board, eyes)
        # Eve waits for the next game: in the journal, not the line
        chouette_session.lineup(board, "join", "Eve")
        board.cube_action("double")
        board.cube_action("take", "Bob")
        board.cube_action("drop", "Cy")  # Dee's answer is still due at the cut
        committed = board.snapshot()
        state = board.state()
        again = Controller(Clock(), Dice(), Journal(FlashStorage(path)), None, lambda m: None)
        assert again.resume() == len(evs(events))
        assert again.snapshot() == committed
        assert again.state()["chouette"] == state["chouette"]
        assert again.state()["chouette"]["pending"] == ["Dee"]
        assert again.match.chouette.joiners == ["Eve"]
        again.cube_action("take", "Dee")
        assert again.match.game.cube.value == 2 and again.match.game.cube.owner == BLACK
        assert again.state()["chouette"]["debts"] == [["Cy", "Ann", 1]]
    finally:
        rmtree(path)


def test_resume_after_compaction_keeps_the_ledger_and_the_line_up():
    path = tmpdir()
    try:
        journal = Journal(FlashStorage(path), max_bytes=4096, keep=2)
        board, eyes, events = chouette(multiple=True, journal=journal)
        for _ in range(4):  # games ended at once: box doubles all, all drop
            del events[:]
            box_on_roll(board, eyes)
            board.cube_action("double")
            for _ in range(3):
                board.on_buttons(DROP)
            assert board.phase == OVER
            eyes.start()
        assert journal.base_seq > 0  # compacted: a snapshot holds the chouette
        committed = board.snapshot()
        again = Controller(Clock(), Dice(), Journal(FlashStorage(path)), None, lambda m: None)
        again.resume()
        assert again.snapshot() == committed
        state = again.state()["chouette"]
        assert state["games"] == 4 and state["balance"]["Ann"] == 12
        assert state["captain"] == board.state()["chouette"]["captain"]
    finally:
        rmtree(path)
