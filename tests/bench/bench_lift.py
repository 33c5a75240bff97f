# Lights that feel instant (issue 30), on the MicroPython unix port (`make bench`): simulated
# players (clumsy hands: slides, knocks, wrong points corrected) play money games on a
# virtual board scanned every 10 ms (the firmware's SCAN_MS), in simulated time. Timed: from
# a hand lifting one of the mover's checkers to the first scan whose LED frame shows its
# destinations, and from a hand putting the lifted checker down to the board's answer (the
# move committed, a wrong one shown, the lift's lights off). Counted: lifts shown and then
# withdrawn (the sensing's early changes gone back within its stable time), wrong commits.
# The hands act at any millisecond, the scans keep their own beat (no phase is favoured).
#
#     micropython tests/bench/bench_lift.py [GAMES] [NOISE ...]
import sys

from board.app import SCAN_MS
from board.tracker import LIFTED
from sim.autoplay import Autoplay
from sim.virtual_board import VirtualBoard

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
NOISES = [float(a) for a in sys.argv[2:]] or [3.0, 10.0]


class Watch:
    """Times the board's answers to the hands on vb (sim.virtual_board.VirtualBoard)."""

    def __init__(self, vb):
        self.vb = vb
        self.lifts = []  # ms from a lift to its destinations shown
        self.places = []  # ms from a placement to the board's answer
        self.unlit = 0  # mover's lifts put down before the board showed them
        self._lift = None  # (ms, point) of the mover's lift not yet shown
        self._place = None  # (ms, moves committed before) of a placement not yet answered
        self.next_scan = vb.clock.ticks_ms() + SCAN_MS
        vb.scan_ms = 0  # the scans' beat is kept here
        table = vb.table
        lift, put = table.lift, table.put

        def lifted(side, point):
            lift(side, point)
            tracker = vb.board.tracker
            if tracker is not None and side == tracker.mover and tracker.turn.destinations(point):
                # A checker astray lifted again shows as lifted from its own point (an
                # older firmware has no stray)
                r = vb.board.reading
                home = r.stray_from if getattr(r, "stray", -1) == point else point
                self._lift = (vb.clock.ticks_ms(), home)

        def placed(side, point):
            put(side, point)
            board = vb.board
            if self._lift is not None:
                self.unlit += 1
                self._lift = None
            elif board.tracker is not None and side == board.tracker.mover and \
                    board.reading.state == LIFTED:
                self._place = (vb.clock.ticks_ms(), len(board.tracker.turn.moves))

        table.lift = lifted
        table.put = placed
        vb.wait = self.wait  # the hands' waits and the players' (Autoplay calls vb.wait)

    def wait(self, ms):
        clock = self.vb.clock
        until = clock.ticks_ms() + ms
        while self.next_scan <= until:
            clock.advance(self.next_scan - clock.ticks_ms())
            self.vb.scan()
            self.next_scan += SCAN_MS
            self._answers()
        clock.advance(until - clock.ticks_ms())

    def _answers(self):
        board = self.vb.board
        now = self.vb.clock.ticks_ms()
        r = board.reading
        if self._lift is not None and r.state == LIFTED and r.origin == self._lift[1]:
            self.lifts.append(now - self._lift[0])
            self._lift = None
        if self._place is not None:
            tracker = board.tracker
            if tracker is None or r.state != LIFTED or board_landed(board) or \
                    len(tracker.turn.moves) != self._place[1]:
                self.places.append(now - self._place[0])
                self._place = None


def board_landed(board):
    # The LEDs answered the placement ahead of its confirmation (an older firmware never)
    return getattr(board, "landed", False)


def spread(values):
    v = sorted(values)
    if not v:
        return "none"
    return "median %d ms, p95 %d ms, worst %d ms" % (v[len(v) // 2], v[(len(v) * 95) // 100],
                                                    v[-1])


def main():
    print("lift and placement to the board's answer: %d money games per noise, clumsy hands, "
          "scans every %d ms, on %s" % (GAMES, SCAN_MS, sys.implementation.name))
    for noise in NOISES:
        vb = VirtualBoard(seed=7, clumsy=20, noise=noise)
        watch = Watch(vb)
        players = Autoplay(vb, seed=7)
        players.play_games(GAMES)
        sensing = vb.sensor_loop.sensing
        withdrawn = getattr(sensing, "withdrawn", 0)  # an older firmware has no count
        unlanded = getattr(vb.board, "unlanded", 0)
        print("noise %g RMS: %d lifts: %s; %d placements: %s; lifts shown and withdrawn %d; "
              "placements answered and withdrawn %d; unlit %d; plays %d, wrong commits %d, "
              "restores %d"
              % (noise, len(watch.lifts), spread(watch.lifts), len(watch.places),
                 spread(watch.places), withdrawn, unlanded, watch.unlit, players.plays,
                 len(players.mismatches), players.stuck))


main()
