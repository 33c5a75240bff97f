# The device loop's care for its heap (board.app.App._tidy_heap): garbage past GARBAGE_MAX
# since the last collection is collected at the end of a turn of the loop, its lights and
# lines out, so that what stays lands low in the heap and its largest free block stays
# large (`make bench-pico`: the least largest block over two matches 69 KB, 39 KB when the
# heap was collected only each second and when full). MicroPython only: CPython has no
# such heap.
import gc
import sys

from board.app import GARBAGE_MAX
from board_support import rmtree, tmpdir
from faulty_storage import Metered
from test_app_compact import _app


def test_garbage_past_its_bound_is_collected_at_the_end_of_a_turn_and_not_before():
    if sys.implementation.name != "micropython":
        return
    path = tmpdir("bgboard-app")
    try:
        app = _app(Metered(path))
        gc.collect()
        gc.disable()  # no collection but the loop's own: one when full would pass for it
        junk = bytearray(GARBAGE_MAX + 1024)
        junk = None
        app._tidy_heap()  # past the bound: collected, and the heap in use after it noted
        base = gc.mem_alloc()  # type: ignore[attr-defined]
        junk = bytearray(GARBAGE_MAX // 2)
        junk = None
        app._tidy_heap()  # under it: left for a later turn
        assert gc.mem_alloc() >= base + GARBAGE_MAX // 2  # type: ignore[attr-defined]
        junk = bytearray(GARBAGE_MAX // 2 + 1024)
        junk = None
        app._tidy_heap()
        assert gc.mem_alloc() < base + 1024, (gc.mem_alloc(), base)  # type: ignore[attr-defined]
        assert junk is None
    finally:
        gc.enable()
        rmtree(path)
