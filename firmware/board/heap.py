"""The heap locked around a lift's path, from the scan's readings to its lights.

MicroPython gives a call whose arguments, locals and stack pass 11 words a frame from the
heap, and the allocator searches first-fit from the lowest free block, past every small
hole the live objects leave: on a match's heap those searches were a sixth of a lift's time
on the emulated RP2040, and a third in its slowest lifts. With the heap locked such a call
takes its frame from the C stack instead (py/objfun.c: the heap's refusal is its fallback),
so code that allocates nothing else runs at the same speed on any heap and cannot start a
collection. Anything else it allocates raises MemoryError while locked: the code run so is
kept to what the tests show allocates nothing but frames (tests/board/test_app_lift.py
runs it locked on the unix port, as every board test and soak does). An exception made while locked keeps its type and a constant message (the
emergency exception buffer), not a formatted one.

On CPython these do nothing."""

try:
    import micropython
except ImportError:  # CPython
    micropython = None


def _nothing():
    return 0


lock = getattr(micropython, "heap_lock", _nothing)
unlock = getattr(micropython, "heap_unlock", _nothing)
