"""The virtual board's part of the contract (docs/protocol.md, "The virtual board's
simulated hands"): the `sim` lines the host sends to its simulated hands and buttons, never
to the firmware, and the exit codes with which the virtual board's process asks its host
(bgboard sim) to start it again.

    {"sim": "look"}                             the table as it is
    {"sim": "lift", "side": S, "at": P}         a hand takes a checker of side S from P
    {"sim": "place", "side": S, "at": P}        ...and puts it on P
    {"sim": "press", "button": "roll"}          a button (PRESS; beaver: Double and Take)

S: 0 white, 1 black; P in S's own numbering: 1..24 points, 25 its bar, 0 its tray.
"""

from bgwire import DOUBLE, DROP, MENU, ROLL, TAKE, VERIFY

VERBS = ("look", "lift", "place", "press")
# Button names a press takes, and their bits (beaver: Double and Take pressed together).
PRESS = (("roll", ROLL), ("double", DOUBLE), ("take", TAKE), ("drop", DROP),
         ("verify", VERIFY), ("menu", MENU), ("beaver", DOUBLE | TAKE))

# The virtual board's process exits with these to be started again (firmware/sim/unix_pico.py,
# bgboard.unixport): RESET for machine.reset() (a Pico's hard reset) or Ctrl-D's soft reset
# at the friendly REPL, RESET_RAW for a soft reset from the raw REPL (mpremote's), after
# which the new process starts in raw mode.
RESET = 64
RESET_RAW = 65


def is_sim(line):
    """True if a line (bytes) from the host is meant for the simulated hardware."""
    return b'"sim"' in line and b'"cmd"' not in line


def button_bits(name):
    """The bits a press of `name` sets, or 0 for no such button."""
    for n, bits in PRESS:
        if n == name:
            return bits
    return 0


def check(msg):
    """The sim line (a dict) to act on, with only its own fields, or ValueError saying
    what is wrong."""
    if not isinstance(msg, dict):
        raise ValueError("a sim line is a JSON object")
    verb = msg.get("sim")
    if verb == "look":
        return {"sim": "look"}
    if verb == "press":
        button = msg.get("button")
        if not isinstance(button, str) or not button_bits(button):
            raise ValueError("press: button is one of %s" % ", ".join(n for n, _ in PRESS))
        return {"sim": "press", "button": button}
    if verb != "lift" and verb != "place":
        raise ValueError("sim: unknown action %r (%s)" % (verb, ", ".join(VERBS)))
    side = msg.get("side")
    at = msg.get("at")
    if not _in_range(side, 1):
        raise ValueError("%s: side is 0 (white) or 1 (black)" % verb)
    if not _in_range(at, 25):
        raise ValueError("%s: at is 0..25 in that side's numbering" % verb)
    return {"sim": verb, "side": side, "at": at}


def _in_range(v, top):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= top
