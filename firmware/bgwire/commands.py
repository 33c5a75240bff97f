"""The host's commands (docs/protocol.md, "Commands"): each one's arguments with their kinds,
and parse(), which checks a line against them before the board's handler sees it, so that a
malformed or unknown command gets an error reply and changes nothing.

    {"cmd": "roll", "dice": [5, 2], "id": 7}

COMMANDS: name -> (argument, kind, required, ...). A new command is a line here, its handler
in board/app.py and a row in docs/protocol.md (a test compares the two).
"""

import json

from bgwire import MAX_LINE

# name -> its arguments as flat triples (argument, kind, required, ...): tuples, not dicts of
# dicts, which cost the board 1.5 KB more RAM (an empty tuple costs none). Kinds: "int", "str", "bool", "dict", "dice" (two ints 1..6), "level"
# (1..3), "names" (a list of 1 to 16 names of 1 to 31 characters).
COMMANDS = {
    "hello": (),
    "state": (),
    "dump": (),
    "roll": ("dice", "dice", False),
    "rethrow": ("dice", "dice", True),  # the thrower's dice were cocked: these replace them
    "void": (),  # the opponent voids the play (dice picked up before it was finished)
    "correct_setup": (),  # the setup was wrong: the opening numbers are played again
    "double": ("member", "str", False),  # member: in a chouette, whose stake
    "take": ("member", "str", False),
    "drop": ("member", "str", False),
    "beaver": (),  # instead of take, or just after it
    "raccoon": (),
    "resign": ("level", "level", True),
    "accept": (),
    "reject": (),
    "demand": ("level", "level", True),  # a higher forfeit than the resignation offered
    "new": ("kind", "str", True,  # "match", "money" or "chouette"
            "length", "int", False,
            "games", "int", False,  # money kind: a match over this many games, by the total
            "options", "dict", False,
            "players", "names", False),  # a chouette's, highest rank (the box) first
    "partner": ("member", "str", True),
    "join": ("name", "str", True),
    "leave": ("name", "str", True),
    "undo": (),
    "verify": (),
    "ledtest": (),
    "calibrate": ("step", "str", False),
    "journal": ("since", "int", True),
    "kept": ("name", "str", False, "offset", "int", False,  # journals set aside
             "free", "bool", False),  # the host has it whole: remove it
    "ack": ("journal", "int", True, "seq", "int", True),  # the host has them stored
    "mem": (),
    "guide": ("moves", "str", False, "start", "str", False, "hint", "bool", False,
              "flash", "bool", False),  # board/guide.py
}


class CommandError(ValueError):
    """A command the board refuses; the text goes back to the host, with `fields` (a dict)
    added to the error reply when given, and `ident`, the line's id when parse() could read
    it (the host waits for its reply by it)."""

    def __init__(self, message, fields=None):
        super().__init__(message)
        self.fields = fields
        self.ident = None


def check(kind, value):
    # True when value is of the argument kind (bool is not an int here).
    if kind in ("int", "level"):
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return kind == "int" or 1 <= value <= 3
    if kind == "str":
        return isinstance(value, str) and len(value) <= 64
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "dict":
        return isinstance(value, dict)
    if kind == "dice":
        return (isinstance(value, list) and len(value) == 2
                and all(check("int", d) and 1 <= d <= 6 for d in value))
    if kind == "names":
        return (isinstance(value, list) and 0 < len(value) <= 16
                and all(isinstance(v, str) and 0 < len(v) <= 31 for v in value))
    return False


def parse(line):
    """(cmd, args, id) from one line (bytes), or CommandError saying what is wrong."""
    if len(line) > MAX_LINE:
        raise CommandError("line too long (more than %d bytes)" % MAX_LINE)
    try:
        text = line.decode()
        msg = json.loads(text)
    except Exception:
        raise CommandError("not a JSON object")
    if not isinstance(msg, dict):
        raise CommandError("not a JSON object")
    ident = msg.get("id")
    if ident is not None and not (check("int", ident) or check("str", ident)):
        raise CommandError("id must be an int or a short string")
    try:
        cmd, args = _command(msg)
    except CommandError as e:
        e.ident = ident
        raise
    return cmd, args, ident


def _command(msg):
    cmd = msg.get("cmd")
    if not isinstance(cmd, str):
        raise CommandError("no \"cmd\"")
    spec = COMMANDS.get(cmd)
    if spec is None:
        raise CommandError("unknown command %r" % cmd[:32])
    args = {}
    for key in msg:
        if key in ("cmd", "id"):
            continue
        i = 0
        while i < len(spec) and spec[i] != key:
            i += 3
        if i >= len(spec):
            raise CommandError("%s takes no argument %r" % (cmd, key[:32]))
        kind = spec[i + 1]
        if not check(kind, msg[key]):
            raise CommandError("%s: %s must be %s" % (cmd, key, _KIND_WORDS[kind]))
        args[key] = msg[key]
    for i in range(0, len(spec), 3):
        if spec[i + 2] and spec[i] not in args:
            raise CommandError("%s needs %s" % (cmd, spec[i]))
    return cmd, args


_KIND_WORDS = {
    "int": "an integer",
    "str": "a short string",
    "bool": "true or false",
    "dict": "an object",
    "dice": "two dice, e.g. [5, 2]",
    "level": "1 (single), 2 (gammon) or 3 (backgammon)",
    "names": "a list of 1 to 16 names (1 to 31 characters each)",
}
