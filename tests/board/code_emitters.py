# MicroPython's code emitters for the Pico drivers' tests on CPython: @micropython.native and
# @micropython.viper leave a function as it is, and viper's ptr8(buffer) is the buffer
# itself, so the same function bodies run as plain Python. MicroPython has its own.
import sys


class _Micropython:
    @staticmethod
    def native(fn):
        return fn

    @staticmethod
    def viper(fn):
        return fn


def lend():
    """Install the stand-ins where the interpreter lacks them (CPython); a no-op on
    MicroPython."""
    if sys.implementation.name == "micropython":
        return
    import builtins

    sys.modules.setdefault("micropython", _Micropython)  # type: ignore[arg-type]
    if not hasattr(builtins, "ptr8"):
        builtins.ptr8 = lambda buf: buf  # type: ignore[attr-defined]
