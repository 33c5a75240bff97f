"""A small seeded random source (xorshift32): the same numbers on CPython and MicroPython, so
a simulated match replays identically under either (board.hw.Random)."""

_M32 = 0xFFFFFFFF


class Rng:
    """state: the generator's 32-bit state (never 0); set it to go on from a saved one."""

    def __init__(self, seed=1):
        self.state = (seed * 2654435761 + 12345) & _M32 or 1

    def next32(self):
        x = self.state
        x ^= (x << 13) & _M32
        x ^= x >> 17
        x ^= (x << 5) & _M32
        self.state = x
        return x

    def randint(self, a, b):
        """An int in a..b inclusive."""
        return a + self.next32() % (b - a + 1)
