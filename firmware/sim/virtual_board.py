"""A whole board in simulation: the sensor model under a table of checkers that simulated
hands move, the board's own sensor loop and game controller on top (or the whole firmware
application), a simulated clock. The virtual board (bgboard sim) and the long tests run
this, on MicroPython as on CPython."""

import gc

from board.controller import Controller
from board.sensor_loop import SensorLoop
from sim.hands import Hands
from sim.rng import Rng
from sim.world import World

SCAN_MS = 20
DEAD = "dead from play"  # the reason the calibration keeps for a sensor found so


class VirtualBoard:
    """Hardware and logic wired together: the sensors' half of the loop as the firmware runs
    it (board.sensor_loop), the game controller on it. `journal` (board.journal.Journal) and
    `renderer` (board.leds.Renderer) are optional; `emit` receives the board's messages.

    `app`, if given, is a factory app(vb) returning a board.app.App on this board's clock,
    sensor model and dice (the firmware application: its own sensing, journal and serial
    protocol); the board is then the App's, and scan() runs the App's loop (scan, serial,
    buttons, time). The board's messages go to the App's link and to `emit`.

    `world` (sim.world.World: clock, sensors, checkers, calibration) is made from seed and
    noise unless given: a long test builds it before it loads the firmware."""

    def __init__(self, seed=1, clumsy=20, noise=3.0, journal=None, renderer=None, emit=None,
                 scan_ms=SCAN_MS, app=None, power=True, world=None):
        if world is None:
            world = World(seed, noise)
        self.clock = world.clock
        self.model = world.model
        self.table = world.table
        self.buf = world.buf
        self.offsets = world.offsets
        self.faulty = world.faulty
        self.scan_ms = scan_ms
        self.dice = Rng(seed * 7 + 1)
        self.hands = Hands(self.table, Rng(seed * 7 + 2), clumsy)
        self.renderer = renderer
        self.emit = emit
        self.make_app = app
        self.app = None
        if power:  # power=False: no board yet (to set the table before power_up())
            self.power_up(journal)

    def power_up(self, journal=None):
        """Start the logic afresh (after a power cut): new sensing, new controller, state
        from the journal (a Journal, or a function that opens one once the sensing stands,
        as a device's would on its fresh heap). The checkers stay where they are."""
        for name in ("board", "sensor_loop"):  # RAM is lost with the power
            if hasattr(self, name):
                delattr(self, name)
        self.app = None
        gc.collect()
        if self.make_app is not None:
            self.app = self.make_app(self)
            self.board = self.app.board
            self.board.emit = self._emit
            return self.app.start()
        self.sensor_loop = SensorLoop(self.model, self.clock, self.buf, offsets=self.offsets,
                                      faulty=[s for s, why in self.faulty if why != DEAD],
                                      dead=[s for s, why in self.faulty if why == DEAD])
        if callable(journal):
            journal = journal()
        self.board = Controller(self.clock, self.dice, journal, self.renderer, self._emit)
        return self.board.resume()

    def _emit(self, msg):
        if self.app is not None:
            self.app.protocol.send(msg)
        if self.emit is not None:
            self.emit(msg)

    def scan(self):
        """One scan period: read the sensors, tell the board what changed, let time pass,
        take a step of the journal's compaction (if one is under way or due)."""
        self.clock.advance(self.scan_ms)
        if self.app is not None:
            self.app.scan()
            self.app.step()
            return
        loop = self.sensor_loop
        if loop.scan():
            if loop.blind_moved:  # a sensor found dead from play, or alive again:
                loop.blind_moved = False  # the calibration keeps it (an App's, on flash)
                why = dict(self.faulty)
                self.faulty[:] = [(s, why.get(s, DEAD)) for s in loop.sensing.blind()]
            if loop.lifted >= 0:  # lit ahead of the board's reading, as the App does
                self.board.on_lift(loop.lifted)
            self.board.on_sensed(loop.sensed)
            loop.learn(self.board)
        if loop.landing_moved:
            loop.landing_moved = False
            self.board.on_landing(loop.landing)
        self.board.tick()
        journal = self.board.journal
        if journal is not None:  # a step of its compaction, as the App's loop takes each turn
            journal.step()

    def wait(self, ms):
        while ms > 0:
            self.scan()
            ms -= self.scan_ms

    def act(self, actions):
        """Carry out a Hands action (a generator of waits), scanning meanwhile."""
        for ms in actions:
            self.wait(ms)
