"""The simulated clock, on its own: a test of the board logic needs a clock, not the
simulated sensors (sim.sensor_model, 20 KB of heap on the unix port with the sensing it
imports)."""

PERIOD = 1 << 30  # ticks_ms wraps here on a Pico


class SimClock:
    """A clock the test moves by hand (board.hw.Clock); wraps at 2**30 like a Pico's."""

    def __init__(self, start=0):
        self._t = start % PERIOD

    def ticks_ms(self):
        return self._t

    def ticks_diff(self, a, b):
        d = (a - b) & (PERIOD - 1)
        return d - PERIOD if d >= PERIOD >> 1 else d

    def ticks_add(self, t, delta):
        return (t + delta) % PERIOD

    def sleep_ms(self, ms):
        self.advance(ms)

    def advance(self, ms):
        self._t = (self._t + ms) % PERIOD
