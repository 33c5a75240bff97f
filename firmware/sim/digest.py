"""Digests of plain data (sim.autoplay's power-cut check), in a module of their own so that
runs without power cuts do not load them (RAM)."""


def fingerprint(data):
    """Two 30-bit digests of plain data, equal for equal data whatever the order of dict keys
    (it differs between dicts built in different orders) and for tuples as lists: a snapshot
    kept without keeping a copy of it (which would need a piece of heap of its size)."""
    return _digest(data, 1000003), _digest(data, 69069)


def _digest(data, k):
    if isinstance(data, dict):
        h = 0x2545F491
        for key in data:  # a sum of the pairs' digests: the order does not count
            pair = (((_digest(key, k) ^ 0x1D1E995) * k) & 0x3FFFFFFF) ^ _digest(data[key], k)
            h = (h + pair * k) & 0x3FFFFFFF
        return h
    if isinstance(data, (list, tuple)):
        h = 0x1B873593
        for x in data:
            h = ((h ^ _digest(x, k)) * k) & 0x3FFFFFFF
        return h
    if data is None:
        return 0x68E31DA4 & 0x3FFFFFFF
    if isinstance(data, int) or isinstance(data, bool):  # MicroPython: a bool is no int
        return (int(data) * k + 7) & 0x3FFFFFFF
    return (hash(data) * k) & 0x3FFFFFFF  # str, float
