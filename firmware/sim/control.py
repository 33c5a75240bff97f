# The virtual board's hands and buttons, worked over its serial line: "sim" lines from the
# host (a person at the browser view or the terminal) act on the simulated table, never on
# the firmware, which only sees what the sensors then read. A real board refuses these lines
# (they have no "cmd"), so a host can tell the two apart with {"sim": "look"}.
#
#   {"sim": "look"}                             the table as it is
#   {"sim": "lift", "side": S, "at": P}         a hand takes a checker of side S from P
#   {"sim": "place", "side": S, "at": P}        ...and puts it on P
#   {"sim": "press", "button": "roll"}          roll, double, take, drop, undo, menu, beaver
#                                               (beaver: double and take pressed together)
#
# S: 0 white, 1 black; P in S's own numbering: 1..24 points, 25 its bar, 0 its tray. Every
# line is answered {"live": "sim", "table": [white 26 counts, black 26], "hand": [w, b]} or
# {"live": "sim", "error": "words"}.

import json

from board.controller import DOUBLE, DROP, MENU, ROLL, TAKE, UNDO

BUTTONS = {"roll": ROLL, "double": DOUBLE, "take": TAKE, "drop": DROP, "undo": UNDO,
           "menu": MENU, "beaver": DOUBLE | TAKE}


def is_sim(line):
    """True if a line from the host is meant for the simulated hardware."""
    return b'"sim"' in line and b'"cmd"' not in line


class SimControl:
    """Carries out sim lines on `table` (sim.table.Table) and `buttons` (sim.devices
    .SimButtons); replies through send(msg)."""

    def __init__(self, table, buttons, send):
        self.table = table
        self.buttons = buttons
        self.send = send

    def handle(self, line):
        try:
            self._do(json.loads(line))
        # MemoryError, RuntimeError: a hostile line (JSON nested hundreds deep) is refused
        # like any bad one, never the end of the board.
        except (ValueError, TypeError, KeyError, MemoryError, RuntimeError) as e:
            self.send({"live": "sim", "error": str(e) or "malformed sim line"})
            return
        t = self.table
        self.send({"live": "sim", "table": [list(t.count[0]), list(t.count[1])],
                   "hand": list(t.in_hand)})

    def _do(self, msg):
        if not isinstance(msg, dict):
            raise ValueError("a sim line is a JSON object")
        verb = msg.get("sim")
        if verb == "look":
            return
        if verb == "press":
            button = msg.get("button")
            if button not in BUTTONS:
                raise ValueError("press: button is one of %s" % ", ".join(sorted(BUTTONS)))
            self.buttons.press(BUTTONS[button])
            return
        if verb != "lift" and verb != "place":
            raise ValueError("sim: unknown action %r (look, lift, place, press)" % (verb,))
        side = msg.get("side")
        at = msg.get("at")
        if not (_in_range(side, 1) and _in_range(at, 25)):
            raise ValueError("%s: side is 0 or 1, at is 0..25 (in that side's numbering)"
                             % verb)
        if verb == "lift":
            self.table.lift(side, at)
        else:
            self.table.put(side, at)


def _in_range(v, top):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= top
