# The commands of bgwire.commands as dicts, for the tests (the board keeps them as flat
# tuples: its RAM), under pytest and MicroPython alike.
from bgwire.commands import COMMANDS


def arguments(cmd):
    """{argument: (kind, required)} of a command of bgwire.commands (KeyError if unknown)."""
    spec = COMMANDS[cmd]
    return {spec[i]: (spec[i + 1], spec[i + 2]) for i in range(0, len(spec), 3)}
