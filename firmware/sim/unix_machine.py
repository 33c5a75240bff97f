"""The virtual board's `machine` module: the unix port's, plus reset(). The device
(sim/unix_pico.py) puts it in sys.modules as `machine`, so that `mpremote reset` (which runs
machine.reset()) restarts the virtual board and its firmware as it restarts a Pico."""

from machine import *  # noqa: F401,F403

from bgwire.sim import RESET  # the process starts again (sim/unix_pico.py), the firmware runs


def reset():
    raise SystemExit(RESET)
