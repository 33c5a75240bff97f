"""The virtual board's hands and buttons, worked over its serial line: "sim" lines from the
host (a person at the browser view or the terminal) act on the simulated table, never on
the firmware, which only sees what the sensors then read. A real board refuses these lines
(they have no "cmd"), so a host can tell the two apart with {"sim": "look"}.

The lines, their checks and the button names are the contract's (bgwire.sim,
docs/protocol.md): every line is answered {"live": "sim", "table": [white 26 counts,
black 26], "hand": [w, b]} or {"live": "sim", "error": "words"}."""

import json

from bgwire.sim import button_bits, check


class SimControl:
    """Carries out sim lines on `table` (sim.table.Table) and `buttons` (sim.hw
    .SimButtons); replies through send(msg)."""

    def __init__(self, table, buttons, send):
        self.table = table
        self.buttons = buttons
        self.send = send

    def handle(self, line):
        try:
            self._do(check(json.loads(line)))
        # MemoryError, RuntimeError: a hostile line (JSON nested hundreds deep) is refused
        # like any bad one, never the end of the board.
        except (ValueError, TypeError, KeyError, MemoryError, RuntimeError) as e:
            self.send({"live": "sim", "error": str(e) or "malformed sim line"})
            return
        t = self.table
        self.send({"live": "sim", "table": [list(t.count[0]), list(t.count[1])],
                   "hand": list(t.in_hand)})

    def _do(self, msg):
        verb = msg["sim"]
        if verb == "press":
            self.buttons.press(button_bits(msg["button"]))
        elif verb == "lift":
            self.table.lift(msg["side"], msg["at"])
        elif verb == "place":
            self.table.put(msg["side"], msg["at"])
