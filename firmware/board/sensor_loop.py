"""The sensors' half of the board's loop, one wiring for every board: read the scanner, run
the sensing pipeline (board.sensing), keep the board's view of the checkers (Sensed)
current, and let the sensing learn from what the game controller knows. The application
(board.app.App, which a Pico and the virtual board run) and the soaks' virtual board without
the application (sim.virtual_board) both run it.

    loop = SensorLoop(scanner, clock, raw, offsets=..., faulty=[...], dead=[...])
    if loop.scan():                  # the board's view changed
        if loop.lifted >= 0:         # a lift on its first strong scan: lit before the rest
            board.on_lift(loop.lifted)
        board.on_sensed(loop.sensed)
        ...                          # the LEDs go out first: a person waits for them
        loop.learn(board)
"""

from board import heap
from board.sensing import Sensing
from board.tracker import Sensed


class SensorLoop:
    """scanner: board.hw.Scanner (one with watch() checks the readings against the
    sensing's windows as it reads); raw: the preallocated buffer of 128 readings. field,
    offsets, gains, learned: as board.sensing.Sensing takes them; faulty: slots calibrated
    as faulty; dead: slots found dead from play before.

    After scan(): `sensed` is the board's view; `blind_moved` is set (the owner clears it)
    when the sensing found a sensor dead from play, or alive again: the owner keeps its
    blind slots (sensing.blind(2)) with its calibration; `landing_moved` when `landing`
    changed; `lifted`, the slot of a lift of the mover's checker that scan() confirmed (on
    its first strong evidence, or a weak one by the stable time) as its only change (-1
    none): board.on_lift() lights its destinations before the board reads its view
    (on_sensed)."""

    def __init__(self, scanner, clock, raw, field=None, offsets=None, gains=None, faulty=(),
                 dead=(), learned=None):
        self.scanner = scanner
        self.raw = raw
        self.sensing = Sensing(clock, field, offsets, gains, disabled=faulty, dead=dead,
                               learned=learned)
        # A fresh view follows the pipeline's frame from its start (scan() gives it the
        # changes); a blind slot's point may hold more than it shows.
        self.sensed = Sensed(self.sensing.blind())
        self.blind_moved = False
        # The slot where the lifted checker shows being put down before the sensing
        # confirms it (sensing.landing), and whether it moved since the owner looked
        # (the owner clears it): board.on_landing() answers it.
        self.landing = -1
        self.landing_moved = False
        self.lifted = -1
        self._left = None  # the slots a watching scanner found outside their windows
        if hasattr(scanner, "watch"):
            self._left = bytearray(len(raw))
            lo, hi = self.sensing.windows()
            scanner.watch(lo, hi, self._left)
        self._clock = clock
        self._started = clock.ticks_ms()
        self._looked = False  # the board has been given a first stable frame
        self._board = None  # the board learn() was given: whose checkers may be lifted now

    def scan(self):
        """Read the sensors once; True when the board's view changed (the board is to be
        told: board.on_sensed(self.sensed)). Once, after the first stable_ms, True even if
        nothing changed: an empty board changes nothing, yet the board must know it to ask
        for the checkers."""
        sensing = self.sensing
        sensing.finish(self.raw)  # what the last scan left, before its readings go
        n = self.scanner.read_into(self.raw)
        heap.lock()  # the pipeline's calls take their frames from the C stack (board.heap)
        try:
            changed = self._pipeline(n)
        finally:
            heap.unlock()
        self.lifted = sensing.lifted if changed == 1 else -1
        if sensing.landing != self.landing:
            self.landing = sensing.landing
            self.landing_moved = True
        if sensing.blind_moved:  # a sensor found dead from play (or alive again)
            sensing.blind_moved = False
            self.blind_moved = True
            self.sensed = Sensed(sensing.blind())
            self.sensed.read(sensing.frame)
            self.lifted = -1  # a new view for the board to read: no shortcut
            return True
        if changed:
            self.sensed.update(sensing.frame, sensing.changed, changed)
            return True
        if self._looked:
            return False
        clock = self._clock
        self._looked = clock.ticks_diff(clock.ticks_ms(), self._started) >= sensing.stable_ms
        if self._looked:
            self.sensed.read(sensing.frame)
        return self._looked

    def _pipeline(self, n):
        # The sensing of the readings, n of them outside their windows: nothing here
        # allocates but call frames (scan() runs it with the heap locked).
        sensing = self.sensing
        if self._board is not None:  # a lift of the mover's checker is shown at once, and
            hand = self._board.hand()  # where it is put down answered at once
            sign = 1 if hand > 0 else -1
            hand *= sign  # 1: a lift of that colour, 2: a placement, 3: both
            sensing.lift_sign = sign if hand & 1 else 0
            sensing.land_sign = sign if hand & 2 else 0
        return sensing.scan(self.raw, self._left, n)

    def learn(self, board):
        """After a scan that changed the board's view (and after its LEDs went out: a person
        waits for those): the sensing learns from what board (board.controller.Controller)
        now knows stands on the slots (True), or favours reading what it asks to be put
        back."""
        self._board = board
        self.sensing.finish(self.raw)  # a lift's scan left its re-zeroing till its lights
        agreed = board.agreement()
        if agreed is not None:
            self.sensing.confirm(self.raw, None if agreed is True else agreed)
            return True
        want = board.restoring()
        if want is not None:
            self.sensing.expect(want)
        return False
