# A damaged line costs the least it can (issue 29): one flipped bit anywhere in the journal
# is corrected (CRC-32 says which bit) and costs nothing; damage that cannot be corrected
# keeps the journal's id, its archive and every intact event before it, and a declared gap
# stands for what was really lost. CPython and MicroPython alike.
import os

from board.archive import Archive
from board.journal import Journal
from board.storage import FlashStorage
from board_support import rmtree, tmpdir

from test_journal import _event, _put, _raw, _state, _strip

MAX = 2000  # the journal's budget: compacts about every 20 events
KEEP = 4


def _open(d):
    j = Journal(FlashStorage(d), max_bytes=MAX, keep=KEEP)
    j.snapshot = lambda: _state(j.last_seq)
    Archive(j, 60000)
    return j


def _play(j, upto, marks=()):
    while j.last_seq < upto:
        j.append(_event(j.last_seq + 1))
        if j.last_seq in marks:
            j.mark(lambda: _state(j.last_seq))


def _served(j):
    """What since() gives from the oldest event: seqs, and ("lost", first, last, undone) for
    a declared gap; each event checked against what was appended under its seq."""
    out = []
    for e in j.since(j.first_seq - 1):
        if "lost" in e:
            out.append(("lost", e["lost"][0], e["lost"][1], e["undone"]))
        else:
            assert _strip(e) == _event(e["seq"]), e
            out.append(e["seq"])
    return out


def _smash(d, seq, width=3):
    # width bytes of event seq's line overwritten: more than one bit, not correctable.
    whole = _raw(d)
    at = whole.index(b" e%d {" % seq) + 14
    _put(d, whole[:at] + b"#" * width + whole[at + width:])


def _bad(d):
    return sorted(n for n in os.listdir(d) if ".bad" in n)


def test_one_flipped_bit_anywhere_is_corrected_and_costs_nothing():
    # Events 1..60 with an archive (compacted), a snapshot in the header and restart
    # points: every byte of the journal (but its last newline, which reads as a torn line),
    # one bit flipped in each, costs no event, keeps the id and keeps nothing aside.
    d = tmpdir("bgboard-damage")
    try:
        j = _open(d)
        _play(j, 60, marks=(50, 55))
        ident = j.id
        whole = _raw(d)
        arc = _raw(d, "journal.arc")
        want = list(range(1, 61))
        assert _served(j) == want
        step = 1 if not hasattr(os, "uname") or "micropython" not in str(os.uname()) else 5
        for at in range(0, len(whole) - 1, step):
            _put(d, whole[:at] + bytes([whole[at] ^ (1 << (at % 8))]) + whole[at + 1:])
            _put(d, arc, "journal.arc")
            j = _open(d)
            assert j.id == ident and j.lost is None and j.kept is None, (at, j.status)
            assert _served(j) == want, at
            assert j.recover()[0] == _state(j.base_seq), at
            assert _bad(d) == [], at
            if j.status == "corrected":
                assert _raw(d) == whole, at  # put right on flash too
    finally:
        rmtree(d)


def test_damage_that_cannot_be_corrected_keeps_the_id_the_archive_and_the_events_before():
    # Issue 29: the repair went on under a new id, so the archive (events 1..first-1) was
    # set aside and the intact events before the damage were no longer served. Events
    # 1..70: the archive holds 1..55, the header's snapshot is after 59 (56..59 kept for
    # the host), restart points after 64 and 67.
    for hit, lost in ((62, (62, 64)), (57, (57, 59))):  # the next point; the snapshot
        d = tmpdir("bgboard-damage")
        try:
            j = _open(d)
            _play(j, 70, marks=(64, 67))
            ident = j.id
            assert (j.archive.last_seq, j.base_seq) == (55, 59)
            _smash(d, hit)
            j = _open(d)
            assert j.id == ident and j.status == "repaired" and j.lost == lost
            assert not j.undone and j.kept == "journal.bad" and j.archive.kept is None
            assert _served(j) == list(range(1, hit)) + [("lost", hit, lost[1], False)] + list(
                range(lost[1] + 1, 71))
            snap, events = j.recover()
            assert snap == _state(lost[1])
            assert [e["seq"] for e in events] == list(range(lost[1] + 1, 71))
            assert j.append(_event(71)) == 71
            j = _open(d)
            assert j.status == "ok" and j.lost is None and j.last_seq == 71
        finally:
            rmtree(d)


def test_damage_after_the_last_restart_point_is_undone_and_the_next_event_follows_the_gap():
    d = tmpdir("bgboard-damage")
    try:
        j = _open(d)
        _play(j, 70, marks=(64,))
        ident = j.id
        _smash(d, 67)
        for _ in range(2):  # said at every start while the gap ends the journal
            j = _open(d)
            assert j.id == ident and j.lost == (67, 70) and j.undone
            assert _served(j) == list(range(1, 67)) + [("lost", 67, 70, True)]
            assert j.last_seq == 70
        snap, events = j.recover()  # the state before the damage: after event 66
        assert snap == _state(59) and [e["seq"] for e in events] == list(range(60, 67))
        assert j.append(_event(71)) == 71
        j = _open(d)
        assert j.lost is None and _served(j)[-2:] == [("lost", 67, 70, True), 71]
    finally:
        rmtree(d)


def test_damage_over_the_newline_between_the_last_two_events_costs_both_and_says_so():
    # Four bytes over the newline that ends event 69's line and the start of 70's: one
    # damaged line holding two events. Both are lost and declared, and the next event is 71:
    # 70's seq is never handed out again (before: 69 alone was declared, and the next
    # event took 70, which a host may hold as another event).
    d = tmpdir("bgboard-damage")
    try:
        j = _open(d)
        _play(j, 70, marks=(64,))
        whole = _raw(d)
        at = whole.index(b" e70 {") - 9  # the newline before 70's line
        _put(d, whole[:at] + b"####" + whole[at + 4:])
        j = _open(d)
        assert j.lost == (69, 70) and j.undone and j.last_seq == 70, (j.lost, j.last_seq)
        assert _served(j) == list(range(1, 69)) + [("lost", 69, 70, True)]
        assert j.append(_event(71)) == 71
    finally:
        rmtree(d)


def test_a_gap_passes_through_compaction_the_archive_and_the_hosts_ack():
    d = tmpdir("bgboard-damage")
    try:
        j = _open(d)
        _play(j, 70, marks=(64, 67))
        _smash(d, 62)
        j = _open(d)
        _play(j, 170)  # compacted several times: the gap line goes to the archive
        assert j.archive.last_seq > 70
        want = list(range(1, 62)) + [("lost", 62, 64, False)] + list(range(65, 171))
        assert _served(j) == want and _served(_open(d)) == want
        j.archive.trim(62)  # acknowledged inside the gap: the gap then begins after it
        j = _open(d)
        assert _served(j) == [("lost", 63, 64, False)] + list(range(65, 171))
        j.archive.trim(64)
        assert _served(_open(d)) == list(range(65, 171))
        assert _bad(d) == ["journal.bad"]
    finally:
        rmtree(d)


def _smash_header(d):
    whole = _raw(d)
    _put(d, whole[:30] + b"####" + whole[34:])


def test_a_damaged_header_is_rebuilt_under_the_archives_id_and_no_event_is_lost():
    # It was set aside whole with its archive: every event gone from the board's answers.
    # Uncompacted (the state from the start), compacted with a restart point after the
    # snapshot (the state from it), and without one (the events kept, no state: the board
    # starts without a match, "restarted").
    for upto, marks, status, snap in ((20, (), "repaired", None),
                                      (70, (64, 67), "repaired", _state(67)),
                                      (70, (), "restarted", None)):
        d = tmpdir("bgboard-damage")
        try:
            j = _open(d)
            _play(j, upto, marks=marks)
            ident = j.id
            want = _served(j)
            _smash_header(d)
            j = _open(d)
            assert (j.status, j.id, j.lost) == (status, ident, None), (upto, marks, j.status)
            assert j.kept == "journal.bad" and j.archive.kept is None
            assert _served(j) == want == list(range(1, upto + 1))
            got, events = j.recover()
            events = [e["seq"] for e in events]
            assert got == snap and events == (list(range(1, 21)) if upto == 20 else
                                              [68, 69, 70] if marks else [])
            assert j.append(_event(upto + 1)) == upto + 1
            assert _open(d).status == "ok"
        finally:
            rmtree(d)
