"""Byte lines to and from the board, apart from what they mean (as mpremote keeps its
transport apart from its commands).

`SerialTransport` opens anything pyserial's `serial_for_url` opens: a device path
(/dev/ttyACM0, COM3), a PTY (/dev/pts/N) or a `socket://host:port` URL, always exclusively
so two programs cannot share the board. `ScriptedTransport` is an in-memory board for tests.

A transport reads whole lines (without the newline) and writes lines. A line longer than
MAX_LINE bytes is reported (`on_problem`) and dropped up to its newline. When the link is
gone (cable pulled, PTY closed, socket dropped) reading or writing raises `Disconnected`.
"""

import collections
import threading
import time

MAX_LINE = 4096
BAUD = 115200


class TransportError(Exception):
    """The port cannot be opened (missing, busy, refused); the text names it."""


class PortMissing(TransportError):
    pass


class PortBusy(TransportError):
    pass


class NotSerial(TransportError):
    """The path is there but no serial device (a regular file, a folder, /dev/null)."""


class Disconnected(TransportError):
    """The link went away while in use."""


class LineBuffer:
    """Splits received bytes into lines, dropping lines over `limit` bytes."""

    def __init__(self, limit=MAX_LINE, on_problem=None):
        self.limit = limit
        self.on_problem = on_problem
        self._buf = bytearray()
        self._skipping = 0  # bytes dropped of an overlong line, until its newline
        self.lines = collections.deque()

    def feed(self, data):
        start = 0
        while start < len(data):
            nl = data.find(b"\n", start)
            end = len(data) if nl < 0 else nl
            piece = data[start:end]
            if self._skipping:
                self._skipping += len(piece)
            else:
                self._buf += piece
                if len(self._buf) > self.limit:
                    self._skipping = len(self._buf)
                    self._buf = bytearray()
            if nl < 0:
                break
            if self._skipping:
                self._problem("a line of %d bytes (over %d) was dropped"
                              % (self._skipping, self.limit))
                self._skipping = 0
            else:
                line = bytes(self._buf)
                if line.endswith(b"\r"):
                    line = line[:-1]
                self.lines.append(line)
            self._buf = bytearray()
            start = nl + 1

    def _problem(self, text):
        if self.on_problem is not None:
            self.on_problem(text)

    def pop(self):
        return self.lines.popleft() if self.lines else None


class Transport:
    """What the protocol layer needs: read_line(timeout), write_line(bytes), close()."""

    name = "?"
    lines = None  # a LineBuffer

    def report_to(self, on_problem):
        """Send this transport's problems (overlong lines) to `on_problem`."""
        if self.lines is not None:
            self.lines.on_problem = on_problem

    def read_line(self, timeout):
        """The next line (bytes, no newline), or None if none came within `timeout` s."""
        raise NotImplementedError

    def write_line(self, line):
        raise NotImplementedError

    def close(self):
        pass


def _describe(url, e):
    text = str(e)
    errno = getattr(e, "errno", None)
    # pyserial opens a regular file or /dev/null, then fails to set its line (ENOTTY)
    if errno in (21, 25) or "Inappropriate ioctl" in text or "Is a directory" in text:
        return NotSerial("port %s is not a serial port: give the board's (`bgboard ports` "
                         "lists them; `bgboard sim` prints the virtual board's)" % url)
    if "exclusively lock" in text or errno in (11, 16) or "busy" in text.lower():
        return PortBusy("port %s is busy: another program has it open (close it, e.g. "
                        "another bgboard or a serial terminal)" % url)
    if errno == 2 or "No such file" in text:
        return PortMissing("port %s does not exist: is the board plugged in? (`bgboard "
                           "ports` lists the ports; `bgboard sim` prints the virtual board's)"
                           % url)
    if errno == 13 or "Permission denied" in text:
        return TransportError("no permission to open %s (on Linux, join the dialout group)"
                              % url)
    if "Connection refused" in text:
        return PortMissing("nothing listens at %s (connection refused)" % url)
    return TransportError("cannot open %s: %s" % (url, text))


class SerialTransport(Transport):
    """A pyserial port, opened exclusively with serial_for_url."""

    def __init__(self, url, timeout=0.05, on_problem=None, baudrate=BAUD):
        import serial

        self.name = url
        self._serial_error = serial.SerialException
        try:
            self.port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout,
                                              exclusive=True)
        except (serial.SerialException, OSError, ValueError) as e:
            raise _describe(url, e) from None
        self.lines = LineBuffer(MAX_LINE, on_problem)

    def read_line(self, timeout):
        line = self.lines.pop()
        if line is not None:
            return line
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                waiting = self.port.in_waiting
                data = self.port.read(max(1, min(waiting, 65536)))
            except (self._serial_error, OSError) as e:
                raise Disconnected("link to %s lost: %s" % (self.name, e)) from None
            if data:
                self.lines.feed(data)
                line = self.lines.pop()
                if line is not None:
                    return line
            if time.monotonic() >= deadline:
                return None

    def write_line(self, line):
        try:
            self.port.write(line + b"\n")
            self.port.flush()
        except (self._serial_error, OSError) as e:
            raise Disconnected("link to %s lost: %s" % (self.name, e)) from None

    def close(self):
        try:
            self.port.close()
        except Exception:
            pass


class ScriptedTransport(Transport):
    """An in-memory board. `board(line)` (optional) answers each line the host writes with
    a list of lines (bytes or dicts, sent as JSON); `push(...)` queues lines from the board
    at any time (thread-safe); `disconnect()` makes the next read or write fail. `written`
    keeps what the host wrote."""

    def __init__(self, board=None, name="scripted", on_problem=None):
        self.name = name
        self.board = board
        self.written = []
        self.lines = LineBuffer(MAX_LINE, on_problem)
        self._cond = threading.Condition()
        self._closed = False
        self.gone = False

    def push(self, *items):
        import json

        with self._cond:
            for item in items:
                if isinstance(item, dict):
                    item = json.dumps(item).encode() + b"\n"
                elif isinstance(item, str):
                    item = item.encode()
                self.lines.feed(item if item.endswith(b"\n") else item + b"\n")
            self._cond.notify_all()

    def push_raw(self, data):
        with self._cond:
            self.lines.feed(data)
            self._cond.notify_all()

    def disconnect(self):
        with self._cond:
            self.gone = True
            self._cond.notify_all()

    def read_line(self, timeout):
        deadline = time.monotonic() + max(0.0, timeout)
        with self._cond:
            while True:
                line = self.lines.pop()
                if line is not None:
                    return line
                if self.gone:
                    raise Disconnected("link to %s lost" % self.name)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)

    def write_line(self, line):
        if self.gone:
            raise Disconnected("link to %s lost" % self.name)
        self.written.append(line)
        if self.board is not None:
            replies = self.board(line)
            if replies:
                self.push(*replies)

    def close(self):
        self._closed = True
