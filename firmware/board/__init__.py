"""Board logic: sensing, tracker, game controller, LEDs, journal, protocol, application."""
import sys


def forget(name):
    """Let a module loaded for a seldom task go (board.NAME): its code leaves the heap once
    nothing else holds it (a Pico's heap is small)."""
    sys.modules.pop("board." + name, None)
    g = globals()
    if name in g:  # MicroPython keeps it in the package too
        del g[name]
