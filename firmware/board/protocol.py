# The board's side of the USB serial protocol: newline-delimited JSON.
#
#   host -> board   {"cmd": "roll", "dice": [5, 2], "id": 7}
#   board -> host   {"id": 7, "ok": true, ...}  or  {"id": 7, "error": "why, in words"}
#   board -> host   {"ev": "play", "seq": 12, ...}   (journal events, pushed as they commit)
#   board -> host   {"hello": "bgboard", "protocol": 1, "firmware": "0.1.0"}  (at start-up)
#
# Every command is checked here against COMMANDS before the handler sees it, so a malformed
# or unknown command gets an error reply and changes nothing.

import json

PROTOCOL = 1
MAX_LINE = 1024

# Argument kinds: "int", "str", "bool", "dict", "dice" (two ints 1..6), "level" (1..3),
# "names" (a list of 1 to 16 names of 1 to 31 characters).
COMMANDS = {
    "hello": {},
    "state": {},
    "dump": {},
    "roll": {"dice": ("dice", False)},
    "rethrow": {"dice": ("dice", True)},  # the thrower's dice were cocked: these replace them
    "void": {},  # the opponent voids the play (dice picked up before it was finished)
    "double": {"member": ("str", False)},  # member: in a chouette, whose stake
    "take": {"member": ("str", False)},
    "drop": {"member": ("str", False)},
    "beaver": {},  # instead of take, or just after it
    "raccoon": {},
    "resign": {"level": ("level", True)},
    "accept": {},
    "reject": {},
    "demand": {"level": ("level", True)},  # a higher forfeit than the resignation offered
    "new": {
        "kind": ("str", True),  # "match", "money" or "chouette"
        "length": ("int", False),
        "games": ("int", False),  # money kind: a match over this many games, by the total
        "options": ("dict", False),
        "players": ("names", False),  # a chouette's, highest rank (the box) first
    },
    "partner": {"member": ("str", True)},
    "join": {"name": ("str", True)},
    "leave": {"name": ("str", True)},
    "undo": {},
    "verify": {},
    "ledtest": {},
    "calibrate": {"step": ("str", False)},
    "journal": {"since": ("int", True)},
    "kept": {"name": ("str", False), "offset": ("int", False)},  # journals set aside
    "ack": {"journal": ("int", True), "seq": ("int", True)},  # the host has them stored
    "mem": {},
    "guide": {"moves": ("str", False), "start": ("str", False), "hint": ("bool", False),
              "flash": ("bool", False)},  # board/guide.py
}


class CommandError(ValueError):
    """A command the board refuses; the text goes back to the host, with `fields` (a dict)
    added to the error reply when given."""

    def __init__(self, message, fields=None):
        super().__init__(message)
        self.fields = fields


def _check(kind, value):
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
                and all(_check("int", d) and 1 <= d <= 6 for d in value))
    if kind == "names":
        return (isinstance(value, list) and 0 < len(value) <= 16
                and all(isinstance(v, str) and 0 < len(v) <= 31 for v in value))
    return False


def parse(line):
    """(cmd, args, id) from one line (bytes), or CommandError saying what is wrong."""
    if len(line) > MAX_LINE:
        raise CommandError("line too long (%d bytes, at most %d)" % (len(line), MAX_LINE))
    try:
        text = line.decode()
        msg = json.loads(text)
    except Exception:
        raise CommandError("not a JSON object")
    if not isinstance(msg, dict):
        raise CommandError("not a JSON object")
    ident = msg.get("id")
    if ident is not None and not (_check("int", ident) or _check("str", ident)):
        raise CommandError("id must be an int or a short string")
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
        if key not in spec:
            raise CommandError("%s takes no argument %r" % (cmd, key[:32]))
        kind = spec[key][0]
        if not _check(kind, msg[key]):
            raise CommandError("%s: %s must be %s" % (cmd, key, _KIND_WORDS[kind]))
        args[key] = msg[key]
    for key in spec:
        if spec[key][1] and key not in args:
            raise CommandError("%s needs %s" % (cmd, key))
    return cmd, args, ident


_KIND_WORDS = {
    "int": "an integer",
    "str": "a short string",
    "bool": "true or false",
    "dict": "an object",
    "dice": "two dice, e.g. [5, 2]",
    "level": "1 (single), 2 (gammon) or 3 (backgammon)",
    "names": "a list of 1 to 16 names (1 to 31 characters each)",
}


class Protocol:
    """Reads commands from `link` (board.hw.SerialLink), hands them to `handler(cmd, args)`
    and writes its reply; pushes events. The handler returns a dict of reply data, or
    raises ValueError (refused: nothing changed)."""

    def __init__(self, link, handler, firmware, info=None):
        """info: called for more fields of the hello (the journal's id and last seq)."""
        self.link = link
        self.handler = handler
        self.firmware = firmware
        self.info = info
        self._holding = False
        self._held = []

    def hello(self):
        msg = {"hello": "bgboard", "protocol": PROTOCOL, "firmware": self.firmware}
        if self.info is not None:
            msg.update(self.info())
        return msg

    def send(self, msg):
        """A reply (or the hello): streamed in pieces, so that a dump's text is never held
        whole. What push() held goes first."""
        if self._held:
            self.release()
        json.dump(msg, self.link)
        self.link.write("\n")

    def push(self, msg):
        """An event or a live line: one write of its text (a fraction of the time streaming
        takes on a Pico: these are short), or held while hold() is on."""
        if self._holding:
            self._held.append(msg)
        else:
            self.link.write(json.dumps(msg) + "\n")

    def hold(self):
        """Keep pushed lines back until release(): the scan loop sends the LEDs' frame
        before telling the host what a scan changed."""
        self._holding = True

    def release(self):
        self._holding = False
        held = self._held
        while held:
            self.push(held.pop(0))

    def poll(self):
        """Answer every complete line that has arrived; returns how many."""
        n = 0
        while True:
            line = self.link.readline()
            if line is None:
                return n
            n += 1
            self.send(self.answer(line))

    def answer(self, line):
        """The reply to one line. Never raises: a fault in a handler is reported too."""
        ident = None
        try:
            cmd, args, ident = parse(line.strip())
            if cmd == "hello":
                reply = self.hello()
            else:
                reply = self.handler(cmd, args) or {}
            reply["ok"] = True
        except ValueError as e:  # refused (CommandError, bgcore's errors)
            reply = {"error": str(e)}
            fields = getattr(e, "fields", None)
            if fields:
                reply.update(fields)
        except MemoryError:
            reply = {"error": "out of memory"}
        except Exception as e:  # a bug must not take the board down
            reply = {"error": "internal error: %s %s" % (type(e).__name__, e)}
        if ident is not None:
            reply["id"] = ident
        return reply
