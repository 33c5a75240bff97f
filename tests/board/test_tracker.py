# The tracker reads physical events (checkers lifted and put down, as the sensors report
# them) against the turn in progress. Here the eyes are perfect: sensing has its own tests.
from bgcore import Position, Turn
from board.tracker import HIT_WAIT, ILLEGAL, LIFTED, RESTORE, STEADY, Sensed, Tracker
from bgwire import BLACK, WHITE
from support import board


class Table:
    """A board under the sensors: hands lift and put checkers; each side's own numbering."""

    def __init__(self, position, mover=WHITE):
        self.sensed = Sensed()
        self.sensed.set_position(mover, position)
        self.mover = mover
        self.tracker = Tracker(None, mover)

    def play(self, dice):
        position = self.position()
        self.tracker = Tracker(Turn(position, dice), self.mover)
        return self.tracker

    def position(self):
        c = self.sensed.count
        return Position(c[self.mover], c[1 - self.mover])

    def lift(self, point, side=None):
        side = self.mover if side is None else side
        assert self.sensed.count[side][point] > 0
        self.sensed.count[side][point] -= 1
        return self.tracker.update(self.sensed)

    def put(self, point, side=None):
        side = self.mover if side is None else side
        self.sensed.count[side][point] += 1
        return self.tracker.update(self.sensed)

    def carry(self, src, dst, side=None):
        self.lift(src, side)
        return self.put(dst, side)

    def hit_to_bar(self, my_point):
        """Move the opponent's blot on the mover's point `my_point` to its bar."""
        self.lift(25 - my_point, 1 - self.mover)
        return self.put(25, 1 - self.mover)


def moves(turn):
    return [(m[0].src, m[-1].dst) for m in turn.moves]


def test_lift_shows_destinations_and_placing_commits():
    t = Table(Position.initial())
    turn = t.play((3, 1)).turn
    r = t.lift(8)
    assert r.state == LIFTED and r.origin == 8 and r.targets == (7, 5, 4)
    assert t.put(5).state == STEADY
    assert moves(turn) == [(8, 5)]
    r = t.lift(6)
    assert r.targets == (5,)
    assert t.put(5).state == STEADY
    assert turn.can_end() and moves(turn) == [(8, 5), (6, 5)]


def test_put_back_where_it_came_from_changes_nothing():
    t = Table(Position.initial())
    turn = t.play((3, 1)).turn
    t.lift(13)
    assert t.put(13).state == STEADY
    assert turn.moves == []


def test_illegal_placement_is_shown_and_waits_for_correction():
    t = Table(Position.initial())
    turn = t.play((3, 1)).turn
    t.lift(8)
    r = t.put(3)
    assert r.state == ILLEGAL and r.origin == 8 and r.wrong == 3
    # The words are the turn's, for whoever asks (the LEDs show the points).
    assert "from point 8 to point 3" in turn.why_not(r.origin, r.wrong)
    assert turn.moves == []
    t.lift(3)
    assert t.put(4).state == STEADY  # corrected: 8/4 with both dice
    assert moves(turn) == [(8, 4)] and turn.can_end()


def test_a_checker_astray_is_named_and_lifting_it_again_reads_as_lifted_from_home():
    # What the board's early lights rely on (board.controller.Controller.on_lift): one of
    # the mover's checkers on a point the rules refuse (ILLEGAL) or behind where it came
    # from (RESTORE) or on a blot whose checker is not on the bar yet (HIT_WAIT), the board
    # otherwise as the turn has it, is `stray`; lifted again, the
    # board reads it as lifted from `stray_from`.
    for wrong, state in ((3, ILLEGAL), (10, RESTORE)):
        t = Table(Position.initial())
        turn = t.play((3, 1)).turn
        t.lift(8)
        r = t.put(wrong)
        assert r.state == state and (r.stray, r.stray_from) == (wrong, 8)
        r = t.lift(wrong)
        assert r.state == LIFTED and r.origin == 8 and r.targets == (7, 5, 4)
        assert r.stray == -1 and turn.moves == []
    t = Table(board({13: 2, 6: 13}, {15: 1, 1: 14}))  # on a blot, the hit not yet shown
    turn = t.play((3, 1)).turn
    r = t.carry(13, 10)
    assert r.state == HIT_WAIT and (r.stray, r.stray_from) == (10, 13)
    r = t.lift(10)
    assert r.state == LIFTED and r.origin == 13 and turn.moves == []


def test_no_checker_is_astray_when_more_than_one_is_out_of_place():
    t = Table(Position.initial())
    t.play((3, 1))
    t.lift(8)
    t.put(3)
    r = t.carry(13, 12, BLACK)  # the opponent's disturbed too: lifting 3 leaves a restore
    assert r.state != LIFTED and r.stray == -1
    t.carry(12, 13, BLACK)
    assert t.tracker.reading.stray == 3
    r = t.carry(6, 10)  # a second of the mover's astray
    assert r.state == RESTORE and r.stray == -1
    r = t.put(5)  # and a third checker: none is the one
    assert r.stray == -1
    t.lift(5)
    t.lift(10)
    assert t.put(6).stray == 3  # back to the one astray


def test_a_chain_placed_directly_is_one_move_of_two_steps():
    t = Table(Position.initial())
    turn = t.play((6, 5)).turn
    assert t.carry(24, 13).state == STEADY
    assert len(turn.moves[0]) == 2 and turn.can_end()


def test_hit_waits_for_the_hit_checker_to_reach_the_bar():
    t = Table(board({13: 2, 6: 13}, {15: 1, 1: 14}))  # opponent blot on my 10
    turn = t.play((3, 1)).turn
    r = t.carry(13, 10)
    assert r.state == HIT_WAIT and r.wrong == 10
    assert turn.moves == []
    t.lift(15, BLACK)  # the blot in the hand: still waiting
    assert t.tracker.update(t.sensed).state == HIT_WAIT
    assert t.put(25, BLACK).state == STEADY
    assert [s.hit for s in turn.moves[0]] == [True]
    assert turn.position.opponent[25] == 1


def test_chain_past_a_blot_is_a_hit_only_if_it_goes_to_the_bar():
    t = Table(board({13: 2, 6: 13}, {15: 1, 1: 14}))  # blot on my 10, on the way to 9
    turn = t.play((3, 1)).turn
    assert t.carry(13, 9).state == STEADY
    assert turn.position.opponent[25] == 0  # passed by
    assert t.hit_to_bar(10).state == STEADY  # ...until the blot went to the bar
    assert turn.position.opponent[25] == 1
    assert [s.hit for s in turn.moves[0]] == [True, False]


def test_taking_back_the_first_of_two_moves_keeps_the_second():
    t = Table(Position.initial())
    turn = t.play((3, 1)).turn
    t.carry(8, 5)
    t.carry(6, 5)
    assert t.carry(5, 8).state == STEADY
    assert moves(turn) == [(6, 5)] and turn.remaining == (3,)


def test_taking_back_a_hit_returns_the_checker_from_the_bar():
    t = Table(board({13: 2, 6: 13}, {15: 1, 1: 14}))
    turn = t.play((3, 1)).turn
    t.carry(13, 10)
    t.hit_to_bar(10)
    assert turn.moves
    r = t.carry(10, 13)  # my checker back first: the opponent's is still on the bar
    assert r.state == RESTORE and turn.moves
    assert t.carry(25, 15, BLACK).state == STEADY
    assert turn.moves == [] and turn.position.opponent[25] == 0


def test_entering_from_the_bar_and_taking_it_back():
    t = Table(board({25: 1, 13: 14}, {1: 15}))
    turn = t.play((5, 2)).turn
    assert t.lift(25).targets == (23, 20, 18)
    assert t.put(20).state == STEADY and moves(turn) == [(25, 20)]
    assert t.carry(20, 25).state == STEADY and turn.moves == []


def test_knocked_checkers_must_be_restored_and_nothing_is_committed():
    t = Table(Position.initial())
    turn = t.play((3, 1)).turn
    t.lift(8)
    r = t.lift(13)  # a second checker knocked off, first still in the hand
    assert r.state == RESTORE
    assert (WHITE, 13) in r.missing and (WHITE, 8) in r.missing
    r = t.lift(8, BLACK)
    assert (BLACK, 8) in r.missing
    t.put(8, BLACK)
    t.put(13)
    assert t.put(5).state == STEADY and moves(turn) == [(8, 5)]


def test_opponent_checker_moved_during_my_turn_is_restore():
    t = Table(Position.initial())
    t.play((3, 1))
    r = t.carry(13, 12, BLACK)
    assert r.state == RESTORE and (BLACK, 13) in r.missing and (BLACK, 12) in r.extra


def test_bearing_off_into_the_tray():
    t = Table(board({5: 3, 2: 2}, {24: 2}))
    turn = t.play((6, 5)).turn
    r = t.lift(5)
    assert r.state == LIFTED and 0 in r.targets  # in a hand, or in the tray
    r = t.lift(5)  # a second one lifted: the first went to the tray
    assert r.state == LIFTED and moves(turn) == [(5, 0)]
    assert t.tracker.finish(t.sensed)  # the opponent rolls: the second is off too
    assert moves(turn) == [(5, 0), (5, 0)] and turn.position.mover[0] == 15 - 3


def test_a_lift_while_one_lifted_may_be_borne_off_reads_as_worked_out_ahead():
    # What a board lights at once for it (board.controller.Controller.on_lift): for each
    # point, prepare_off() gives what update() then reads, the first checker taken as borne
    # off (of the two points, the lower whose checker may go), doubles and an ace too.
    cases = [({6: 2, 5: 3, 3: 2, 1: 1}, (6, 5)), ({4: 2, 2: 3, 1: 2}, (6, 1)),
             ({5: 1, 3: 1}, (4, 2)), ({6: 1, 2: 2}, (5, 5)), ({6: 3, 1: 2}, (3, 1)),
             ({5: 2, 4: 1}, (2, 1))]
    seen = set()
    for mine, dice in cases:
        turn = Table(board(mine, {1: 15})).play(dice).turn
        for origin in [p for p in range(1, 26) if 0 in turn.destinations(p)]:
            for p in [q for q in range(1, 26) if mine.get(q, 0) > (q == origin)]:
                t = Table(board(mine, {1: 15}))
                t.play(dice)
                assert t.lift(origin).state == LIFTED
                n = 0
                while t.tracker.prepare_off(t.sensed):
                    n += 1
                ahead = t.tracker.off_lift(p)
                r = t.lift(p)
                assert ahead == (r.state, r.origin, r.targets), (mine, dice, origin, p)
                assert moves(t.tracker.turn)[0][1] == 0 and n < 27
                seen.add((r.state, r.origin == p))
    assert seen == {(LIFTED, True), (LIFTED, False), (ILLEGAL, True)}, seen  # each way


def test_nothing_is_worked_out_ahead_for_a_board_that_shows_more_than_the_lift():
    t = Table(board({6: 2, 5: 3}, {1: 15}))
    t.play((6, 5))
    t.lift(6)
    t.carry(1, 2, BLACK)  # and an opponent's checker moved: a restore, read as ever
    assert not t.tracker.prepare_off(t.sensed) and t.tracker.off_lift(5) is None
    t.carry(2, 1, BLACK)
    assert t.tracker.prepare_off(t.sensed)
    t.put(6)  # put back: nothing lifted, nothing to work out
    assert not t.tracker.prepare_off(t.sensed) and t.tracker.off_lift(5) is None


def test_bear_off_taken_back_from_the_tray():
    t = Table(board({5: 3, 2: 2}, {24: 2}))
    turn = t.play((6, 5)).turn
    t.lift(5)
    t.lift(2)  # 5 borne off; the 2 is in the hand
    t.put(2)
    assert moves(turn) == [(5, 0)]
    assert t.put(5).state == STEADY and turn.moves == []


def test_a_tall_stack_may_lose_a_checker_unseen():
    t = Table(Position.initial())
    turn = t.play((1, 1)).turn
    # Sensing sees "3 or more" on my 6-point, which holds 5.
    t.sensed.count[WHITE][6] = 3
    t.sensed.saturated[WHITE][6] = 1
    assert t.tracker.update(t.sensed).state == STEADY
    assert t.put(5).state == STEADY  # the lift from 6 was invisible
    assert moves(turn) == [(6, 5)]


def test_black_moves_in_its_own_numbering():
    t = Table(Position.initial(), BLACK)
    turn = t.play((6, 4)).turn
    assert t.carry(24, 14).state == STEADY
    assert moves(turn) == [(24, 14)]


def test_sensed_reads_a_classified_frame():
    from board.layout import heights_from_counts, code
    from board.tracker import Sensed
    p = board({6: 11, 8: 3, 25: 1}, {24: 2, 25: 2, 1: 1})
    codes = [code(h) for h in heights_from_counts(p.mover, p.opponent)]
    s = Sensed()
    s.read(codes)
    assert s.count[WHITE][8] == 3 and not s.saturated[WHITE][8]
    assert s.count[WHITE][6] == 11 and s.saturated[WHITE][6]  # 3,2,2,2,2: "3 or more"
    assert s.count[WHITE][25] == 1 and s.count[BLACK][25] == 2
    assert s.count[BLACK][24] == 2 and s.count[BLACK][1] == 1
    assert s.count[WHITE][1] == 0  # black's 24 is white's 1: not white


def test_a_knock_read_as_a_bear_off_is_undone_when_the_checker_returns():
    t = Table(board({3: 2, 1: 1}, {13: 2}))
    turn = t.play((3, 1)).turn
    t.lift(3)  # into the tray (bearing off with the 3)
    t.lift(1)  # a checker knocked off the 1-point: could be a bear-off too
    assert t.tracker.reading.state == LIFTED
    r = t.put(1)  # it was a knock: back on its point
    assert r.state == LIFTED and r.origin == 3 and turn.moves == []
    t.tracker.finish(t.sensed)  # the 3 went to the tray
    assert moves(turn) == [(3, 0)] and turn.remaining == (1,)


def test_a_checker_leaving_a_tall_stack_is_seen_by_the_drop():
    # 13 checkers read 3,3,3,2,2 ("3 or more" thrice); 12 read 3,3,2,2,2: that 12 could be
    # 13 with a taller stack, but it is one fewer than the board showed before.
    t = Table(board({1: 13}, {13: 2}))
    t.sensed.count[WHITE][1] = 13
    t.sensed.saturated[WHITE][1] = 1
    turn = t.play((6, 4)).turn
    assert t.tracker.update(t.sensed).state == STEADY
    r = t.lift(1)
    assert r.state == LIFTED and r.origin == 1 and 0 in r.targets


def test_bearing_off_on_a_chain_that_hits_on_its_way():
    t = Table(board({8: 1, 2: 6, 1: 6}, {20: 1, 6: 2}))  # opponent blot on my 5
    turn = t.play((5, 3)).turn
    t.lift(8)  # 8/5*/off: into the tray
    r = t.hit_to_bar(5)
    assert r.state == STEADY
    assert [(s.src, s.dst, s.hit) for s in turn.moves[0]] == [(8, 5, True), (5, 0, False)]


# -- a blind slot (a sensor flagged faulty): its checker is not seen to go ----------------


def _blind_play(position, blind, dice):
    # A Table whose sensors show all but the blind slots' checkers, and the turn of dice.
    t = Table(position)
    t.sensed = Sensed(blind)
    t.sensed.set_position(WHITE, position)
    for side in (WHITE, BLACK):
        for p in range(1, 26):
            n = t.sensed.count[side][p]
            t.sensed.count[side][p] = t.sensed.visible(side, p, n)
    t.tracker = Tracker(Turn(position, dice), WHITE)
    return t, t.tracker.turn


def test_a_checker_borne_off_from_a_blind_slot_is_taken_when_the_play_needs_it():
    # White's 6-point holds one checker, on its first slot (25): that sensor is blind.
    t, turn = _blind_play(board({6: 1, 1: 3}, {20: 2}), [25], (6, 1))
    assert t.tracker.update(t.sensed).state == STEADY
    t.lift(1)  # 1/off; 6/off is not seen
    assert t.tracker.finish(t.sensed)  # the opponent rolls: the play needs the 6
    assert sorted(moves(turn)) == [(1, 0), (6, 0)]


def test_borne_off_from_a_blind_slot_before_the_others_could_go():
    # 6-6: the 6-point's checker must go first; the three 3s read borne off only after it.
    t, turn = _blind_play(board({6: 1, 3: 3}, {24: 2}), [25], (6, 6))
    t.lift(3)
    t.lift(3)
    assert t.lift(3).state != RESTORE
    assert t.tracker.finish(t.sensed)
    assert moves(turn) == [(6, 0), (3, 0), (3, 0), (3, 0)]


def test_a_blind_slots_checker_the_play_does_not_need_stays():
    t, turn = _blind_play(board({6: 1, 2: 1, 1: 1}, {20: 2}), [25], (2, 1))
    t.lift(2)
    t.lift(1)
    assert t.tracker.finish(t.sensed)
    assert sorted(moves(turn)) == [(1, 0), (2, 0)] and turn.position.mover[6] == 1


def test_a_point_with_two_blind_slots_expects_to_see_only_the_others_checkers():
    # Issue 29: a point's second blind slot replaced its first (one per point was kept),
    # so the board expected to see a checker a blind slot holds and asked for it forever.
    # White's 24-point is physical point 24 (slots 115..119); 6 checkers: 2, 1, 1, 1, 1.
    s = Sensed([115, 116])
    assert [s.visible(WHITE, 24, n) for n in range(7)] == [0, 0, 0, 1, 2, 3, 3]
    assert [s.visible(BLACK, 1, n) for n in range(3)] == [0, 0, 0]  # black's 1 is physical 24
    assert s.visible(WHITE, 23, 4) == 4
    bar = Sensed([121, 123])  # white's bar slots 1 and 3
    assert [bar.visible(WHITE, 25, n) for n in range(5)] == [0, 1, 1, 2, 2]
    assert bar.visible(BLACK, 25, 4) == 4

