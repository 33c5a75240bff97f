"""`bgboard log`'s recorder: the journal file and the match files, written so that killing and
restarting the host at any moment ends with what one uninterrupted run writes."""

import json
import os
import random
import threading
import time

from eventgen import journal_of, play_match
from fakeboard import FakeBoard, SocketBoard

from bgboard import __version__
from bgboard.events import build_matches, read_journal
from bgboard.link import Link
from bgboard.matfile import mat_text
from bgboard.recorder import JOURNAL, Recorder
from bgboard.sgf import sgf_text
from bgboard.transport import ScriptedTransport, SerialTransport

JOURNAL_ID = 123456789


def session():
    """A 3-point match, then a money session, then a 1-point match: three file sets."""
    runs = [play_match(random.Random(21), 3)[0],
            play_match(random.Random(22), 0, games=2)[0],
            play_match(random.Random(23), 1)[0]]
    return journal_of(*runs)


def snapshot(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def record_all(folder, events):
    rec = Recorder(str(folder), fsync=False)
    rec.on_journal(JOURNAL_ID)
    for e in events:
        rec.on_event(e)
    rec.close()
    return snapshot(folder)


def test_one_run_writes_the_journal_and_a_file_set_per_match(tmp_path):
    events = session()
    files = record_all(tmp_path, events)
    names = sorted(files)
    assert JOURNAL in names
    mats = [n for n in names if n.endswith(".mat")]
    sgfs = [n for n in names if n.endswith(".sgf")]
    assert len(mats) == 3 and len(sgfs) == 3
    assert sum(n.startswith("money-") for n in mats) == 1
    assert not [n for n in names if n.endswith(".tmp")]
    lines = files[JOURNAL].decode().splitlines()
    assert json.loads(lines[0]) == {"journal": JOURNAL_ID, "host": "bgboard 0.1.0"}
    assert [json.loads(ln) for ln in lines[1:]] == events
    # the files are exactly what export builds from the journal
    matches = build_matches(read_journal(lines))
    for m in matches:
        kind = "money" if m.length == 0 else "match"
        base = "%s-%d-%06d" % (kind, JOURNAL_ID, m.first_seq)
        assert files[base + ".mat"].decode() == mat_text(m)
        assert files[base + ".sgf"].decode() == sgf_text(m)


def test_killed_and_restarted_anywhere_the_files_equal_one_uninterrupted_run(tmp_path):
    events = session()
    whole = record_all(tmp_path / "whole", events)
    rng = random.Random(7)
    for trial in range(4):
        folder = tmp_path / ("pieces%d" % trial)
        cuts = sorted(rng.sample(range(1, len(events)), 6))
        rec = Recorder(str(folder), fsync=False)
        rec.on_journal(JOURNAL_ID)
        for k, e in enumerate(events):
            if k in cuts:
                # the host dies, perhaps while writing a line...
                rec.close()
                if rng.random() < 0.5:
                    with open(os.path.join(folder, JOURNAL), "ab") as f:
                        f.write(json.dumps(e).encode()[:rng.randint(1, 20)])
                # ...and starts again on the same folder; the link asks the board for the
                # events after the last seq recorded (and may send some twice)
                rec = Recorder(str(folder), fsync=False)
                assert rec.journal == JOURNAL_ID and rec.last_seq == e["seq"] - 1
                rec.on_journal(JOURNAL_ID)
                for old in events[max(0, k - 2):k]:
                    rec.on_event(old)
            rec.on_event(e)
        rec.close()
        assert snapshot(folder) == whole


def test_a_new_board_journal_is_noted_and_its_seqs_start_again(tmp_path):
    first = play_match(random.Random(31), 1)[0]
    second = play_match(random.Random(32), 1)[0]
    rec = Recorder(str(tmp_path))
    rec.on_journal(111)
    for e in first:
        rec.on_event(e)
    rec.on_journal(222)
    for e in second:
        rec.on_event(e)
    rec.close()
    again = Recorder(str(tmp_path))
    assert again.journal == 222 and again.last_seq == second[-1]["seq"]
    again.close()
    names = os.listdir(tmp_path)
    assert "match-111-000001.mat" in names and "match-222-000001.mat" in names
    with open(tmp_path / JOURNAL) as f:
        events = read_journal(f)
    assert len(build_matches(events)) == 2


def test_recording_through_the_link_with_the_cable_pulled_and_the_host_restarted(tmp_path):
    """The board plays a match; the link drops at random moments and the host process is
    replaced twice (a new Link and Recorder on the same folder): the recorded journal equals
    the board's, event for event, and the files equal an uninterrupted run's."""
    events = play_match(random.Random(41), 5)[0]
    whole = record_all(tmp_path / "whole", events)
    board = FakeBoard(page=10)
    runner = SocketBoard(board).start()
    folder = str(tmp_path / "live")
    done = threading.Event()

    marks = [len(events) // 3, 2 * len(events) // 3]
    restarted = [threading.Event(), threading.Event()]

    def play():
        for e in events:
            runner.commit(e)
            time.sleep(0.002)
            if e["seq"] in marks:  # the host dies and restarts once it has this event
                restarted[marks.index(e["seq"])].wait(10)
        done.set()

    def pull(rng):
        while not done.is_set():
            time.sleep(rng.uniform(0.03, 0.15))
            runner.disconnect()

    def host():
        rec = Recorder(folder)
        link = rec.attach(Link(lambda: SerialTransport(runner.url), runner.url, timeout=2,
                               retry_interval=0.02))
        link.connect(wait=True)
        return rec, link

    threads = [threading.Thread(target=play), threading.Thread(target=pull,
                                                               args=(random.Random(9),))]
    rec, link = host()
    for t in threads:
        t.start()
    restarts = 0
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            link.poll(0.05)
            if restarts < 2 and rec.last_seq >= marks[restarts]:
                link.close()  # the host process dies
                rec.close()
                rec, link = host()
                restarted[restarts].set()
                restarts += 1
            if done.is_set() and rec.last_seq == len(events):
                break
        for t in threads:
            t.join()
    finally:
        link.close()
        rec.close()
        runner.stop()
    assert restarts == 2
    assert snapshot(folder) == whole


class Host:
    """A Recorder on `folder` and a Link to `board` over an in-memory transport."""

    def __init__(self, folder, board):
        self.problems = []
        self.rec = Recorder(str(folder), fsync=False)
        self.transport = ScriptedTransport(board.answer)
        self.link = self.rec.attach(Link(lambda: self.transport, "scripted", timeout=0.5,
                                         on_problem=self.problems.append))
        self.link.connect()

    def catch_up(self, board):
        """Poll until the board's last event is recorded (every event rewrites files)."""
        deadline = time.monotonic() + 10
        while self.link.last_seq != board.last and time.monotonic() < deadline:
            self.link.poll(0.05)
        self.link.poll(0.05)

    def close(self):
        self.link.close()
        self.rec.close()


def cut_short(folder, board):
    """Record a 3-point match, then the board comes back (same journal id) with its journal
    cut in the middle of it and plays a 1-point match. Returns the Host, the folder before
    the cut and k, the last seq the board kept."""
    board.journal_id = JOURNAL_ID
    for e in play_match(random.Random(51), 3)[0]:
        board.commit(e)
    host = Host(folder, board)
    before = snapshot(folder)
    k = board.last // 2
    board.lose_after(k)
    host.transport.push(board.hello())  # the board restarted: its journal ends at k
    for e in play_match(random.Random(52), 1)[0]:
        host.transport.push(board.commit(e))  # its seqs from k + 1 again
    host.catch_up(board)
    return host, before, k


def new_lines(before, after):
    """The journal lines written after `before`, which must be left as they were."""
    assert after[JOURNAL].startswith(before[JOURNAL])
    return [json.loads(ln) for ln in after[JOURNAL][len(before[JOURNAL]):].decode().splitlines()]


def timeline_2_names(events, k):
    base = "match-%d.2-%06d" % (JOURNAL_ID, 1), "match-%d.2-%06d" % (JOURNAL_ID, k + 1)
    assert events[k]["ev"] == "match" and events[k]["seq"] == k + 1
    return sorted(b + x for b in base for x in (".mat", ".sgf"))


def test_a_journal_cut_short_under_the_same_id_is_recorded_as_a_new_timeline(tmp_path):
    board = FakeBoard(page=10)
    host, before, k = cut_short(tmp_path, board)
    host.close()
    after = snapshot(tmp_path)
    # the old timeline stays as it was: its journal lines and its files
    assert {n: after[n] for n in before if n != JOURNAL} == \
        {n: before[n] for n in before if n != JOURNAL}
    lines = new_lines(before, after)
    assert lines[0] == {"journal": JOURNAL_ID, "timeline": 2, "host": "bgboard " + __version__}
    assert lines[1:] == board.events  # all the board keeps, the new match included
    assert sorted(set(after) - set(before)) == timeline_2_names(board.events, k)
    matches = build_matches(board.events)
    assert after["match-%d.2-%06d.mat" % (JOURNAL_ID, k + 1)].decode() == mat_text(matches[-1])
    said = [p for p in host.problems if "timeline" in p]
    assert len(said) == 1 and "%d.1" % JOURNAL_ID in said[0] and "%d.2" % JOURNAL_ID in said[0]
    # read back for export, the two timelines stay apart: the old match whole, then the
    # board's kept events as matches of their own
    exported = build_matches(read_journal(after[JOURNAL].decode().splitlines()))
    old = build_matches(read_journal(before[JOURNAL].decode().splitlines()))
    assert [mat_text(m) for m in exported] == [mat_text(m) for m in old + matches]


def test_a_pushed_event_reusing_a_recorded_seq_starts_a_new_timeline(tmp_path):
    board = FakeBoard(journal_id=JOURNAL_ID, page=10)
    for e in play_match(random.Random(53), 3)[0]:
        board.commit(e)
    host = Host(tmp_path, board)
    before = snapshot(tmp_path)
    host.transport.push(board.events[-1], board.events[-3])  # sent again: duplicates
    host.link.poll(0.05)
    assert snapshot(tmp_path) == before and host.link.duplicates == 2
    k = board.last - 5
    board.lose_after(k)
    for e in play_match(random.Random(54), 1)[0]:
        host.transport.push(board.commit(e))  # live, from seq k + 1 again, then beyond
    host.catch_up(board)
    host.close()
    after = snapshot(tmp_path)
    assert {n: after[n] for n in before if n != JOURNAL} == \
        {n: before[n] for n in before if n != JOURNAL}
    lines = new_lines(before, after)
    assert lines[0]["timeline"] == 2 and lines[1:] == board.events
    assert sorted(set(after) - set(before)) == timeline_2_names(board.events, k)
    said = [p for p in host.problems if "timeline" in p]
    assert len(said) == 1 and "event %d" % (k + 1) in said[0]


def test_reopened_after_a_new_timeline_the_recorder_goes_on_with_it(tmp_path):
    more = play_match(random.Random(55), 1)[0]
    whole_board = FakeBoard(page=10)
    host, _, _ = cut_short(tmp_path / "whole", whole_board)
    for e in more:
        host.transport.push(whole_board.commit(e))
    host.catch_up(whole_board)
    host.close()
    whole = snapshot(tmp_path / "whole")

    board = FakeBoard(page=10)
    host, _, _ = cut_short(tmp_path / "again", board)
    host.close()  # the host stops; the board goes on
    for e in more:
        board.commit(e)
    rec = Recorder(str(tmp_path / "again"), fsync=False)
    assert (rec.journal, rec.timeline, rec.last_seq) == (JOURNAL_ID, 2, board.last - len(more))
    rec.close()
    host = Host(tmp_path / "again", board)  # reads the board's journal after that seq
    host.catch_up(board)
    host.close()
    assert not host.problems
    assert host.link.timeline == 2 and host.link.last_seq == board.last
    assert snapshot(tmp_path / "again") == whole
    assert "match-%d.2-%06d.mat" % (JOURNAL_ID, board.last - len(more) + 1) in whole


def test_two_recorders_cannot_share_a_folder(tmp_path):
    import pytest

    from bgboard.recorder import RecorderBusy

    first = Recorder(str(tmp_path))
    try:
        with pytest.raises(RecorderBusy) as e:
            Recorder(str(tmp_path))
        assert str(tmp_path) in str(e.value)
    finally:
        first.close()
    Recorder(str(tmp_path)).close()
