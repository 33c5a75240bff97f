"""A scripted board speaking docs/protocol.md, for the host's tests: over an in-memory
transport (FakeBoard.answer as ScriptedTransport's responder), a real PTY (PtyBoard: pyserial
opens the slave path, the board thread works the master side) or a TCP socket (SocketBoard:
the host opens socket://127.0.0.1:PORT).

The board keeps a journal of committed events (`commit`), answers `hello`, `journal` (in
pages of `page` events; a `resync` error for what it no longer keeps, `first`) and any
other command with `ok` (or what `handler` returns), and can push noise.
"""

import json
import os
import select
import socket
import threading
import time
import tty


class FakeBoard:
    def __init__(self, journal_id=123456789, protocol=1, firmware="0.1.0", page=8,
                 handler=None, hello_fields=True):
        self.journal_id = journal_id
        self.protocol = protocol
        self.firmware = firmware
        self.page = page
        self.handler = handler
        self.hello_fields = hello_fields
        self.events = []  # committed events, seq 1.. (first: the oldest kept)
        self.first = 1
        self.commands = []  # (cmd, args) received
        self.lock = threading.Lock()
        self.silent = False  # True: answer nothing
        self.hello_extra = {}  # more fields for hello ("lost", "kept"...)

    @property
    def last(self):
        return self.events[-1]["seq"] if self.events else self.first - 1

    def hello(self):
        h = {"hello": "bgboard", "protocol": self.protocol, "firmware": self.firmware}
        if self.hello_fields:
            h["journal"] = self.journal_id
            h["seq"] = self.last
        h.update(self.hello_extra)
        return h

    def commit(self, ev):
        """Journal an event (a dict without seq); returns it with its seq."""
        with self.lock:
            e = dict(ev)
            e.pop("seq", None)
            e = dict({"ev": e.pop("ev"), "seq": self.last + 1}, **e)
            self.events.append(e)
            return e

    def forget_before(self, seq):
        """Compaction: keep only the events from `seq` on."""
        with self.lock:
            self.events = [e for e in self.events if e["seq"] >= seq]
            self.first = seq

    def lose_after(self, seq):
        """A damaged flash line cut the journal short and its id stayed (older firmware): the
        events after `seq` are gone and the next commits reuse their seqs."""
        with self.lock:
            self.events = [e for e in self.events if e["seq"] <= seq]

    def restart_journal(self, journal_id):
        with self.lock:
            self.journal_id = journal_id
            self.events = []
            self.first = 1

    def answer(self, line):
        """The reply lines (dicts) to one line from the host."""
        if self.silent:
            return []
        try:
            msg = json.loads(line)
        except ValueError:
            return [{"error": "not a JSON object"}]
        if not isinstance(msg, dict) or not isinstance(msg.get("cmd"), str):
            return [{"error": "no \"cmd\""}]
        cmd = msg["cmd"]
        ident = msg.get("id")
        args = {k: v for k, v in msg.items() if k not in ("cmd", "id")}
        self.commands.append((cmd, args))
        with self.lock:
            if cmd == "hello":
                reply = self.hello()
                reply["ok"] = True
            elif cmd == "journal":
                since = args.get("since")
                if not isinstance(since, int) or since < self.first - 1 or since > self.last:
                    reply = {"error": "resync", "first": self.first, "last": self.last}
                else:
                    evs = [e for e in self.events if e["seq"] > since][:self.page]
                    reply = {"ok": True, "events": evs}
            elif self.handler is not None:
                reply = self.handler(cmd, args)
            else:
                reply = {"ok": True}
        if ident is not None:
            reply["id"] = ident
        return [reply]


def _line(obj):
    if isinstance(obj, (bytes, bytearray)):
        return bytes(obj)
    return json.dumps(obj).encode() + b"\n"


class _Runner:
    """Reads host lines in a thread and answers through `send`."""

    def __init__(self, board):
        self.board = board
        self._stop = False
        self._buf = b""
        self.thread = None

    def start(self):
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self):
        while not self._stop:
            data = self._recv()
            if data is None:
                time.sleep(0.01)
                continue
            self._buf += data
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                for reply in self.board.answer(line):
                    self.send(reply)

    def push(self, obj):
        """A line from the board (a dict as JSON, or raw bytes)."""
        self.send(obj)

    def commit(self, ev, push=True):
        e = self.board.commit(ev)
        if push:
            self.send(e)
        return e

    def stop(self):
        self._stop = True
        if self.thread is not None:
            self.thread.join(2)


class PtyBoard(_Runner):
    """The board on the master side of a PTY; `path` is the slave the host opens."""

    def __init__(self, board):
        super().__init__(board)
        self.master = None
        self.slave = None
        self.path = None
        self.lock = threading.Lock()
        self.open()

    def open(self):
        with self.lock:
            master, slave = os.openpty()
            tty.setraw(slave)
            self.master, self.slave = master, slave
            self.path = os.ttyname(slave)
            self._buf = b""

    def disconnect(self):
        """Pull the cable: both ends close; the host's next read fails."""
        with self.lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self.master = self.slave = None

    def _recv(self):
        master = self.master
        if master is None:
            return None
        try:
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                return None
            return os.read(master, 4096)
        except OSError:
            return None

    def send(self, obj):
        with self.lock:
            if self.master is None:
                return
            data = _line(obj)
            try:
                while data:
                    n = os.write(self.master, data)
                    data = data[n:]
            except OSError:
                pass

    def stop(self):
        super().stop()
        self.disconnect()


class SocketBoard(_Runner):
    """The board behind a TCP port: the host opens socket://127.0.0.1:PORT (the same URL
    after a disconnect)."""

    def __init__(self, board):
        super().__init__(board)
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.server.settimeout(0.05)
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.conn = None
        self.lock = threading.Lock()
        self.accepting = True
        self.connections = 0

    def _recv(self):
        conn = self.conn
        if conn is None:
            if not self.accepting:
                return None
            try:
                c, _ = self.server.accept()
            except OSError:
                return None
            c.settimeout(0.02)
            with self.lock:
                self.conn = c
                self._buf = b""
                self.connections += 1
            return None
        try:
            data = conn.recv(4096)
        except socket.timeout:
            return None
        except OSError:
            self.disconnect()
            return None
        if not data:
            self.disconnect()
            return None
        return data

    def send(self, obj):
        with self.lock:
            if self.conn is None:
                return
            try:
                self.conn.sendall(_line(obj))
            except OSError:
                pass

    def disconnect(self):
        with self.lock:
            if self.conn is not None:
                try:
                    self.conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self.conn.close()
                self.conn = None

    def wait_connected(self, timeout=5):
        deadline = time.monotonic() + timeout
        while self.conn is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.conn is not None

    def stop(self):
        super().stop()
        self.disconnect()
        self.server.close()
