"""`bgboard log`'s recorder: the journal file and the match files, written so that killing and
restarting the host at any moment ends with what one uninterrupted run writes."""

import json
import os
import random
import threading
import time

from eventgen import journal_of, play_match
from fakeboard import FakeBoard, SocketBoard

from bgboard.events import build_matches, read_journal
from bgboard.link import Link
from bgboard.matfile import mat_text
from bgboard.recorder import JOURNAL, Recorder
from bgboard.sgf import sgf_text
from bgboard.transport import SerialTransport

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
