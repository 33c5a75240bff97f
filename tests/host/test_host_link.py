"""The protocol client (bgboard.link) and transports (bgboard.transport): handshake, version
refusal, replies matched by id, timeouts, lines that are not protocol, events in order
without gaps or duplicates, journal catch-up and resync, and, over a real PTY and a TCP
socket, exclusive opening and reconnecting after the link is pulled."""

import json
import random
import threading
import time

import pytest

from eventgen import Odds, play_match
from fakeboard import FakeBoard, PtyBoard, SocketBoard

from bgboard.link import (CommandTimeout, Link, LinkError, LinkLost, Refused, VersionError)
from bgboard.transport import (LineBuffer, PortBusy, PortMissing, ScriptedTransport,
                               SerialTransport)


def ev(name="roll", **fields):
    e = {"ev": name}
    e.update(fields or {"player": 0, "dice": [3, 1]})
    return e


class Rig:
    """A FakeBoard behind a ScriptedTransport, and a Link to it collecting everything."""

    def __init__(self, board=None, **kwargs):
        self.board = board or FakeBoard(page=3)
        self.transport = ScriptedTransport(lambda line: self.board.answer(line))
        self.events, self.status, self.problems, self.journals = [], [], [], []
        kwargs.setdefault("timeout", 0.5)
        self.link = Link(lambda: self.transport, "scripted", on_event=self.events.append,
                         on_status=self.status.append, on_problem=self.problems.append,
                         on_journal=self.journals.append, **kwargs)
        self.timelines = []
        self.link.on_timeline = lambda journal, n: self.timelines.append((journal, n))

    def seqs(self):
        return [e["seq"] for e in self.events]


def test_handshake_reads_the_whole_journal_in_pages_in_order():
    rig = Rig()
    for _ in range(10):
        rig.board.commit(ev())
    hello = rig.link.connect()
    assert hello["hello"] == "bgboard" and hello["protocol"] == 1
    assert rig.seqs() == list(range(1, 11))
    assert rig.journals == [123456789]
    cmds = [c for c, _ in rig.board.commands]
    assert cmds[0] == "hello" and cmds.count("journal") >= 4  # pages of 3


def test_an_incompatible_protocol_is_refused_naming_the_firmware_to_flash():
    rig = Rig(FakeBoard(protocol=2, firmware="0.9.0"))
    with pytest.raises(VersionError) as e:
        rig.link.connect()
    text = str(e.value)
    assert "protocol 2" in text and "0.9.0" in text and "bgboard flash" in text
    assert "\n" not in text


def test_something_else_than_a_bgboard_is_refused():
    t = ScriptedTransport(lambda line: [{"hello": "other", "ok": True, "id": 1}])
    with pytest.raises(LinkError) as e:
        Link(lambda: t, "x", timeout=0.3).connect()
    assert "bgboard flash" in str(e.value)


def test_replies_are_matched_by_id_and_strays_reported():
    rig = Rig()
    rig.link.connect()

    def answer(line):
        import json
        ident = json.loads(line)["id"]
        e = rig.board.commit(ev("double", player=0, cube=2))
        return [{"ok": True, "id": ident + 100}, e, {"ok": True, "id": ident, "said": "yes"}]

    rig.transport.board = answer
    reply = rig.link.command("double")
    assert reply["said"] == "yes"
    assert any("no waiting command" in p for p in rig.problems)
    assert rig.seqs() == [1]


def test_a_refusal_raises_refused_with_the_board_reason():
    rig = Rig(FakeBoard(handler=lambda cmd, args: {"error": "it is not your turn"}))
    rig.link.connect()
    with pytest.raises(Refused) as e:
        rig.link.command("double")
    assert "it is not your turn" in str(e.value) and e.value.reply["error"]


def test_no_answer_is_a_timeout_error():
    rig = Rig(timeout=0.2)
    rig.link.connect()
    rig.board.silent = True
    t0 = time.monotonic()
    with pytest.raises(CommandTimeout) as e:
        rig.link.command("state")
    assert time.monotonic() - t0 < 1.5
    assert "did not answer state" in str(e.value)


class AtTheRepl:
    """A board that mpremote left at MicroPython's friendly REPL: it echoes each line and
    evaluates it; Ctrl-B Ctrl-D (the soft reset that runs main.py) starts the firmware, which
    reads the rest of that line (its newline) as a bad line before it answers."""

    def __init__(self):
        self.repl = True
        self.restarted = False

    def __call__(self, line):
        if self.repl:
            if line == b"\x02\x04":
                self.repl = False
                self.restarted = True
                return [b"MicroPython v1.28.0; Raspberry Pi Pico with RP2040", b">>> ",
                        b"MPY: soft reboot", {"error": "not a JSON object"}]
            return [b">>> " + line if line.startswith(b"{") else line,
                    repr(json.loads(line)).encode(), b">>> "]
        msg = json.loads(line)
        return [{"ok": True, "id": msg["id"], "hello": "bgboard", "protocol": 1, "seq": 0,
                 "journal": 7}]


def test_a_board_at_the_repl_is_soft_reset_and_its_firmware_answers():
    board = AtTheRepl()
    t = ScriptedTransport(board)
    problems = []
    link = Link(lambda: t, "pico", timeout=0.3, on_problem=problems.append)
    assert link.connect()["hello"] == "bgboard"
    assert board.restarted and t.written.count(b"\x02\x04") == 1
    assert any("REPL" in p and "soft reset" in p for p in problems), problems


def test_a_silent_board_is_not_reset():
    # No echo, no prompt: perhaps a slow firmware; a Ctrl-D there would be a stray byte.
    t = ScriptedTransport(lambda line: [])
    link = Link(lambda: t, "quiet", timeout=0.2)
    with pytest.raises(CommandTimeout):
        link.connect()
    assert all(b"\x04" not in line for line in t.written)


def test_lines_that_are_not_protocol_are_reported_and_skipped():
    rig = Rig()
    rig.link.connect()
    t = rig.transport
    t.push(b"MicroPython v1.28 on 2026-01-01; Raspberry Pi Pico with RP2040")
    t.push(b"Traceback (most recent call last):")
    t.push(b'{"ev": "roll", "player": 0')  # truncated
    t.push(b"[1, 2, 3]")
    t.push(b'{"what": 1}')
    t.push(b'{"ev": "roll", "seq": "x"}')
    t.push_raw(b"x" * 5000 + b"\n")  # over the 4096-byte bound
    t.push(b"\xff\xfe\n")
    t.push(b'{"live": "lift", "point": 13}')
    e = rig.board.commit(ev())
    t.push(e)
    rig.link.poll(0.1)
    assert rig.seqs() == [1]
    assert len(rig.problems) == 8
    assert any("4096" in p for p in rig.problems)


def test_duplicates_are_dropped_and_gaps_filled_from_the_journal():
    rig = Rig()
    rig.link.connect()
    evs = [rig.board.commit(ev()) for _ in range(6)]
    t = rig.transport
    t.push(evs[0], evs[0], evs[1], evs[4])  # 3 and 4 missed: a gap before 5
    rig.link.poll(0.1)
    assert rig.seqs() == [1, 2, 3, 4, 5, 6]
    t.push(evs[2], evs[5])
    rig.link.poll(0.05)
    assert rig.seqs() == [1, 2, 3, 4, 5, 6]
    assert rig.link.duplicates >= 3


def test_a_board_restart_hello_makes_the_link_catch_up():
    rig = Rig()
    rig.link.connect()
    for _ in range(4):
        rig.board.commit(ev())
    rig.transport.push(rig.board.hello())  # unsolicited: the board (re)started
    rig.link.poll(0.1)
    assert rig.seqs() == [1, 2, 3, 4]


def test_a_new_journal_id_means_reading_the_new_journal_from_its_start():
    rig = Rig()
    for _ in range(5):
        rig.board.commit(ev())
    rig.link.connect()
    rig.board.restart_journal(555)
    rig.board.commit(ev("take", player=1))
    rig.board.commit(ev("drop", player=0))
    rig.transport.push(rig.board.hello())
    rig.link.poll(0.1)
    assert rig.seqs() == [1, 2, 3, 4, 5, 1, 2]
    assert rig.journals == [123456789, 555]
    assert [e["ev"] for e in rig.events[5:]] == ["take", "drop"]
    assert any("journal changed" in s for s in rig.status)


def test_a_resync_error_reads_what_the_board_keeps_and_reports_the_loss():
    board = FakeBoard(page=50)
    for _ in range(10):
        board.commit(ev())
    rig = Rig(board, last_seq=2, journal=123456789)
    board.forget_before(6)  # compacted: 3..5 are gone
    rig.link.connect()
    assert rig.seqs() == [6, 7, 8, 9, 10]
    assert any("3..5" in p and "lost" in p for p in rig.problems)


def timeline_problems(problems):
    return [p for p in problems if "timeline" in p]


def test_a_hello_with_a_shorter_journal_under_the_same_id_starts_a_new_timeline():
    rig = Rig()
    old = [rig.board.commit(ev()) for _ in range(8)]
    rig.link.connect()
    rig.board.lose_after(5)  # a damaged line cut the journal short; the id stayed
    rig.board.forget_before(2)
    rig.board.commit(ev("double", player=1, cube=2))
    rig.board.commit(ev("take", player=0))
    rig.transport.push(rig.board.hello())  # the board restarted: its journal ends at 7
    rig.link.poll(0.1)
    assert rig.events[:8] == old
    assert rig.events[8:] == rig.board.events  # read again from its first kept: 2..7
    assert rig.timelines == [(123456789, 2)]
    assert rig.link.last_seq == 7 and rig.link.timeline == 2
    said = timeline_problems(rig.problems)
    assert len(said) == 1 and "123456789.1" in said[0] and "123456789.2" in said[0]
    assert rig.problems == said  # event 1 is in the old timeline: not lost
    assert rig.journals == [123456789]


def test_a_resync_saying_the_journal_ends_before_the_last_event_starts_a_new_timeline():
    board = FakeBoard(page=4, hello_fields=False)  # older firmware: no journal id in hello
    for _ in range(10):
        board.commit(ev())
    rig = Rig(board, last_seq=10, journal=123456789)
    board.forget_before(3)
    board.lose_after(6)
    board.commit(ev("drop", player=1))
    rig.link.connect()
    assert rig.events == board.events  # what the board keeps, 3..7, from its first
    assert rig.timelines == [(123456789, 2)]
    said = timeline_problems(rig.problems)
    assert len(said) == 1 and "ends at 7" in said[0] and "123456789.2" in said[0]
    assert not [p for p in rig.problems if "lost" in p]  # 1..2 are in the old timeline


def test_a_pushed_event_reusing_a_seq_with_other_content_starts_a_new_timeline():
    rig = Rig()
    evs = [rig.board.commit(ev()) for _ in range(6)]
    rig.link.connect()
    rig.transport.push(dict(evs[4]))  # the same event again: a duplicate
    rig.link.poll(0.05)
    assert rig.events == evs and rig.timelines == [] and rig.link.duplicates == 1
    rig.board.lose_after(4)
    rig.transport.push(rig.board.commit(ev("double", player=0, cube=2)))  # another seq 5
    rig.link.poll(0.1)
    assert rig.events[:6] == evs
    assert rig.events[6:] == rig.board.events  # 1..5, the new 5 included
    assert rig.timelines == [(123456789, 2)] and rig.link.last_seq == 5
    said = timeline_problems(rig.problems)
    assert len(said) == 1 and "event 5" in said[0] and "123456789.2" in said[0]


def test_starting_from_the_last_seq_received_gives_no_duplicate():
    board = FakeBoard()
    for _ in range(9):
        board.commit(ev())
    rig = Rig(board, last_seq=7, journal=123456789)
    rig.link.connect()
    assert rig.seqs() == [8, 9]
    assert rig.journals == []


def test_one_shot_links_do_not_read_the_journal():
    board = FakeBoard()
    for _ in range(9):
        board.commit(ev())
    rig = Rig(board, sync=False, reconnect=False)
    rig.link.connect()
    assert rig.link.command("state")["ok"]
    assert [c for c, _ in board.commands] == ["hello", "state"]
    assert rig.events == []


def test_disconnect_without_reconnect_is_a_link_error():
    rig = Rig(reconnect=False)
    rig.link.connect()
    rig.transport.disconnect()
    with pytest.raises(LinkError):
        rig.link.command("state")


def test_disconnect_during_a_command_reconnects_then_says_it_may_not_have_happened():
    board = FakeBoard()
    transports = []

    def opener():
        t = ScriptedTransport(lambda line: board.answer(line))
        transports.append(t)
        return t

    status = []
    link = Link(opener, "scripted", on_status=status.append, timeout=0.5, retry_interval=0.01)
    link.connect()
    board.silent = True
    threading.Timer(0.1, transports[0].disconnect).start()
    with pytest.raises(LinkLost) as e:
        link.command("roll")
    assert "may or may not" in str(e.value)
    board.silent = False
    assert link.command("state")["ok"]
    assert "reconnecting to scripted (attempt 1)" in status


def test_line_buffer_bounds_lines_and_joins_pieces():
    problems = []
    lb = LineBuffer(16, problems.append)
    lb.feed(b'{"a"')
    lb.feed(b': 1}\r\nxxxxxxxxxxxxxxxxxxxx')
    lb.feed(b"xxxx\nok\n")
    assert lb.pop() == b'{"a": 1}'
    assert lb.pop() == b"ok"
    assert lb.pop() is None
    assert problems == ["a line of 24 bytes (over 16) was dropped"]


# --- a real PTY -------------------------------------------------------------------------------


@pytest.fixture
def pty_board():
    board = FakeBoard(page=5)
    runner = PtyBoard(board).start()
    yield runner
    runner.stop()


def test_over_a_pty_handshake_commands_and_events(pty_board):
    for _ in range(7):
        pty_board.board.commit(ev())
    got = []
    link = Link(lambda: SerialTransport(pty_board.path), pty_board.path, on_event=got.append,
                timeout=2)
    with link:
        link.connect()
        assert [e["seq"] for e in got] == list(range(1, 8))
        assert link.command("roll", dice=[5, 2])["ok"]
        assert pty_board.board.commands[-1] == ("roll", {"dice": [5, 2]})
        pty_board.push(b"garbage from the REPL\n")
        pty_board.commit(ev("double", player=1, cube=2))
        link.poll(0.3)
        assert [e["seq"] for e in got] == list(range(1, 9))
        assert link.problems == 1


def test_a_port_opens_exclusively_and_says_which_port_is_busy(pty_board):
    first = SerialTransport(pty_board.path)
    try:
        with pytest.raises(PortBusy) as e:
            SerialTransport(pty_board.path)
        assert pty_board.path in str(e.value) and "busy" in str(e.value)
    finally:
        first.close()
    SerialTransport(pty_board.path).close()  # free again


def test_a_missing_port_is_named():
    with pytest.raises(PortMissing) as e:
        SerialTransport("/dev/ttyACM-bgboard-none")
    assert "/dev/ttyACM-bgboard-none" in str(e.value) and "bgboard ports" in str(e.value)


def test_pty_pulled_and_replaced_the_link_reconnects_and_catches_up(pty_board):
    for _ in range(3):
        pty_board.board.commit(ev())
    got, status = [], []
    link = Link(lambda: SerialTransport(pty_board.path), "the board", on_event=got.append,
                on_status=status.append, timeout=2, retry_interval=0.05)
    with link:
        link.connect()
        pty_board.disconnect()
        for _ in range(4):  # committed while the cable is out: never pushed
            pty_board.board.commit(ev())
        threading.Timer(0.3, pty_board.open).start()
        deadline = time.monotonic() + 5
        while len(got) < 7 and time.monotonic() < deadline:
            link.poll(0.1)
        pty_board.commit(ev("take", player=1))
        link.poll(0.3)
    assert [e["seq"] for e in got] == list(range(1, 9))
    assert any(s.startswith("reconnecting to the board (attempt") for s in status)


# --- a TCP socket: pulled at random moments ---------------------------------------------------


def test_socket_pulled_many_times_the_events_equal_the_boards_journal():
    events, _ = play_match(random.Random(6), 9, odds=Odds(double=0.02))
    assert len(events) > 400
    board = FakeBoard(page=16)
    runner = SocketBoard(board).start()
    got, status = [], []
    link = Link(lambda: SerialTransport(runner.url), runner.url, on_event=got.append,
                on_status=status.append, timeout=2, retry_interval=0.02)
    stop = threading.Event()

    def play():  # the board commits the match, one event every millisecond or so
        for e in events:
            runner.commit(e)
            time.sleep(0.003)
        stop.set()

    def pull(rng):  # and the cable is pulled at random moments
        while not stop.is_set():
            time.sleep(rng.uniform(0.02, 0.12))
            runner.disconnect()

    try:
        link.connect()
        threads = [threading.Thread(target=play), threading.Thread(target=pull,
                                                                   args=(random.Random(5),))]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while (not stop.is_set() or len(got) < len(events)) and time.monotonic() < deadline:
            link.poll(0.05)
        for t in threads:
            t.join()
        link.poll(0.2)
    finally:
        link.close()
        runner.stop()
    assert got == board.events
    assert [e["seq"] for e in got] == list(range(1, len(events) + 1))
    assert runner.connections > 3
    assert sum(1 for s in status if s.startswith("reconnecting")) >= 3


def _acks(board):
    return [args for cmd, args in board.commands if cmd == "ack"]


def test_a_recording_link_acks_what_is_stored_after_catching_up_and_every_64_events():
    rig = Rig(ack=True)
    for _ in range(10):
        rig.board.commit(ev())
    rig.link.connect()
    assert _acks(rig.board) == [{"journal": 123456789, "seq": 10}]
    rig.transport.push(*[rig.board.commit(ev()) for _ in range(70)])
    rig.link.poll(0.2)
    assert rig.seqs() == list(range(1, 81))
    assert _acks(rig.board)[1:] == [{"journal": 123456789, "seq": 74}]  # 64 after the last


def test_the_link_lost_during_an_ack_reconnects_and_acks_again():
    """A cable pulled while poll() sends its periodic ack: the link comes back and goes on
    (poll does not raise), every event arrives once, and the ack is sent again."""
    board = FakeBoard(page=3)
    transports = []
    pulled = []

    def opener():
        def answer(line):
            if json.loads(line).get("cmd") == "ack" and not pulled:
                pulled.append(1)
                t.disconnect()  # the cable goes as the ack is written
                return []
            return board.answer(line)

        t = ScriptedTransport(answer)
        transports.append(t)
        return t

    got = []
    link = Link(opener, "scripted", on_event=got.append, timeout=0.5, retry_interval=0.01,
                ack=True)
    link.connect()  # nothing to ack yet
    transports[0].push(*[board.commit(ev()) for _ in range(70)])
    link.poll(0.3)  # the ack after 64 events loses the link: reconnect, catch up
    link.poll(0.3)
    assert pulled and len(transports) == 2
    assert [e["seq"] for e in got] == list(range(1, 71))
    assert _acks(board)[-1] == {"journal": 123456789, "seq": 70}


def test_an_event_that_could_not_be_stored_is_never_acked():
    board = FakeBoard(page=3)
    for _ in range(10):
        board.commit(ev())
    stored = []

    def store(e):
        if e["seq"] == 6:
            raise OSError(28, "No space left on device")
        stored.append(e["seq"])

    rig = Rig(board, ack=True)
    rig.link.on_event = store
    with pytest.raises(OSError):
        rig.link.connect()
    assert stored == [1, 2, 3, 4, 5] and _acks(board) == []


def test_a_link_that_does_not_record_never_acks():
    rig = Rig()
    for _ in range(100):
        rig.board.commit(ev())
    rig.link.connect()
    rig.link.poll(0.1)
    assert len(rig.seqs()) == 100 and _acks(rig.board) == []


def test_a_board_without_an_archive_is_told_once_and_not_asked_again():
    board = FakeBoard(page=3, handler=lambda cmd, args: {"error": "unknown command %s" % cmd})
    for _ in range(5):
        board.commit(ev())
    rig = Rig(board, ack=True)
    rig.link.connect()
    rig.transport.push(*[board.commit(ev()) for _ in range(100)])
    rig.link.poll(0.2)
    assert len(rig.seqs()) == 105 and len(_acks(board)) == 1
    assert [s for s in rig.status if "keeps no archive" in s] == [
        "scripted keeps no archive to acknowledge (unknown command ack)"]


def test_what_a_damaged_line_cost_the_board_is_said_once_with_the_kept_file():
    board = FakeBoard(page=3, journal_id=222)
    for _ in range(4):
        board.commit(ev())
    board.hello_extra = {"lost": [3, 9], "kept": "journal.bad", "kept_why": "repaired",
                         "kept_archive": "journal.bad-2"}
    rig = Rig(board)
    rig.link.connect()
    said = [p for p in rig.problems if "damaged" in p or "kept" in p]
    assert said == ["scripted lost events 3..9 to a damaged flash line: its journal goes on "
                    "as 222", "scripted kept journal.bad aside (repaired): `bgboard kept` "
                    "downloads it", "scripted kept its archive of past events aside as "
                    "journal.bad-2 (no journal continues it): `bgboard kept` downloads it"]
    rig.link.command("hello")  # the same start's hello again: nothing new to say
    assert [p for p in rig.problems if "damaged" in p or "kept" in p] == said
