# A full archive (board.archive) as the players meet it: the board refuses a new match in
# words and on the LEDs, drops nothing, and takes a new match once the host has acked what it
# kept. Apart from test_archive: with the controller and bgcore beside the journal tests,
# that file's interpreter ran out of its 160K. CPython and MicroPython alike.
from board.archive import Archive
from board.controller import Controller, NotCommitted
from board.journal import Journal
from board.storage import FlashStorage
from board_support import Dice, rmtree, tmpdir
from sim.clock import SimClock


def test_a_full_archive_refuses_a_new_match_in_words_and_on_the_leds_until_the_host_acks():
    d = tmpdir("bgboard-archive")
    try:
        last = [None]  # the last message to the host (a list of all would fill the heap)

        def tell(msg):
            last[0] = msg

        j = Journal(FlashStorage(d), max_bytes=4000, keep=4)
        Archive(j, 20000)  # refuses with less than a journal's 4000 bytes free
        board = Controller(SimClock(), Dice(), j, None, tell)
        started = 0
        try:
            while started < 100:
                board.new_match(1)  # the players start match after match, host unplugged
                started += 1
        except NotCommitted as e:
            why = str(e)
        assert 5 < started < 100 and j.last_seq == started
        assert why.startswith("the archive of past matches is full (")
        assert last[0] == {"live": "refused", "reason": why}
        assert board.refused_until is not None  # the LEDs show it
        assert [e["seq"] for e in j.since(0)] == list(range(1, started + 1))  # none dropped
        j.archive.trim(started)  # the host has them all
        board.new_match(1)
        assert j.last_seq == started + 1
    finally:
        rmtree(d)
