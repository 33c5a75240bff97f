"""The protocol client: docs/protocol.md over a transport (bgboard.transport).

    link = Link(lambda: SerialTransport("/dev/ttyACM0"), "/dev/ttyACM0",
                on_event=record, on_status=print)
    link.connect()                      # opens the port, hello, catches up with the journal
    link.command("roll", dice=[5, 2])   # the reply (a dict), or Refused / LinkError
    link.poll(1.0)                      # reads for a second, delivering events in order

- Commands carry an `id`; the reply with that id is the command's answer. No answer within
  `timeout` seconds raises CommandTimeout; an `{"error": ...}` reply raises Refused.
- Events are delivered in seq order, each once: a repeated seq is dropped, a gap (seq
  beyond the next) makes the link read the board's journal (`{"cmd":"journal","since":N}`)
  before going on. `last_seq` is the last delivered; `recent` maps the seqs of the last
  RECENT delivered to their events (a Recorder seeds it with its current match).
- Lines that are not protocol (a REPL banner, a traceback, bad JSON, a reply nobody asked
  for) go to `on_problem` and are skipped.
- When the port goes away and `reconnect` is on, the link keeps trying to open it again,
  saying so through `on_status` ("reconnecting to PORT (attempt N)"), then says hello and
  reads the journal from `last_seq`: no gap, no duplicate. A new journal id in the hello
  (the board's history restarted) or a `resync` error means reading what the board keeps
  from its start; `on_journal(id)` tells the consumer, between the events of the two
  journals.
- Declared gaps: a damaged flash line the board could not correct costs events; its journal
  keeps its id and declares them lost (`{"lost": [F, L], "undone": bool}` in place of them in
  a `journal` reply, and `lost`/`undone` in the hello after the repair). A host that lacks
  them says so once and goes on after L; one that holds them keeps them, unless `undone` (the
  board went back to the state after F - 1, then goes on from L + 1): its history forked at
  F - 1, so it starts a new timeline that begins with its own events up to F - 1 (its
  consumer is told `on_timeline(id, n, F - 1, L)`), never logging them twice.
- Timelines: the board's journal may lose events and keep its id (a damaged flash line cut it
  short; older firmware), then reuse their seqs for new events. A hello or a `resync` saying
  the journal ends before `last_seq`, or a pushed event whose seq is in `recent` with other
  content, means the board's history is no longer the one received: the link never merges
  the two. It says so (one `on_problem` line naming both timelines, `ID.N`), counts
  `timeline` up (1 for each new journal id) and reads what the board keeps from its first
  kept event; `on_timeline(id, n)` tells the consumer, between the events of the two
  timelines. A resent event equal to the one received stays a mere duplicate.
- Acknowledgements: with `ack` on (a Recorder sets it: its on_event has the event on disk
  when it returns), the link tells the board what is stored (`{"cmd":"ack","journal":ID,
  "seq":N}`) after each catch-up, every ACK_EVERY events, and at the first poll ACK_SECONDS
  after the last ack, so that the board frees the archive of what its journal dropped (a day
  of play without the host stays on the board until then). A board that refuses `ack` (firmware
  before the archive) is not asked again.
- A hello with another protocol version is refused with VersionError, naming the firmware to
  flash.
"""

import collections
import json
import time

from bgboard import __version__
from bgboard.transport import Disconnected, TransportError
from bgwire import PROTOCOL  # the version this host speaks: the contract's
RECENT = 512  # delivered events kept to tell a resent event from another one under its seq
ACK_EVERY = 64  # stored events between two acks while events flow
ACK_SECONDS = 5.0  # else a stored event is acked at the first poll this long after the last ack
REPL_BOOT_S = 30.0  # after a soft reset from the REPL, hellos until the firmware answers


class LinkError(Exception):
    """The link failed: the board cannot be reached or does not answer (exit status 1)."""


class LinkLost(LinkError):
    """The link went away while a command waited for its answer: it may or may not have been
    carried out."""


class VersionError(LinkError):
    """The board speaks another protocol version."""


class CommandTimeout(LinkError):
    pass


class Refused(Exception):
    """The board refused a command (`{"error": ...}`); `reply` is its whole answer."""

    def __init__(self, cmd, reply):
        self.cmd = cmd
        self.reply = reply
        super().__init__("the board refused %s: %s" % (cmd, reply.get("error")))


def is_int(v):
    """An int that is not a bool (JSON values: true is no number)."""
    return isinstance(v, int) and not isinstance(v, bool)


class Link:
    def __init__(self, opener, name="the board", on_event=None, on_status=None,
                 on_problem=None, on_live=None, on_journal=None, last_seq=0, journal=None,
                 timeout=5.0, reconnect=True, retry_interval=0.5, max_attempts=None,
                 sync=True, on_timeline=None, timeline=1, ack=False):
        self.opener = opener
        self.name = name
        self.on_event = on_event
        self.on_status = on_status
        self.on_problem = on_problem
        self.on_live = on_live
        self.on_journal = on_journal
        self.on_timeline = on_timeline
        self.last_seq = last_seq
        self.journal = journal
        self.timeline = timeline
        self.recent = {}  # seq -> event, the last RECENT delivered
        self.timeout = timeout
        self.reconnect = reconnect
        self.retry_interval = retry_interval
        self.max_attempts = max_attempts
        self.sync = sync  # False: a one-shot command line (no journal catch-up)
        self.ack = ack  # on_event stores each event: tell the board (see the module's text)
        self._acked = (None, 0, 0.0)  # the journal and seq last acked, and when
        self.transport = None
        self.hello = None
        self.inbox = collections.deque()  # events, when there is no on_event callback
        self.problems = 0
        self.duplicates = 0
        self._ids = 0
        self._replies = {}
        self._waiting = set()
        # ("ev", event), ("journal", id) or ("timeline", (id, n)), in order
        self._ready = collections.deque()
        self._pending = {}  # seq -> event that came before the ones it follows
        self._need_handshake = True
        self._need_sync = False
        self._syncing = False
        self._diverged = None  # why the board's history is another: a new timeline is due
        self._fork = None  # (F - 1, L): an undone gap forked it there (see the module's text)
        self._said = None  # the hello's journal and kept files last told
        self._from_start = False  # reading a new timeline: it begins at the first kept event
        self._at_repl = False  # MicroPython's REPL answered: its prompt, or our line echoed
        self._sent = None  # the last line written

    # --- callbacks ---------------------------------------------------------------------------

    def _status(self, text):
        if self.on_status is not None:
            self.on_status(text)

    def _problem(self, text):
        self.problems += 1
        if self.on_problem is not None:
            self.on_problem(text)

    # --- opening and closing -------------------------------------------------------------------

    def connect(self, wait=False):
        """Open the port, say hello and catch up with the journal. `wait`: keep trying to
        open the port (as after a disconnect) instead of failing at once."""
        if self.transport is None:
            try:
                self.transport = self._open()
            except TransportError as e:
                if not wait:
                    raise LinkError(str(e)) from None
                self._status("waiting for %s: %s" % (self.name, e))
                self._reopen()
        self._need_handshake = True
        self._settle()
        return self.hello

    def open(self):
        """Open the port now if it is not open (TransportError if it cannot be)."""
        if self.transport is None:
            self.transport = self._open()

    def close(self):
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open(self):
        transport = self.opener()
        transport.report_to(self._problem)
        return transport

    def _reopen(self):
        attempt = 0
        while True:
            attempt += 1
            if self.max_attempts is not None and attempt > self.max_attempts:
                raise LinkError("could not reconnect to %s after %d attempts"
                                % (self.name, attempt - 1))
            self._status("reconnecting to %s (attempt %d)" % (self.name, attempt))
            try:
                self.transport = self._open()
            except TransportError as e:
                if attempt == 1 or attempt % 20 == 0:
                    self._status("%s" % e)
                time.sleep(self.retry_interval)
                continue
            self._status("reconnected to %s" % self.name)
            self._need_handshake = True
            return

    def _lost(self, error, in_command):
        """The transport failed: reconnect (or fail). In a command, raise LinkLost after."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None
        self._replies.clear()
        if not self.reconnect:
            raise LinkError(str(error)) from None
        self._status("%s" % error)
        self._reopen()
        if in_command:
            raise LinkLost("the link to %s was lost before the board answered: the command "
                           "may or may not have been carried out" % self.name)

    # --- lines ---------------------------------------------------------------------------------

    def _read(self, timeout, in_command=False):
        if self.transport is None:
            self._lost(Disconnected("not connected to %s" % self.name), in_command)
        try:
            return self.transport.read_line(timeout)
        except Disconnected as e:
            self._lost(e, in_command)
            return None

    def _write(self, msg, in_command=True):
        if self.transport is None:
            self._lost(Disconnected("not connected to %s" % self.name), in_command)
        self._sent = json.dumps(msg).encode()
        try:
            self.transport.write_line(self._sent)
        except Disconnected as e:
            self._lost(e, in_command)

    def send(self, msg):
        """Write a message that has no reply of its own (a sim line: its answer is a live
        line)."""
        self._write(msg, in_command=False)

    def _dispatch(self, line):
        if line.startswith((b">>> ", b"raw REPL")) or (self._sent and line == self._sent):
            self._at_repl = True  # the firmware never echoes; the friendly REPL does
        text = line.decode("utf-8", "replace")
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            if text.strip():
                self._problem("not protocol, skipped: %s" % _clip(text))
            return
        if "ev" in msg:
            if not isinstance(msg["ev"], str) or not is_int(msg.get("seq")) or msg["seq"] < 1:
                self._problem("an event without a valid name and seq, skipped: %s"
                              % _clip(text))
                return
            self._event(msg)
        elif "live" in msg:
            if self.on_live is not None:
                self.on_live(msg)
        elif "ok" in msg or "error" in msg:
            ident = msg.get("id")
            if ident in self._waiting:
                self._replies[ident] = msg
            elif ident is None and "error" in msg and len(self._waiting) == 1:
                # the board could not read our line well enough to echo its id
                self._replies[next(iter(self._waiting))] = msg
            elif "hello" in msg:
                self._hello(msg)
            else:
                self._problem("a reply to no waiting command, skipped: %s" % _clip(text))
        elif "hello" in msg:
            self._hello(msg)  # the board (re)started
        else:
            self._problem("not protocol, skipped: %s" % _clip(text))

    # --- events --------------------------------------------------------------------------------

    def _event(self, ev):
        seq = ev["seq"]
        if seq <= self.last_seq or seq in self._pending:
            known = self.recent.get(seq)
            # before the hello, the event may be a new journal's: it says which
            if (known is not None and known != ev and self.sync
                    and not self._need_handshake):
                self._diverge("event %d from the board is not the one received under that "
                              "seq" % seq)
                return
            self.duplicates += 1
            return
        if self._need_handshake and not self._syncing:
            self._pending[seq] = ev  # placed once the hello says which journal it is
            return
        self._pending[seq] = ev
        self._advance()
        if self._pending:
            self._need_sync = True  # a gap: read the journal

    def _advance(self):
        while self.last_seq + 1 in self._pending:
            ev = self._pending.pop(self.last_seq + 1)
            self.last_seq = ev["seq"]
            self._ready.append(("ev", ev))
            self.recent[ev["seq"]] = ev
            if len(self.recent) > RECENT:
                del self.recent[next(iter(self.recent))]  # the oldest: seqs come in order
        for seq in [s for s in self._pending if s <= self.last_seq]:
            del self._pending[seq]

    def _deliver(self):
        while self._ready:
            kind, item = self._ready.popleft()
            if kind == "journal":
                if self.on_journal is not None:
                    self.on_journal(item)
            elif kind == "timeline":
                if self.on_timeline is not None:
                    self.on_timeline(*item)  # (id, n), or (id, n, F - 1, L) for a fork
            elif self.on_event is not None:
                self.on_event(item)
            else:
                self.inbox.append(item)

    # --- hello and the journal -----------------------------------------------------------------

    def _hello(self, msg):
        if msg.get("hello") != "bgboard":
            raise LinkError("%s does not speak the bgboard protocol (it said %s): flash the "
                            "bgboard firmware with `bgboard flash`" % (self.name, _clip(
                                json.dumps(msg))))
        version = msg.get("protocol")
        if version != PROTOCOL:
            firmware = msg.get("firmware", "?")
            newer = is_int(version) and version > PROTOCOL
            raise VersionError(
                "the board's firmware %s speaks protocol %s; this bgboard %s speaks protocol "
                "%d: flash the firmware that comes with it (`bgboard flash`)%s"
                % (firmware, version, __version__, PROTOCOL,
                   ", or update bgboard" if newer else ""))
        self.hello = msg
        journal = msg.get("journal")
        changed = journal is not None and journal != self.journal
        if changed and self.journal is not None:
            self._status("the board's journal changed (%s, was %s): reading it again from "
                         "its start" % (journal, self.journal))
            self.last_seq = 0
            self._pending.clear()
            self.recent.clear()
            self._diverged = None
        if changed:
            self._ready.append(("journal", journal))
            self.journal = journal
            self.timeline = 1
        elif self.sync and _gap(msg):
            self._gap(msg["lost"], msg.get("undone") is True, "hello")
        self._said_lost(msg, changed)
        seq = msg.get("seq")
        if self.sync and not changed and is_int(seq) and seq < self.last_seq:
            self._diverge("the board's journal ends at %d, before the last event received "
                          "(%d)" % (seq, self.last_seq))
        if self.sync and (self._pending or (is_int(seq) and seq != self.last_seq)
                          or not is_int(seq)):
            self._need_sync = True
        elif not self.sync:
            self._pending.clear()
            if is_int(seq):
                self.last_seq = max(self.last_seq, seq)

    def _gap(self, lost, undone, where):
        """The board declared events lost[0]..lost[1] lost (hello or a `journal` reply)."""
        first, last = lost
        if undone and first - 1 < self.last_seq <= last:
            if self._fork is None:
                self._fork = (first - 1, last)
                self._diverge("the board lost events %d..%d to a damaged flash line and went "
                              "back to the state after %d" % (first, last, first - 1))
        elif self.last_seq < first - 1 and where == "hello":
            return  # said when the catch-up reaches it
        elif self.last_seq < last:
            self._problem("%s lost events %d..%d to a damaged flash line: they are not "
                          "recorded" % (self.name, max(first, self.last_seq + 1), last))
            self.last_seq = last
            self._advance()
        elif where == "hello":
            self._status("%s lost events %d..%d to a damaged flash line; they were recorded "
                         "before" % (self.name, first, last))

    def _said_lost(self, msg, changed):
        # What the board's start lost to a damaged line (firmware that began a new journal
        # for it), and the files it kept aside: said once for each.
        lost, kept = msg.get("lost"), msg.get("kept")
        said = (msg.get("journal"), kept, msg.get("kept_archive"))
        if said == self._said:
            return
        self._said = said
        if changed and _gap(msg):  # a journal new to this host (older firmware: a new id)
            self._problem("%s lost events %d..%d to a damaged flash line: its journal goes on "
                          "as %s" % (self.name, lost[0], lost[1], msg.get("journal")))
        if isinstance(kept, str):
            self._problem("%s kept %s aside (%s): `bgboard kept` downloads it"
                          % (self.name, _clip(kept, 40), _clip(str(msg.get("kept_why",
                                                                          "damaged")), 60)))
        archive = msg.get("kept_archive")
        if isinstance(archive, str):
            self._problem("%s kept its archive of past events aside as %s (no journal "
                          "continues it): `bgboard kept` downloads it"
                          % (self.name, _clip(archive, 40)))

    def _handshake(self):
        self._at_repl = False
        try:
            reply = self.command("hello", _handshake=True)
        except CommandTimeout:
            if not self._at_repl:
                raise
            reply = self._leave_repl()
        if "hello" not in reply:
            raise LinkError("%s answered hello without saying who it is: flash the bgboard "
                            "firmware with `bgboard flash`" % self.name)
        self._hello(reply)
        self._need_handshake = False

    def _leave_repl(self):
        # mpremote leaves a board at MicroPython's REPL with the firmware stopped (its raw
        # REPL's soft reset does not run main.py), so hello was read as Python. Ctrl-B leaves
        # the raw REPL, Ctrl-D at the friendly one is the soft reset that runs main.py, as
        # `mpremote reset` or a power cycle would; the firmware then answers once it is up.
        self._problem("%s was at MicroPython's REPL (as mpremote leaves a board): soft reset "
                      "to start the firmware" % self.name)
        try:
            self.transport.write_line(b"\x02\x04")
        except Disconnected as e:
            self._lost(e, True)
        deadline = time.monotonic() + REPL_BOOT_S
        while True:
            try:
                return self.command("hello", _handshake=True)
            except (CommandTimeout, Refused):  # not up yet, or it read the reset's newline
                if time.monotonic() >= deadline:
                    raise

    def _timeline_name(self, n):
        """`ID.N`, as the Recorder names the files of timelines 2 on."""
        return "%s.%d" % (self.journal if self.journal is not None else "0", n)

    def _diverge(self, why):
        """The board's history is not the one received: a new timeline, once the journal is
        read (not in the middle of a reply to an older `since`)."""
        if self._diverged is None:
            self._diverged = why
        self._need_sync = True

    def _new_timeline(self, why, start=0):
        """Read what the board keeps from `start` as a new timeline; what was received stays
        in the old one (the consumer is told between the two)."""
        self.timeline += 1
        if self._fork is not None:  # an undone gap: the new timeline begins with ours
            kept, start = self._fork
            self._problem("%s: the events up to %d stay in timeline %s; timeline %s goes on "
                          "from its events up to %d, then from %d" % (
                              why, self.last_seq, self._timeline_name(self.timeline - 1),
                              self._timeline_name(self.timeline), kept, start + 1))
            self._ready.append(("timeline", (self.journal, self.timeline, kept, start)))
        else:
            self._problem("%s: the board's history is another; the events up to %d stay in "
                          "timeline %s, what the board keeps is read from its start into "
                          "timeline %s" % (why, self.last_seq,
                                           self._timeline_name(self.timeline - 1),
                                           self._timeline_name(self.timeline)))
            self._ready.append(("timeline", (self.journal, self.timeline)))
        self.last_seq = start
        self._pending.clear()
        self.recent.clear()
        self._diverged = None
        self._from_start = self._fork is None
        self._fork = None

    def _catch_up(self):
        """Read the journal after last_seq until the board has nothing more."""
        self._syncing = True
        try:
            retried = False
            while True:
                if self._diverged is not None:
                    self._new_timeline(self._diverged)
                try:
                    reply = self.command("journal", since=self.last_seq)
                    if self._diverged is not None:
                        continue  # the reply belongs to the old timeline
                except Refused as e:
                    if e.reply.get("error") != "resync":
                        raise LinkError("the board would not send its journal: %s"
                                        % e.reply.get("error")) from None
                    if self._diverged is not None:
                        continue  # refused an older `since`: the new timeline starts anew
                    first, last = e.reply.get("first"), e.reply.get("last")
                    if not (is_int(first) and is_int(last)):
                        raise LinkError("the board asked for a resync without saying what "
                                        "it keeps") from None
                    if self.last_seq < first - 1:
                        if not self._from_start:  # else they are in the old timeline
                            self._problem("events %d..%d are no longer kept by the board: "
                                          "they are lost" % (self.last_seq + 1, first - 1))
                        self.last_seq = first - 1
                    elif self.last_seq > last:
                        self._new_timeline("the board's journal ends at %d, before the last "
                                           "event received (%d)" % (last, self.last_seq),
                                           first - 1)
                    else:
                        raise LinkError("the board refused its journal after %d (it keeps "
                                        "%d..%d)" % (self.last_seq, first, last)) from None
                    self._pending = {s: ev for s, ev in self._pending.items()
                                     if s > self.last_seq}
                    continue
                events = reply.get("events")
                if not isinstance(events, list):
                    raise LinkError("the board's journal reply has no events list")
                before = self.last_seq
                for ev in events:
                    if (isinstance(ev, dict) and isinstance(ev.get("ev"), str)
                            and is_int(ev.get("seq")) and ev["seq"] >= 1):
                        if ev["seq"] > self.last_seq:
                            self._pending.setdefault(ev["seq"], ev)
                    elif _gap(ev):  # a declared gap, in its place among the events
                        self._advance()
                        self._gap(ev["lost"], ev.get("undone") is True, "journal")
                        if self._diverged is not None:
                            break  # forked: the new timeline reads on after the gap
                    else:
                        self._problem("a journal entry that is not an event, skipped: %s"
                                      % _clip(json.dumps(ev)))
                self._advance()
                if self.last_seq == before or not events or reply.get("more") is False:
                    # done, unless pushed events wait beyond a gap: ask once more for it
                    if not self._pending or retried:
                        break
                    retried = True
            if self._pending:
                low = min(self._pending)
                self._problem("events %d..%d never came: going on from %d"
                              % (self.last_seq + 1, low - 1, low))
                self.last_seq = low - 1
                self._advance()
            self._from_start = False
            self._need_sync = self._diverged is not None  # seen in the last reply's wait
        finally:
            self._syncing = False

    def _settle(self):
        """Say hello and catch up while either is due, across reconnects."""
        while self._need_handshake or (self._need_sync and self.sync):
            try:
                if self._need_handshake:
                    self._handshake()
                if self._need_sync and self.sync:
                    self._catch_up()
                    self._deliver()
                    self._ack_stored(caught_up=True)
                elif not self.sync:
                    self._need_sync = False
            except LinkLost:
                continue  # reconnected: hello again
        self._deliver()

    def _ack_stored(self, caught_up=False):
        """Tell the board the events up to last_seq are stored, when it is time to."""
        journal, seq, when = self._acked
        if not self.ack or self._ready or self.journal is None or self.last_seq < 1:
            return
        if journal == self.journal and seq >= self.last_seq:
            return
        now = time.monotonic()
        if not (caught_up or journal != self.journal or self.last_seq - seq >= ACK_EVERY
                or now - when >= ACK_SECONDS):
            return
        self._acked = (self.journal, self.last_seq, now)
        try:
            self.command("ack", journal=self.journal, seq=self.last_seq, _handshake=True)
        except CommandTimeout as e:
            self._status("%s" % e)  # tried again after the next events
        except LinkLost:  # the link went and came back during the ack: poll() goes on, and
            self._acked = (journal, seq, when)  # the ack goes again once it is due
        except Refused as e:
            why = str(e.reply.get("error"))
            if not why.startswith("ack:"):  # not the board's word on this ack: no archive
                self.ack = False
                self._status("%s keeps no archive to acknowledge (%s)" % (self.name, why))

    # --- public ----------------------------------------------------------------------------------

    def command(self, cmd, timeout=None, _handshake=False, **args):
        """Send a command and return the board's reply (a dict). Refused if the board says
        no; CommandTimeout if it does not answer; LinkLost if the link drops meanwhile."""
        if not _handshake and not self._syncing:
            self._settle()
        self._ids += 1
        ident = self._ids
        msg = {"cmd": cmd, "id": ident}
        msg.update(args)
        timeout = self.timeout if timeout is None else timeout
        self._waiting.add(ident)
        try:
            self._write(msg)
            deadline = time.monotonic() + timeout
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CommandTimeout("%s did not answer %s within %g s (is the bgboard "
                                         "firmware running?)" % (self.name, cmd, timeout))
                line = self._read(left, in_command=True)
                if line is not None:
                    self._dispatch(line)
            reply = self._replies.pop(ident)
        finally:
            self._waiting.discard(ident)
            self._replies.pop(ident, None)
        if not _handshake and not self._syncing:
            self._settle()
        if "error" in reply:
            raise Refused(cmd, reply)
        return reply

    def poll(self, timeout):
        """Read lines for `timeout` seconds, delivering events (and reconnecting) as they
        come; returns the number of lines read."""
        deadline = time.monotonic() + timeout
        n = 0
        while True:
            self._settle()
            self._ack_stored()
            left = deadline - time.monotonic()
            if left <= 0:
                return n
            line = self._read(left)
            if line is not None:
                n += 1
                self._dispatch(line)

    def wait_event(self, timeout):
        """The next event from the inbox (no on_event callback), waiting up to `timeout`."""
        deadline = time.monotonic() + timeout
        while not self.inbox:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.poll(min(left, 0.1))
        return self.inbox.popleft()


def _gap(msg):
    """Whether msg (a hello, or a `journal` reply's entry) declares a gap: "lost": [F, L]."""
    lost = msg.get("lost") if isinstance(msg, dict) else None
    return (isinstance(lost, list) and len(lost) == 2 and all(is_int(n) for n in lost)
            and 1 <= lost[0] <= lost[1])


def _clip(text, n=100):
    text = text.strip()
    return text if len(text) <= n else text[:n] + "..."
