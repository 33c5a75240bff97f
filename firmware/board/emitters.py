"""MicroPython's code emitters where the interpreter has none: CPython runs the board logic in
the tests and the virtual board, where @micropython.native leaves a function as it is. On
MicroPython `micropython` is built in and this module is never loaded."""


def native(fn):
    return fn
