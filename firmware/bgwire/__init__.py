"""bgwire: the contract between the board and the host, one copy for both ends.

docs/protocol.md says it in words; these modules say it in code, and tests/host
test_protocol_doc.py fails when the two disagree. Runs unchanged on MicroPython (the board,
the virtual board) and CPython (the host, packaged like bgcore); imports nothing of ours.

    bgwire            PROTOCOL (the version both ends speak), MAX_LINE (bytes a line may have)
    bgwire.commands   the host's commands, their arguments and checks (parse)
    bgwire.events     the journaled events and their fields (the host checks them)
    bgwire.panel      button bits, LED roles' colours, point numbering (the board's)
    bgwire.roles      the LED roles' names, and a drawn colour read back to its role
    bgwire.lines      the line reader: bytes in, bounded lines out
    bgwire.sim        the virtual board's sim lines, and its process's exit codes
"""

PROTOCOL = 1  # a hello naming another version is refused by the host
MAX_LINE = 1024  # bytes of one line, newline not counted
