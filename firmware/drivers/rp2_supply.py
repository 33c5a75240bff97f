"""The supply sense (board.hw.Supply): GP22 reads the 5 V input through a 10 k / 15 k divider,
high while the board's own supply is plugged in (hardware/README.md). main.py passes the
pin (a machine.Pin input, no pull: the divider drives it either way) and its active level."""


class Rp2Supply:
    def __init__(self, pin, active=1):
        self._pin = pin
        self._active = active

    def external(self):
        return self._pin.value() == self._active
