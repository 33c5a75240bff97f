"""Damage to the journal of the virtual board (the firmware a Pico runs), with `bgboard log`
recording before and after it (issue 29): one flipped bit costs nothing and changes nothing
the host holds; damage that cannot be corrected keeps the journal's id, the host is told
what the board lost, and no match is logged twice (before: the repair began a new journal,
so the host logged the surviving part of the match again, a truncated .mat beside the
original). Every .mat imports into GNU Backgammon with its match's score."""

import json
import os
import queue
import signal
import subprocess
import sys
import threading

from bgboard.events import build_matches, read_journal

BIN = os.path.dirname(sys.executable)
HEAP = "352K"  # as test_sim_archive: the second power-up's state needs it


def _bgboard(*args, timeout=600):
    return subprocess.run([os.path.join(BIN, "bgboard")] + list(args), capture_output=True,
                          text=True, timeout=timeout)


def _board_events(flash):
    from board.app import ARCHIVE_BYTES
    from board.archive import Archive
    from board.journal import Journal

    journal = Journal(str(flash))
    Archive(journal, ARCHIVE_BYTES)
    return list(journal.since(journal.first_seq - 1))


STALL_S = 120  # `bgboard log` said nothing at all (no event, no word) this long: stuck


def _ctrl_c_stops():
    # In the child: Ctrl-C (SIGINT) stops it, as in a terminal, even when this test runs
    # where SIGINT is ignored (a shell's background job passes that on).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _said(proc):
    """A queue of (stream, line) for everything proc writes on stdout and stderr, read by a
    thread each as it comes, (stream, None) at the end of one. (A readline after select
    would lose lines: its buffer takes what came together, which select no longer sees.)"""
    said = queue.Queue()

    def read(stream, name):
        for line in iter(stream.readline, ""):
            said.put((name, line))
        said.put((name, None))

    for stream, name in ((proc.stdout, "out"), (proc.stderr, "err")):
        threading.Thread(target=read, args=(stream, name), daemon=True).start()
    return said


def _log(flash, out):
    """Power the board up with `bgboard log` plugged in, until the log has caught up (it
    says so once it has every event the board keeps and has acknowledged them); returns
    (the hello, what the log said on stderr)."""
    sim = subprocess.Popen([os.path.join(BIN, "bgboard"), "sim", "--flash", str(flash),
                            "--heap", HEAP], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, preexec_fn=_ctrl_c_stops)
    try:
        port = sim.stdout.readline().split()[1]
        hello = json.loads(_bgboard("send", "hello", "--port", port).stdout)
        log = subprocess.Popen([os.path.join(BIN, "bgboard"), "log", "--out", str(out),
                                "--port", port], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_stops)
        lines = _said(log)
        said = []
        ended = 0
        try:
            while ended < 2 and not any("caught up" in s for s in said):
                try:  # each event it prints (stdout) or word it says is progress
                    name, line = lines.get(timeout=STALL_S)
                except queue.Empty:
                    raise AssertionError("bgboard log said nothing for %d s before catching "
                                         "up: %s" % (STALL_S, "".join(said)[-2000:]))
                if line is None:
                    ended += 1
                elif name == "err":
                    said.append(line)
        finally:
            log.send_signal(signal.SIGINT)
            while ended < 2:
                name, line = lines.get(timeout=60)
                if line is None:
                    ended += 1
                elif name == "err":
                    said.append(line)
            log.wait(60)
        assert log.returncode == 0, "".join(said)[-2000:]
        assert any("caught up" in s for s in said), said
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(30)
    return hello, "".join(said)


def _files(out):
    return {n: (out / n).read_text() for n in sorted(os.listdir(out)) if n.endswith(".mat")}


def _recorded(out):
    with open(out / "journal.jsonl", encoding="utf-8") as f:
        return read_journal(f)


def _damage(flash, seq, bit=None):
    # Event seq's line in the journal: one bit flipped, or three bytes overwritten.
    path = flash / "journal"
    whole = path.read_bytes()
    at = whole.index(b" e%d {" % seq) + 14
    new = bytes([whole[at] ^ (1 << bit)]) if bit is not None else b"###"
    path.write_bytes(whole[:at] + new + whole[at + len(new):])


def test_a_damaged_journal_is_logged_once_and_the_host_is_told_what_the_board_lost(tmp_path):
    from test_host_gnubg import final_score, run_gnubg, troubles

    flash = tmp_path / "flash"
    for seed in (7, 2):  # two 1-point matches: compacted, the first one in the archive
        run = _bgboard("sim", "--autoplay", "--seed", str(seed), "--match", "1", "--flash",
                       str(flash), "--heap", HEAP)
        assert run.returncode == 0 and "0 mismatch(es), 0 stuck" in run.stdout, run.stderr
    events = _board_events(flash)
    last = events[-1]["seq"]
    head = json.loads((flash / "journal").read_bytes().split(b"\n")[0][11:])
    first, base = head["first"], head["base"]
    # Events on both sides of the snapshot: the spots damaged below (first + 1 before it;
    # base + 5 and last - 3, with last - 4 after it, after it).
    assert first + 1 < base < last - 5, (first, base, last)
    out = tmp_path / "log"
    hello, said = _log(flash, out)
    ident = hello["journal"]
    assert _recorded(out) == events and "warning" not in said, said
    mats = _files(out)
    assert len(mats) == 2, mats
    jsonl = (out / "journal.jsonl").read_bytes()

    # One flipped bit: corrected, nothing lost, nothing new for the host.
    whole = (flash / "journal").read_bytes()
    for seq, bit in ((base + 5, 0), (first + 1, 3), (last - 2, 6)):
        _damage(flash, seq, bit)
        hello, said = _log(flash, out)
        assert hello["journal"] == ident and hello["seq"] == last, hello
        assert "lost" not in hello and "kept" not in hello, hello
        assert (flash / "journal").read_bytes() == whole  # put right on flash
        assert "warning" not in said, said
    assert (out / "journal.jsonl").read_bytes() == jsonl and _files(out) == mats

    # Three bytes of an event the header's snapshot holds: the events up to the snapshot
    # are lost on the board; the host holds them, the board's id stays: nothing twice.
    _damage(flash, first + 1)
    hello, said = _log(flash, out)
    assert hello["journal"] == ident and hello["lost"] == [first + 1, base], hello
    assert "undone" not in hello and hello["kept"] == "journal.bad"
    assert "lost events %d..%d to a damaged flash line; they were recorded before" % (
        first + 1, base) in said, said
    assert (out / "journal.jsonl").read_bytes() == jsonl and _files(out) == mats

    # A host that had nothing (a new folder) gets the intact events before the damage (from
    # the journal's first: the log's acks freed the archive), is told which ones the board
    # lost, and the events after them.
    fresh = tmp_path / "fresh"
    hello, said = _log(flash, fresh)
    assert "lost events %d..%d to a damaged flash line: they are not recorded" % (
        first + 1, base) in said, said
    got = [e["seq"] for e in _recorded(fresh)]
    assert got == [first] + list(range(base + 1, last + 1))

    # Three bytes after the last restart point (the snapshot): the board goes back to the
    # state before them (undone). The host that holds them forks there: its files stay,
    # and a new timeline begins with its own events up to the damage, never logged twice.
    _damage(flash, last - 3)
    hello, said = _log(flash, out)
    assert hello["lost"] == [last - 3, last] and hello["undone"] is True, hello
    assert hello["journal"] == ident and hello["seq"] == last
    assert "timeline %s.2 goes on from its events up to %d, then from %d" % (
        ident, last - 4, last + 1) in said, said
    notes = [json.loads(line) for line in (out / "journal.jsonl").read_bytes()[len(jsonl):]
             .splitlines()]
    assert [(n["journal"], n["timeline"], n["from"], n["resume"]) for n in notes] == [
        (ident, 2, last - 4, last)]
    assert _files(out) == mats  # no event since: no file of the new timeline yet
    forked = build_matches(_recorded(out))
    assert len(forked) == 3 and forked[2].first_seq == forked[1].first_seq  # its prefix

    jobs = [(n, ["import mat %s" % (out / n), "show score"]) for n in mats]
    outputs = run_gnubg(str(tmp_path), jobs)
    matches = build_matches(events)
    for n in mats:
        match = next(m for m in matches if "-%06d." % m.first_seq in n)
        assert not troubles(outputs[n]), troubles(outputs[n])
        assert final_score(outputs[n]) == (len(match.games), match.over["score"]), n


def _served(flash):
    from board.app import ARCHIVE_BYTES, JOURNAL_BYTES
    from board.archive import Archive
    from board.journal import Journal

    journal = Journal(str(flash), max_bytes=JOURNAL_BYTES)
    Archive(journal, ARCHIVE_BYTES)
    served = {}
    gaps = []
    for e in journal.since(journal.first_seq - 1):
        if "lost" in e:
            gaps.append(tuple(e["lost"]))
        else:
            served[e["seq"]] = e
    return journal, served, gaps


def test_damage_anywhere_in_a_real_journal_costs_what_hello_says_and_no_more(tmp_path):
    # The firmware's own Journal and Archive (as App opens them) over the journal of two
    # 1-point matches played on the virtual board (compacted: an archive, a snapshot):
    # damage at spots all over it. One flipped bit costs nothing; four bytes overwritten
    # cost exactly the events hello's `lost` names (declared as a gap in their place), the
    # id never changes, and every other event is served as it was.
    import shutil

    flash = tmp_path / "flash"
    for seed in (7, 2):
        run = _bgboard("sim", "--autoplay", "--seed", str(seed), "--match", "1", "--flash",
                       str(flash), "--heap", HEAP)
        assert run.returncode == 0, run.stderr[-2000:]
    journal, before, gaps = _served(flash)
    ident = journal.id
    assert gaps == [] and sorted(before) == list(range(1, len(before) + 1))
    whole = (flash / "journal").read_bytes()
    copy = tmp_path / "copy"
    costs = []
    for at in range(0, len(whole) - 1, 7):
        # (Four bytes that reach the file's last newline read as a power cut in the last
        # append, which never returned: its event is passed over, not declared lost.)
        smashed = () if at + 4 >= len(whole) else (whole[:at] + b"####" + whole[at + 4:],)
        for damaged in (whole[:at] + bytes([whole[at] ^ (1 << (at % 8))]) + whole[at + 1:],
                        ) + smashed:
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(flash, copy)
            (copy / "journal").write_bytes(damaged)
            journal, after, gaps = _served(copy)
            assert journal.id == ident, at
            lost = journal.lost
            want = list(range(lost[0], lost[1] + 1)) if lost else []
            declared = [s for first, last in gaps for s in range(first, last + 1)]
            assert declared == want, (at, gaps, lost)  # one gap, or two that meet
            gone = [s for s in before if after.get(s) != before[s]]
            assert gone == want, at
            if damaged[at + 1:at + 2] == whole[at + 1:at + 2]:  # the flipped bit
                assert lost is None and journal.kept is None, at
            costs.append(len(gone))
    costs.sort()
    print("%d damaged spots: events lost min %d median %d max %d" % (
        len(costs), costs[0], costs[len(costs) // 2], costs[-1]))
