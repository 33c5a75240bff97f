# The game controller, driven as players drive a board: checkers moved by hand (perfect
# sensing here), buttons, host commands; checked by the events it commits.
import gc

from bgcore import GAMMON, Rules
from board.controller import IDLE, OPENING, OVER, PASS_MS, PLAYING, SETUP, Controller
from bgwire import DOUBLE, DROP, ROLL, TAKE
from board.journal import Journal
from board.storage import FlashStorage
from board.layout import point_slot
from board.tracker import RESTORE
from board_support import BLACK, WHITE, Dice, Eyes, rmtree, tmpdir
from sim.clock import SimClock
from support import raises


def rig(*throws, journal=None):
    events = []
    board = Controller(SimClock(), Dice(*throws), journal, None, events.append)
    return board, Eyes(board), events


def kinds(events):
    return [e["ev"] for e in events if "ev" in e]


def started(*throws, length=3, rules=None):
    board, eyes, events = rig(*throws)
    board.new_match(length, rules)
    eyes.start()
    return board, eyes, events


def test_a_new_match_waits_for_the_starting_position():
    board, eyes, events = rig()
    board.new_match(5)
    assert board.phase == SETUP and kinds(events) == ["match"]
    eyes.show([0] * 26, [0] * 26)  # empty board: nothing starts
    assert board.phase == SETUP
    missing = board.verify()[0]
    assert (WHITE, 6) in missing and (BLACK, 24) in missing
    eyes.start()
    assert board.phase == OPENING and kinds(events)[-1] == "game"
    assert events[-1]["number"] == 1 and events[-1]["score"] == [0, 0]


def test_opening_throw_ties_are_thrown_again():
    board, eyes, events = started((4, 4), (3, 1))
    board.roll()
    assert board.phase == OPENING and events[-1] == {"ev": "opening", "dice": [4, 4], "seq": 0}
    board.roll()
    assert board.phase == PLAYING and events[-1]["dice"] == [3, 1]
    assert board.match.game.player == WHITE


def test_a_play_is_committed_when_the_opponent_throws():
    board, eyes, events = started((3, 1), (6, 5))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    assert kinds(events)[-1] == "opening"  # not yet: it may still be taken back
    board.on_buttons(ROLL)
    assert kinds(events)[-2:] == ["play", "roll"]
    play = events[-2]
    assert play["player"] == WHITE and play["dice"] == [3, 1]
    assert play["moves"] == [[8, 5, 0], [6, 5, 0]]
    assert events[-1]["player"] == BLACK and events[-1]["dice"] == [6, 5]
    eyes.carry(BLACK, 24, 13)  # black plays in its own numbering
    assert board.match.game.turn.can_end()


def test_throwing_before_the_play_is_finished_is_refused():
    board, eyes, events = started((3, 1))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    board.on_buttons(ROLL)
    assert events[-1]["live"] == "refused" and "not finished" in events[-1]["reason"]
    assert kinds(events)[-1] == "opening"
    assert board.refused_until is not None
    board.clock.advance(1500)
    board.tick()
    assert board.refused_until is None


def test_a_hit_is_journaled_with_the_checker_on_the_bar():
    board, eyes, events = started((6, 4), (6, 2), (1, 1))
    board.roll()  # white 6-4: 24/18 13/9 leaves blots
    eyes.carry(WHITE, 24, 18)
    eyes.carry(WHITE, 13, 9)
    board.roll()  # black 6-2: 13/7* hits white's blot on its 18 (black's 7)
    eyes.carry(BLACK, 13, 7)
    assert board.reading.state != 0 and board.match.game.turn.moves == []  # waiting
    eyes.carry(WHITE, 18, 25)
    eyes.carry(BLACK, 7, 5)  # and 7/5 with the 2
    board.roll()
    play = [e for e in events if e.get("ev") == "play"][-1]
    assert play["player"] == BLACK and play["moves"][0] == [13, 7, 1]
    assert board.match.game.position.mover[25] == 1  # white on the bar, on roll


def playing_from(board, eyes, mover_side, mover, opponent, length=5):
    """Put a game in play from a position (sides' own numbering), mover_side to throw."""
    from bgcore import Match, Position
    position = Position(mover, opponent)
    board.new_match(length)
    board.match = Match.from_match_id(_match_id(length, mover_side), position)
    board.phase = PLAYING
    white, black = (mover, opponent) if mover_side == WHITE else (opponent, mover)
    eyes.show(white, black)


def _match_id(length, on_roll):
    from bgcore import encode_match_id
    return encode_match_id({
        "cube": 1, "cube_owner": None, "on_roll": on_roll, "crawford": False,
        "game_state": "playing", "turn": on_roll, "double_offered": False, "resignation": 0,
        "dice": [], "match_length": length, "score": [0, 0], "jacoby": False})


def counts(points):
    out = [0] * 26
    for p, n in points.items():
        out[p] = n
    return out


def test_no_legal_play_passes_after_a_pause():
    board, eyes, events = rig((6, 6))
    # Black on the bar against white's closed board: 6-6 cannot enter.
    closed = counts({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    playing_from(board, eyes, BLACK, counts({25: 1, 13: 14}), closed)
    board.roll()
    assert board.match.game.turn.required == ()
    board.clock.advance(PASS_MS - 10)
    board.tick()
    assert kinds(events)[-1] == "roll"  # shown for a while
    board.clock.advance(20)
    board.tick()
    assert events[-1]["ev"] == "play" and events[-1]["moves"] == []
    assert board.match.game.on_roll == WHITE


def test_money_game_doubled_and_dropped_scores_the_cube():
    board, eyes, events = started((3, 1), length=0, rules=Rules(jacoby=False))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.cube_action("double")  # black doubles before throwing
    assert kinds(events)[-2:] == ["play", "double"] and events[-1]["cube"] == 2
    board.on_buttons(DROP)  # white drops
    result = events[-1]
    assert result["ev"] == "result" and result["winner"] == BLACK and result["points"] == 1
    assert result["how"] == "dropped" and board.phase == OVER
    eyes.start()  # the checkers set up again: game 2
    assert kinds(events)[-1] == "game" and events[-1]["number"] == 2
    assert events[-1]["score"] == [0, 1]


def test_illegal_cube_actions_are_refused_and_change_nothing():
    board, eyes, events = started((3, 1))
    board.roll()
    before = board.snapshot()
    e = raises(ValueError, board.cube_action, "take")
    assert "no double" in str(e)
    raises(ValueError, board.cube_action, "double")  # white is playing its roll
    assert board.snapshot() == before


def test_bearing_off_the_last_checker_wins_a_gammon():
    board, eyes, events = rig((6, 5))
    start = counts({2: 1})  # white's last checker; black has borne off nothing
    playing_from(board, eyes, WHITE, start, counts({13: 5, 8: 5, 6: 5}))
    board.roll()
    eyes.lift(WHITE, 2)
    eyes.put(WHITE, 0)  # into the tray: unseen, like a checker in the hand
    assert not [e for e in events if e.get("ev") == "result"]
    board.clock.advance(1600)
    board.tick()
    result = [e for e in events if e.get("ev") == "result"][0]
    assert result["winner"] == WHITE and result["level"] == GAMMON and result["points"] == 2
    assert kinds(events)[-2:] == ["play", "result"] and board.phase == OVER


def test_a_borne_off_checker_counts_when_the_opponent_throws():
    board, eyes, events = rig((6, 5), (3, 1))
    playing_from(board, eyes, WHITE, counts({5: 2, 2: 3}), counts({24: 2, 13: 13}))
    board.roll()  # 6-5: both checkers off the 5-point
    eyes.lift(WHITE, 5)
    eyes.put(WHITE, 0)
    eyes.lift(WHITE, 5)  # the first was in the tray after all
    eyes.put(WHITE, 0)
    board.roll()  # black throws: the second is off too
    play = [e for e in events if e.get("ev") == "play"][0]
    assert play["moves"] == [[5, 0, 0], [5, 0, 0]]


def test_undo_command_asks_for_the_checker_back():
    board, eyes, events = started((3, 1))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    board.undo()
    assert board.match.game.turn.moves == []
    assert board.reading.state == RESTORE  # not read again as the same move
    eyes.carry(WHITE, 5, 8)
    assert board.reading.state == 0
    eyes.carry(WHITE, 8, 5)  # and now it may be played again
    assert len(board.match.game.turn.moves) == 1


def test_resignation_accepted_ends_the_game():
    board, eyes, events = started((3, 1), length=7)
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.resign(GAMMON)  # black, on roll, offers a gammon
    assert kinds(events)[-2:] == ["play", "resign"]
    board.answer_resignation(True)
    assert events[-1]["ev"] == "result" and events[-1]["points"] == 2
    assert events[-1]["how"] == "resigned" and events[-1]["winner"] == WHITE


def test_a_game_played_by_hand_loads_no_seldom_action():
    """Resignations, a take-back by command and verify (board.seldom) load when first used,
    for a Pico's RAM: throws, plays by hand, a double and its take need none; a resignation
    loads them, and it works."""
    import sys

    import board as package

    saved = (sys.modules.pop("board.seldom", None), package.__dict__.pop("seldom", None))
    try:
        board, eyes, events = started((3, 1), (6, 5), length=0)
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        board.on_buttons(DOUBLE)  # black doubles, white takes
        board.on_buttons(TAKE)
        board.roll()
        eyes.carry(BLACK, 13, 7)
        eyes.carry(BLACK, 13, 8)
        assert kinds(events)[-4:] == ["play", "double", "take", "roll"]
        assert "board.seldom" not in sys.modules
        board.resign(1)  # white, on roll
        board.answer_resignation(True)
        assert events[-1]["ev"] == "result" and events[-1]["winner"] == BLACK
        assert "board.seldom" in sys.modules
    finally:
        if saved[0] is not None:
            sys.modules["board.seldom"] = saved[0]
        if saved[1] is not None:
            package.seldom = saved[1]


def test_match_over_after_the_winning_game():
    board, eyes, events = started((3, 1), length=1)
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.resign(1)
    board.answer_resignation(True)
    assert kinds(events)[-2:] == ["result", "match_over"] and board.phase == IDLE
    raises(ValueError, board.roll)


def test_power_cut_resumes_at_the_last_committed_event():
    path = tmpdir()
    try:
        board, eyes, events = rig((3, 1), (6, 5), journal=Journal(FlashStorage(path)))
        board.new_match(5)
        eyes.start()
        board.roll()
        eyes.carry(WHITE, 8, 5)
        eyes.carry(WHITE, 6, 5)
        board.roll()  # commits white's play, black throws 6-5
        committed = board.snapshot()
        eyes.carry(BLACK, 24, 18)  # black's first checker moved: not committed
        # Power cut. A new board on the same flash:
        again = Controller(SimClock(), Dice(), Journal(FlashStorage(path)), None, lambda m: None)
        assert again.resume() == len([e for e in events if "ev" in e])
        assert again.snapshot() == committed
        assert again.phase == PLAYING and again.tracker is not None
        assert again.match.game.turn.dice == (6, 5) and again.match.game.turn.moves == []
        eyes2 = Eyes(again)
        eyes2.sensed = eyes.sensed
        again.on_sensed(eyes.sensed)  # the checker moved before the cut: read as a move
        assert len(again.match.game.turn.moves) == 1
    finally:
        rmtree(path)


def test_resume_after_compaction_applies_each_event_once():
    path = tmpdir()
    try:
        throws = [(3, 1)] + [(6, 5), (4, 2), (5, 3), (6, 1)] * 3
        journal = Journal(FlashStorage(path), max_bytes=2048, keep=2)
        board, eyes, events = rig(*throws, journal=journal)
        board.new_match(5)
        eyes.start()
        board.roll()
        rolls = 0
        while rolls < 10:  # throws and plays until the journal has compacted
            if board.match.game.turn.can_end():
                board.roll()
                rolls += 1
                continue
            turn = board.match.game.turn
            src = [p for p in range(25, 0, -1) if turn.destinations(p)][0]
            side = board.match.game.player
            eyes.carry(side, src, turn.destinations(src)[-1])
        assert journal.base_seq > 0  # a snapshot was written
        committed = board.snapshot()
        board = eyes = events = journal = None  # the power goes: so does the old board's RAM
        gc.collect()
        again = Controller(SimClock(), Dice(), Journal(FlashStorage(path)), None, lambda m: None)
        again.resume()
        assert again.snapshot() == committed
    finally:
        rmtree(path)


def test_a_disturbance_after_a_complete_play_is_asked_back_in_the_right_colours():
    # Issue 29's stress row (everything at once, three sensors broken) stalled for good: a
    # checker knocked off once a play was complete (the next player "on roll", the play
    # not yet handed over) was asked back with the colours swapped, the mover's checkers
    # on the opponent's points; the players put them so and the board never agreed.
    from board.layout import heights_from_counts

    board, eyes, events = started((3, 1))
    board.roll()
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    assert board.match.game.turn.can_end() and board.match.game.on_roll == BLACK
    eyes.lift(BLACK, 13)  # knocked off its point
    eyes.lift(BLACK, 13)
    assert board.reading.state == RESTORE
    turn = board.match.game.turn
    want = heights_from_counts(turn.position.mover, turn.position.opponent)  # white's
    assert list(board.restoring()) == want
    assert want[point_slot(5, 0)] == 1 and want[point_slot(12, 0)] == -1  # 13 is black's 12
