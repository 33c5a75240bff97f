"""The board's side of the USB serial protocol: newline-delimited JSON.

  host -> board   {"cmd": "roll", "dice": [5, 2], "id": 7}
  board -> host   {"id": 7, "ok": true, ...}  or  {"id": 7, "error": "why, in words"}
  board -> host   {"ev": "play", "seq": 12, ...}   (journal events, pushed as they commit)
  board -> host   {"hello": "bgboard", "protocol": 1, "firmware": "0.1.0"}  (at start-up)

Every command is checked against bgwire.commands (the contract both ends share) before the
handler sees it, so a malformed or unknown command gets an error reply and changes nothing."""

import json

from bgwire import PROTOCOL
from bgwire.commands import CommandError, parse


class Protocol:
    """Reads commands from `link` (board.hw.SerialLink), hands them to `handler(cmd, args)`
    and writes its reply; pushes events. The handler returns a dict of reply data, or
    raises ValueError (refused: nothing changed)."""

    def __init__(self, link, handler, firmware, info=None):
        """info: called for more fields of the hello (the journal's id and last seq)."""
        self.link = link
        # The stream messages are written to: the link's own native one where it has one
        # (drivers.usb_link: sys.stdout), else the link.
        self.out = link.out if hasattr(link, "out") else link
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
        """A reply (or the hello). What push() held goes first."""
        if self._held:
            self.release()
        self._write(msg)

    def push(self, msg):
        """An event or a live line, or held while hold() is on."""
        if self._holding:
            self._held.append(msg)
        else:
            self._write(msg)

    def _write(self, msg):
        # Streamed in pieces: a message's text (a dump's is 2 KB) is never held whole.
        out = self.out
        json.dump(msg, out)
        out.write("\n")

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
            if ident is None:  # the line's own, read before parse() refused the rest
                ident = getattr(e, "ident", None)
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
