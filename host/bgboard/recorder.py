"""`bgboard log`: record the board's events into a folder, so that a crash of the host loses
nothing the board committed.

In DIR:
- `journal.jsonl`: every event as received, one JSON object per line, appended, flushed and
  fsync'd before anything else happens; `{"journal": ID, "host": "bgboard X"}` lines say
  where a board journal begins (its seqs start again after such a line), and
  `{"journal": ID, "timeline": N, "host": ...}` lines where timeline N of that journal
  begins (N from 2): the board's journal lost events but kept its id, so its history is no
  longer the one recorded (bgboard.link); what the board keeps is recorded again from its
  start after the line, never merged into the lines before. A timeline line with
  `"from": S, "resume": L` is a fork (the board declared events S+1..L lost and undone): the
  new timeline begins with the events up to S recorded before it, and goes on after L. A torn last line (the host died
  while writing it) is cut off when the folder is opened again.
- per match, money session or chouette, `match-<journal>-<seq>.mat` /
  `money-<journal>-<seq>.mat` / `chouette-<journal>-<seq>.mat` and
  the `.sgf` beside it (seq: the `match` event's), rewritten after every event through a
  temporary file and os.replace, so either the old or the new file is there, whole. From
  timeline 2 on, `<journal>` is `ID.N` (`match-ID.2-<seq>.mat`): an earlier timeline's files
  are never overwritten.

Opening the folder again continues the journal (its newest timeline) from its last seq (the
link asks the board for the events after it) and rewrites the current match's files from the
journal: a new Recorder on the same folder ends with the same files as one uninterrupted run.
"""

import json
import os

from bgboard import __version__
from bgboard.events import build_matches
from bgboard.link import RECENT, is_int
from bgboard.matfile import DEFAULT_NAMES, mat_text
from bgboard.sgf import sgf_text

JOURNAL = "journal.jsonl"


class RecorderBusy(OSError):
    """Another recorder holds the folder."""


def _lock(f):
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def write_atomic(path, text, fsync=True):
    """Replace `path` with `text` at once (temporary file, fsync, os.replace)."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".%s.tmp" % os.path.basename(path))
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        if fsync:
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if fsync:
        _fsync_dir(folder)


def _fsync_dir(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Recorder:
    """Records into `out_dir`. Give it to a Link as on_event / on_journal / on_timeline (or
    call `attach(link)`); `last_seq`, `journal` and `timeline` are where the link should
    start."""

    def __init__(self, out_dir, names=DEFAULT_NAMES, on_problem=None, on_file=None, fsync=True):
        self.dir = out_dir
        self.names = names
        self.on_problem = on_problem
        self.on_file = on_file  # called with each path (re)written
        self.fsync = fsync
        os.makedirs(out_dir, exist_ok=True)
        self.path = os.path.join(out_dir, JOURNAL)
        self.journal = None
        self.timeline = 1  # of the journal: 2 on after the board's history changed under its id
        self.last_seq = 0
        self.current = []  # the events of the match in progress (from its `match` event)
        self.files = []  # paths written so far
        self._file = open(self.path, "ab")
        try:
            _lock(self._file)
        except OSError:
            self._file.close()
            raise RecorderBusy("%s is being recorded into by another bgboard log" % out_dir)
        self._load()
        if self.current:
            self._write_files()

    # --- the journal file ----------------------------------------------------------------------

    def _problem(self, text):
        if self.on_problem is not None:
            self.on_problem(text)

    def _load(self):
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            data = f.read()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            self._problem("%s ended in a torn line (%d bytes): cut off; the board sends "
                          "that event again" % (self.path, len(data) - cut))
            with open(self.path, "r+b") as f:
                f.truncate(cut)
                f.flush()
                os.fsync(f.fileno())
            data = data[:cut]
        for line in data.decode("utf-8", "replace").splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict):
                continue
            if "ev" in obj:
                seq = obj.get("seq")
                if isinstance(seq, int) and seq > self.last_seq:
                    self._take(obj)
            elif "journal" in obj:
                timeline = obj.get("timeline", 1)
                timeline = timeline if is_int(timeline) else 1
                if obj["journal"] != self.journal or timeline != self.timeline:
                    self.journal = obj["journal"]
                    self.timeline = timeline
                    self._begin(obj.get("from"), obj.get("resume"))

    def _take(self, ev):
        if ev.get("ev") == "match":
            self.current = []
        self.current.append(ev)
        self.last_seq = ev["seq"]

    def _append(self, obj):
        self._file.write(json.dumps(obj, separators=(", ", ": ")).encode() + b"\n")
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    # --- link callbacks ------------------------------------------------------------------------

    def attach(self, link):
        link.last_seq = self.last_seq
        link.journal = self.journal
        link.timeline = self.timeline
        # what was recorded last: a resent event is told from another under its seq
        link.recent = {ev["seq"]: ev for ev in self.current[-RECENT:]}
        link.on_event = self.on_event
        link.on_journal = self.on_journal
        link.on_timeline = self.on_timeline
        link.ack = True  # each event is on disk when on_event returns: the board may free it
        return link

    def on_journal(self, journal_id):
        """A board journal begins (the first one, or the board's history restarted)."""
        if journal_id == self.journal:
            return
        self._append({"journal": journal_id, "host": "bgboard %s" % __version__})
        self.journal = journal_id
        self.timeline = 1
        self.last_seq = 0
        self.current = []

    def on_timeline(self, journal_id, timeline, kept=None, resume=None):
        """Timeline `timeline` of the journal begins: its events are recorded anew from the
        board's first kept one, beside (never into) what was recorded before; a fork
        (bgboard.link) begins with the events up to `kept` and goes on after `resume`."""
        note = {"journal": journal_id, "timeline": timeline,
                "host": "bgboard %s" % __version__}
        if is_int(kept) and is_int(resume):
            note.update({"from": kept, "resume": resume})
        self._append(note)
        self.journal = journal_id
        self.timeline = timeline
        self._begin(note.get("from"), note.get("resume"))

    def _begin(self, kept, resume):
        # A new timeline: empty, or a fork's with the current match's events up to kept.
        if is_int(kept) and is_int(resume):
            self.current = [ev for ev in self.current if ev["seq"] <= kept]
            self.last_seq = resume
        else:
            self.current = []
            self.last_seq = 0

    def on_event(self, ev):
        seq = ev.get("seq")
        if not isinstance(seq, int) or seq <= self.last_seq:
            return  # already recorded
        self._append(ev)
        self._take(ev)
        self._write_files()

    # --- the match files -----------------------------------------------------------------------

    def base_name(self, match):
        kind = "chouette" if match.chouette else "money" if match.length == 0 else "match"
        journal = self.journal if self.journal is not None else "0"
        if self.timeline > 1:
            journal = "%s.%d" % (journal, self.timeline)
        return "%s-%s-%06d" % (kind, journal, match.first_seq)

    def _write_files(self):
        matches = build_matches(self.current)
        if not matches:
            return
        match = matches[-1]
        base = os.path.join(self.dir, self.base_name(match))
        for path, text in ((base + ".mat", mat_text(match, self.names)),
                           (base + ".sgf", sgf_text(match, self.names))):
            write_atomic(path, text, self.fsync)
            if path not in self.files:
                self.files.append(path)
            if self.on_file is not None:
                self.on_file(path)

    def close(self):
        self._file.close()
