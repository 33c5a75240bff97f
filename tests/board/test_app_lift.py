# A lift lit from its first scan of strong evidence, ahead of the board's reading of the whole
# (board.app.App.sense), and the placement answered at once: on simulated hardware.
import json

from bgcore import Position
from board.layout import heights_from_counts
from test_app import load_pinmap, with_rig


def _rolled_3_1(rig, ahead=True):
    """A money game at its first turn, 3-1 thrown, the checkers in the starting position:
    (scans(n): n scans 10 ms apart, the mover's side, put(p, n): n more of the mover's
    checkers on its point p, lit(p): whether the mover's point p is lit). ahead: each scan
    is followed by the board's tick, as in the device's loop (the destinations of the
    checkers the mover may lift are worked out ahead, one point a tick)."""
    clock = rig.hw.clock

    def scans(n):
        for _ in range(n):
            clock.advance(10)
            rig.app.scan()
            if ahead:
                rig.app.board.tick()

    start = Position.initial()
    counts = [list(start.mover), list(start.opponent)]  # white's, black's (own numbering)
    rig.model.set_heights(heights_from_counts(counts[0], counts[1]))
    rig.ask({"cmd": "new", "kind": "money"})
    scans(40)
    rig.ask({"cmd": "roll", "dice": [3, 1]})
    scans(20)
    side = rig.app.board.tracker.mover
    points = load_pinmap()["leds"]["points"]

    def put(p, n):
        counts[side][p] += n
        rig.model.set_heights(heights_from_counts(counts[0], counts[1]))

    def lit(p):  # black's points are numbered back
        return any(rig.leds.pixel(i) != (0, 0, 0) for i in points[(p if side == 0 else 25 - p) - 1])

    return scans, side, put, lit


@with_rig
def test_a_placement_on_a_destination_is_answered_on_its_first_scan_and_stands_later(rig, path):
    # The lights answer where the lifted checker is put down at once; the move waits for the
    # sensing to confirm it. A checker only slid across a destination gets its lights back
    # and moves nothing.
    from board.tracker import LIFTED

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig)
    turn = board.tracker.turn

    src = 8  # the 8 point's checkers go 8/5 and 8/7
    dsts = [d for d in turn.destinations(src) if d]
    assert 5 in dsts and 7 in dsts
    put(src, -1)
    scans(1)
    assert board.reading.state == LIFTED and lit(src) and all(lit(d) for d in dsts)
    scans(5)
    seq = rig.app.journal.last_seq
    put(5, 1)
    scans(1)  # strong evidence on its first scan: answered, nothing committed yet
    assert board.landed and not lit(src) and not any(lit(d) for d in dsts)
    assert not turn.moves and rig.app.journal.last_seq == seq
    scans(20)
    assert [(s.src, s.dst) for s in turn.steps] == [(8, 5)] and not board.landed
    # The next checker (the 1 left) slid over its destination: the answer is taken back.
    src2 = 6
    put(src2, -1)
    scans(1)
    assert board.reading.state == LIFTED and lit(5)
    put(5, 1)
    scans(1)
    assert board.landed and not lit(5)
    scans(2)
    put(5, -1)  # gone on, still in the hand
    scans(1)
    assert not board.landed and board.unlanded == 1 and lit(5) and lit(src2)
    scans(30)
    assert [(s.src, s.dst) for s in turn.steps] == [(8, 5)]
    assert board.reading.state == LIFTED


@with_rig
def test_a_lift_is_lit_on_its_first_scan_and_withdrawn_leaving_game_and_journal(rig, path):
    from board.tracker import LIFTED, STEADY

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig)
    turn = board.tracker.turn
    src = max(p for p in range(1, 25) if turn.destinations(p))
    before = [r for r in rig.ask({"cmd": "state"}) if "phase" in r][0]
    assert before["phase"] == "playing" and not before["game"]["moves"]
    seq = rig.app.journal.last_seq
    assert not any(lit(d) for d in turn.destinations(src))
    put(src, -1)
    scans(1)  # the first scan after the lift carries hundreds of counts of evidence
    assert board.reading.state == LIFTED and board.reading.origin == src
    assert all(lit(d) for d in turn.destinations(src) if d)
    scans(3)
    put(src, 1)  # put back within the stable time: the lights are withdrawn
    scans(1)
    assert board.reading.state == STEADY
    assert rig.app.sensor_loop.sensing.withdrawn == 1
    assert not any(lit(d) for d in turn.destinations(src))
    scans(50)
    assert rig.app.journal.last_seq == seq and not turn.moves
    after = [r for r in rig.ask({"cmd": "state"}) if "phase" in r][0]
    assert after["game"] == before["game"], (before, after)


@with_rig
def test_a_lift_goes_to_the_leds_within_its_scan_before_the_board_reads_its_view(rig, path):
    # On the device the frames wait for the loop's flush. A lift of the mover's checker on
    # its first strong scan is sent from within that scan, before the board reads the whole
    # of its view (on_sensed, the scan's longest part), which then decides the same: its
    # frame, drawn again, is not sent again.
    from board.tracker import LIFTED

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig)
    src = 8
    dsts = [d for d in board.tracker.turn.destinations(src) if d]
    renderer = rig.app.renderer
    renderer.deferred = True
    renderer.flush()
    seen = []
    on_sensed = board.on_sensed

    def reading(sensed):
        seen.append((lit(src), [d for d in dsts if not lit(d)], renderer.pending))
        on_sensed(sensed)

    board.on_sensed = reading
    frames = rig.leds.frames
    put(src, -1)
    rig.hw.clock.advance(10)
    rig.app.sense()
    assert seen == [(True, [], False)]
    assert board.reading.state == LIFTED and board.reading.origin == src
    assert rig.leds.frames == frames + 1 and not renderer.pending
    # Put back: the tracker reads it and the lights go, through the loop's flush as ever.
    put(src, 1)
    rig.hw.clock.advance(10)
    rig.app.sense()
    assert seen[-1] == (True, [], False) and renderer.pending
    renderer.flush()
    assert not lit(src) and rig.leds.frames == frames + 2


@with_rig
def test_a_lifts_sensing_and_lights_run_with_the_heap_locked(rig, path):
    # On MicroPython a call whose frame passes 11 words then takes it from the C stack, not
    # from the heap, whose first-fit search made a Pico's slowest lifts a third slower;
    # and nothing in them can start a collection (board.heap). Each piece is seen running
    # locked (the lock's depth: unlocking once gives 0 when it was locked once, then it is
    # locked again) and the lift is lit, nothing refused. CPython has no such heap.
    import sys

    if sys.implementation.name != "micropython":
        return
    import micropython  # type: ignore[import-not-found]

    from board.tracker import LIFTED

    board = rig.app.board
    sensing = rig.app.sensor_loop.sensing
    scans, side, put, lit = _rolled_3_1(rig)
    depth = [-1, -1, -1]
    unlock, lock = micropython.heap_unlock, micropython.heap_lock

    # (defaults, not a closure's cells: a call with more than five in all copies them to
    # the heap)
    def sensing_scan(raw, left, n, scan=sensing.scan, depth=depth, unlock=unlock, lock=lock):
        depth[0] = unlock()
        lock()
        return scan(raw, left, n)

    def lifting(slot, on_lift=board.on_lift, depth=depth, unlock=unlock, lock=lock):
        depth[1] = unlock()
        lock()
        return on_lift(slot)

    def flushing(flush=rig.app.renderer.flush, depth=depth, unlock=unlock, lock=lock):
        depth[2] = unlock()
        lock()
        return flush()

    sensing.scan, board.on_lift, rig.app.renderer.flush = sensing_scan, lifting, flushing
    rig.app.renderer.deferred = True
    put(8, -1)
    rig.hw.clock.advance(10)
    rig.app.sense()
    assert board.reading.state == LIFTED and lit(8)
    assert depth == [0, 0, 0] and rig.app.heap_refused == 0, depth


@with_rig
def test_a_lift_not_worked_out_ahead_is_lit_ahead_all_the_same(rig, path):
    # Its destinations are worked out on the heap, which the heap locked refuses: drawn
    # again with the heap (counted on MicroPython), still sent before the board reads the
    # whole of its view.
    import sys

    from board.tracker import LIFTED

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig, ahead=False)
    renderer = rig.app.renderer
    renderer.deferred = True
    renderer.flush()
    seen = []
    on_sensed = board.on_sensed

    def reading(sensed):
        seen.append((lit(8), all(lit(d) for d in (7, 5, 4)), renderer.pending))
        on_sensed(sensed)

    board.on_sensed = reading
    put(8, -1)
    rig.hw.clock.advance(10)
    rig.app.sense()
    assert seen == [(True, True, False)] and board.reading.state == LIFTED
    assert rig.app.heap_refused == (1 if sys.implementation.name == "micropython" else 0)


@with_rig
def test_a_fault_in_the_sensing_is_told_and_leaves_the_heap_unlocked(rig, path):
    # The sensing runs with the heap locked (board.heap); when it raises, the heap is
    # unlocked all the same: the fault is told (its message made on the heap) and the
    # board goes on scanning and answering.
    sensing = rig.app.sensor_loop.sensing
    scan = sensing.scan

    def broken(raw, left, n):
        raise ValueError("bad frame")

    sensing.scan = broken
    rig.link.sent = []
    rig.hw.clock.advance(10)
    rig.app.scan()
    faults = [json.loads(b.decode()) for b in rig.link.sent]
    assert [(m["task"], m["error"]) for m in faults if m.get("live") == "fault"] == \
        [("scanner", "ValueError: bad frame")]
    sensing.scan = scan
    rig.hw.clock.advance(10)
    rig.app.scan()
    assert bytearray(4096) and any(m.get("hello") == "bgboard" for m in rig.ask({"cmd": "hello"}))


@with_rig
def test_a_fault_in_a_lifts_early_lights_is_told_and_the_board_still_reads_the_scan(rig, path):
    # The lift lit ahead of the board's reading raises: the host hears of a board fault,
    # the board goes back to its journal, and the same scan's view still reaches it, so the
    # lift is shown all the same and nothing is committed.
    from board.tracker import LIFTED

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig)
    src = 8
    dsts = [d for d in board.tracker.turn.destinations(src) if d]
    seq = rig.app.journal.last_seq

    def broken(slot):
        raise RuntimeError("drawing failed")

    board.on_lift = broken
    rig.link.sent = []
    put(src, -1)
    scans(1)
    faults = [json.loads(b.decode()) for b in rig.link.sent]
    faults = [m for m in faults if m.get("live") == "fault"]
    assert [(m["task"], m["error"]) for m in faults] == [("board", "RuntimeError: drawing failed")]
    assert board.reading.state == LIFTED and board.reading.origin == src
    assert lit(src) and all(lit(d) for d in dsts)
    assert rig.app.journal.last_seq == seq and not board.tracker.turn.moves


def _watched(board, before_reading):
    # What board.on_lift answers, and what before_reading() gives as the board is about to
    # read its view (on_sensed), in the order they come.
    seen = []
    on_lift, on_sensed = board.on_lift, board.on_sensed

    def lifting(slot):
        seen.append(on_lift(slot))
        return seen[-1]

    def reading(sensed):
        seen.append(before_reading())
        on_sensed(sensed)

    board.on_lift, board.on_sensed = lifting, reading
    return seen


def _astray_lifted_again(rig, wrong, state):
    # 8 of the 3-1 put on `wrong` (the board shows `state` there), then lifted again: lit on
    # its first strong scan as lifted from 8, ahead of the board's reading of its view,
    # nothing committed. Then another checker lifted while it stands astray again: no early
    # lights for that one (the board reads two out of place), none invented.
    from board.tracker import LIFTED, RESTORE

    board = rig.app.board
    scans, side, put, lit = _rolled_3_1(rig)
    put(8, -1)
    scans(5)
    put(wrong, 1)
    scans(20)
    assert board.reading.state == state and lit(wrong)
    seq = rig.app.journal.last_seq
    early = _watched(board, lambda: ("read", lit(8), all(lit(d) for d in (7, 5, 4)), lit(wrong)))
    put(wrong, -1)
    scans(1)
    assert early == [True, ("read", True, True, False)]
    assert board.reading.state == LIFTED and board.reading.origin == 8
    put(wrong, 1)
    scans(20)
    assert board.reading.state == state
    del early[:]
    put(13, -1)
    scans(20)
    assert [e for e in early if not isinstance(e, tuple)] == [False]  # asked, refused
    assert board.reading.state == RESTORE and (side, 13) in board.reading.missing
    assert rig.app.journal.last_seq == seq and not board.tracker.turn.moves


@with_rig
def test_a_checker_put_on_a_point_the_rules_refuse_is_lit_at_once_when_lifted_again(rig, path):
    from board.tracker import ILLEGAL

    _astray_lifted_again(rig, 3, ILLEGAL)


@with_rig
def test_a_checker_put_back_behind_its_point_is_lit_at_once_when_lifted_again(rig, path):
    from board.tracker import RESTORE

    _astray_lifted_again(rig, 10, RESTORE)


def _white_rolled(rig, white, black, dice):
    # A match with white on roll in this position, `dice` thrown: scans(n), each followed by
    # the board's tick, as in the device's loop.
    from bgcore import Match, Position, encode_match_id
    from board.controller import PLAYING

    board = rig.app.board
    clock = rig.hw.clock

    def scans(n):
        for _ in range(n):
            clock.advance(10)
            rig.app.scan()
            board.tick()

    rig.model.set_heights(heights_from_counts(white, black))
    rig.ask({"cmd": "new", "kind": "match", "length": 5})
    board.match = Match.from_match_id(encode_match_id({
        "cube": 1, "cube_owner": None, "on_roll": 0, "crawford": False,
        "game_state": "playing", "turn": 0, "double_offered": False, "resignation": 0,
        "dice": [], "match_length": 5, "score": [0, 0], "jacoby": False}),
        Position(white, black))
    board.phase = PLAYING
    scans(20)
    rig.ask({"cmd": "roll", "dice": dice})
    scans(20)
    return scans


@with_rig
def test_a_lift_off_a_point_too_tall_to_count_is_lit_ahead_as_the_board_reads_it(rig, path):
    # 12 on the 6 point stand 3, 3, 2, 2, 2 in its slots, and a slot of three shows "3 or
    # more": the point may hold more than it shows. The hand takes one off the far end (not
    # a weak lift) and the point still shows "3 or more"; the board counted all 12 when it
    # last agreed, so it reads one lifted: lit ahead, as it then shows it.
    from board.layout import POINT_SLOTS
    from board.tracker import LIFTED

    board = rig.app.board
    white = [0] * 26
    white[6], white[5] = 12, 3
    black = [0] * 26
    black[13] = 15
    scans = _white_rolled(rig, white, black, [6, 5])
    sensed = board.sensed
    assert sensed.saturated[0][6] and sensed.count[0][6] == 12
    seen = _watched(board, lambda: bytes(rig.leds.shown))
    heights = heights_from_counts(white, black)
    heights[6 * POINT_SLOTS - 1] -= 1  # 3, 3, 2, 2, 1
    rig.model.set_heights(heights)
    scans(10)  # (its evidence grows over a few scans: the slot's first change)
    assert sensed.saturated[0][6] and sensed.count[0][6] == 11
    assert seen[0] is True and len(seen) == 2
    assert board.reading.state == LIFTED and board.reading.origin == 6
    assert seen[1] == bytes(rig.leds.shown)  # lit ahead as the board then showed it
    assert not board.tracker.turn.moves


@with_rig
def test_a_lift_after_a_checker_went_to_the_tray_is_lit_at_once_as_the_board_reads_it(rig, path):
    # Bearing off: nothing tells the tray from the hand, so the lifted checker may be off.
    # A second lift shows on its first strong scan, lit as the board then reads it (the
    # first taken as borne off) before it reads its view, worked out while the first was in
    # the air; the board commits the bear-off and shows the same.
    from board.tracker import LIFTED

    board = rig.app.board
    white = [0] * 26
    white[5], white[2] = 3, 2  # 10 borne off
    black = [0] * 26
    black[13] = 15
    scans = _white_rolled(rig, white, black, [6, 5])
    white[5] -= 1  # lifted, then into the tray
    rig.model.set_heights(heights_from_counts(white, black))
    scans(1)
    assert board.reading.state == LIFTED and board.reading.origin == 5
    scans(30)  # the hand moves on; the board works out what a next lift will show
    seq = rig.app.journal.last_seq
    seen = _watched(board, lambda: bytes(rig.leds.shown))
    white[5] -= 1  # the next from the 5 point
    rig.model.set_heights(heights_from_counts(white, black))
    scans(1)
    assert seen[0] is True and len(seen) == 2
    assert board.reading.state == LIFTED and board.reading.origin == 5
    assert 0 in board.reading.targets
    assert [(s.src, s.dst) for s in board.tracker.turn.steps][0] == (5, 0)
    assert seen[1] == bytes(rig.leds.shown)  # lit ahead as the board then showed it
    assert rig.app.journal.last_seq == seq  # the play is committed when black throws
