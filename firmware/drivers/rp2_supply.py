# The supply sense (board.hw.Supply): GP22 reads the 5 V input through a 10 k / 15 k divider,
# high while the board's own supply is plugged in (hardware/README.md). No pull: the divider
# drives the pin either way.

from machine import Pin


class Rp2Supply:
    def __init__(self, pinmap):
        sense = pinmap["gpio"]["power_sense"]
        self._pin = Pin(sense["pin"], Pin.IN)
        self._active = sense.get("active", 1)

    def external(self):
        return self._pin.value() == self._active
