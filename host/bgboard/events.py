"""The board's journaled events (docs/protocol.md), checked and grouped into matches and games.

The file writers (`bgboard.matfile`, `bgboard.sgf`) and the live view work from what this
module builds: a `MatchLog` per `match` event, holding a `GameLog` per `game` event, each a
list of `Entry` values in the order the players acted:

    move    player, dice (high, low), steps ((from, to, hit), ...): a roll and its play
            (steps empty: nothing could be played); how "pass" for a shut-out player's pass
            without a throw (rule option shut_out_pass), written with PASS_DICE
    roll    player, dice: a roll that was never played (the roller resigned); `how`
            "forced" when the roll had exactly one legal play
    double  player, cube: a double to `cube`
    beaver  player (the taker), cube (the new value); a beaver journaled after its player's
            take (the board allows it until the doubler throws) replaces that take
    raccoon player (the first doubler), cube
    take    player; `how` "implied" for the take gnubg sees after a beaver or raccoon (the
            board journals none: the redouble is accepted at once)
    drop    player
    wins    player (the winner), points, how ("played", "dropped", "resigned"), level

A `rethrow` (cocked dice) replaces the dice of the roll; a `void` play and its throw, and a
`correct_setup` (the opening numbers played again), leave no entry: the files show the game
as it counted. Rejected resignations and demands (a higher forfeit the acceptor requires) leave no entry:
neither .mat nor SGF records them; a demand agreed to ends in a result at its level.

A chouette (`match` event with kind "chouette") is a money session whose games are between
the box (player 0) and the team (player 1, its captain moving the checkers): each GameLog has
the `box`, `captain` and `team` of its game. Cube events naming a `member` are that member's
own stake: they make no entry, except the answer that completes the team's answer to the
box's double (single cube: its `team` field, "take" if any member took) which is the team's
take or drop. The per-member settlements of each game are in its result (`settled`) and
summed in the MatchLog's `balance`.
"""

import json
import re
import zlib
from collections import namedtuple

from bgboard.link import is_int
from bgcore import Position, legal_plays
from bgwire.events import EVENTS, OPTIONAL
from bgwire.events import field_ok as _ok

# One side's checkers at the start, in its own numbering (index 0: borne off).
START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

# A shut-out pass (no throw) in .mat and SGF: a roll with no legal play. Against a closed
# board no dice enter, so the position and score are the same whatever the numbers.
PASS_DICE = (1, 1)

Entry = namedtuple("Entry", ("kind", "player", "dice", "steps", "cube", "points", "how",
                             "level"))


def _entry(kind, player, dice=None, steps=(), cube=None, points=None, how=None, level=None):
    return Entry(kind, player, dice, tuple(steps), cube, points, how, level)


class EventError(ValueError):
    """An event that does not have the shape docs/protocol.md gives it."""


def check_event(ev):
    """Raise EventError unless `ev` is a journaled event of a known kind with its fields.
    Unknown event names pass (a newer firmware may add some): they are kept, not used."""
    if not isinstance(ev, dict):
        raise EventError("an event is a JSON object")
    name = ev.get("ev")
    if not isinstance(name, str):
        raise EventError("an event has an \"ev\" name")
    seq = ev.get("seq")
    if not is_int(seq) or seq < 1:
        raise EventError("event %s has no valid seq" % name[:32])
    spec = EVENTS.get(name)
    if spec is None:
        return
    for field, kind in spec.items():
        if field not in ev or not _ok(kind, ev[field]):
            raise EventError("event %s (seq %d): bad or missing %s" % (name, seq, field))
    for field, kind in OPTIONAL.get(name, {}).items():
        if field in ev and not _ok(kind, ev[field]):
            raise EventError("event %s (seq %d): bad %s" % (name, seq, field))
    if name == "match" and "games" in ev and not (_ok("int", ev["games"]) and ev["games"]):
        raise EventError("event match (seq %d): bad games" % seq)
    if "member" in ev and not _ok("name", ev["member"]):
        raise EventError("event %s (seq %d): bad member" % (name, seq))
    if name == "match" and ev.get("kind") == "chouette":
        players = ev.get("players")
        if not (isinstance(players, list) and len(players) >= 3
                and all(_ok("name", p) for p in players)):
            raise EventError("event match (seq %d): a chouette needs three or more players"
                             % seq)
    if name == "game" and "box" in ev:
        if not (_ok("name", ev["box"]) and _ok("name", ev.get("captain"))):
            raise EventError("event game (seq %d): bad box or captain" % seq)


class GameLog:
    """One game: `number`, `score` before it [p0, p1], `crawford` (the Crawford game),
    `openings` (the opening throws, ties included), `cube_start` (after automatic doubles),
    `first` (who won the opening), `entries` (Entry values), `result` (the result event or
    None), `first_seq`/`last_seq`."""

    def __init__(self, number, score, crawford, seq, box=None, captain=None, team=()):
        self.number = number
        self.box = box  # a chouette's game: who plays the box and, for the team, the captain
        self.captain = captain
        self.team = list(team)
        self.score = list(score)
        self.crawford = crawford
        self.openings = []
        self.cube_start = 1
        self.first = None
        self.entries = []
        self.result = None
        self.first_seq = seq
        self.last_seq = seq
        self._roll = None  # (player, dice): thrown, not played yet
        # Each player's checkers in its own numbering (0 off, 25 the bar).
        self.sides = [list(START), list(START)]
        self.problems = []
        self._take = None  # the player whose take answers a beaver (or raccoon)

    @property
    def over(self):
        return self.result is not None

    @property
    def names(self):
        """(box, captain) in a chouette's game, else None."""
        return (self.box, self.captain) if self.box is not None else None

    def _flush_take(self):
        if self._take is not None:
            self.entries.append(_entry("take", self._take, how="implied"))
            self._take = None

    def apply(self, ev):
        name = ev["ev"]
        self.last_seq = ev["seq"]
        if self.result is not None and name not in ("match_over",):
            raise EventError("event %s (seq %d) after the game's result" % (name, ev["seq"]))
        if name == "opening":
            d0, d1 = ev["dice"]
            self.openings.append((d0, d1))
            if "cube" in ev and _ok("cube", ev["cube"]):
                self.cube_start = ev["cube"]
            if d0 != d1:
                self.first = 0 if d0 > d1 else 1
                self._roll = (self.first, _high_low((d0, d1)))  # the first player's roll
        elif name == "roll":
            self._flush_take()
            if self._roll is not None:  # thrown and never played: keep the dice
                self.entries.append(_entry("roll", self._roll[0], dice=self._roll[1]))
            self._roll = (ev["player"], _high_low(ev["dice"]))
        elif name == "play":
            self._flush_take()
            if self._roll is not None and self._roll[0] == ev["player"]:
                self._roll = None
            steps = [(m[0], m[1], bool(m[2])) for m in ev["moves"]]
            self._move(ev["player"], steps, ev["seq"])
            self.entries.append(_entry("move", ev["player"], dice=_high_low(ev["dice"]),
                                       steps=steps))
        elif name == "double":
            self._flush_take()
            if "member" not in ev:  # a member's own cube (chouette) is not the game's
                self.entries.append(_entry("double", ev["player"], cube=ev["cube"]))
        elif name in ("take", "drop"):
            if "member" not in ev:
                self.entries.append(_entry(name, ev["player"]))
            elif ev.get("team") in ("take", "drop"):  # the team's answer, all members in
                self.entries.append(_entry(ev["team"], ev["player"]))
        elif name in ("beaver", "raccoon"):
            # In gnubg's terms the answer is a redouble of its own, which the other side
            # takes: that take comes before whatever happens next. A beaver just after the
            # beaverer's take is the same beaver in the files: the take is left out.
            last = self.entries[-1] if self.entries else None
            if (name == "beaver" and last is not None and last.kind == "take"
                    and last.player == ev["player"] and last.how is None):
                self.entries.pop()
            self.entries.append(_entry(name, ev["player"], cube=ev["cube"]))
            self._take = 1 - ev["player"]
        elif name == "rethrow":  # cocked dice thrown again: the first throw never counted
            if self._roll is not None and self._roll[0] == ev["player"]:
                self._roll = (ev["player"], _high_low(ev["dice"]))
        elif name == "void":  # the play and its throw are void: the same player throws again
            self._roll = None
        elif name == "correct_setup":  # the opening numbers played again from the setup:
            pass  # the play made first was never journaled (a play is, once it stands)
        elif name == "pass":  # shut out (rule option shut_out_pass): no dice were thrown;
            self._flush_take()  # the files show dice that cannot play, as gnubg needs a roll
            self.entries.append(_entry("move", ev["player"], dice=PASS_DICE, how="pass"))
        elif name == "resign":
            self._flush_take()
        elif name == "result":
            self._flush_take()
            if self._roll is not None:
                player, dice = self._roll
                forced = len(legal_plays(self.position(player), dice)) == 1
                self.entries.append(_entry("roll", player, dice=dice,
                                           how="forced" if forced else None))
                self._roll = None
            self.entries.append(_entry("wins", ev["winner"], points=ev["points"],
                                       how=ev["how"], level=ev["level"]))
            self.result = ev
        # accept, reject, demand: nothing to write (the result follows an accept)

    def _move(self, player, steps, seq):
        me = self.sides[player]
        opp = self.sides[1 - player]
        for src, dst, hit in steps:
            if me[src] < 1 or (hit and opp[25 - dst] != 1) or (dst and opp[25 - dst] > 1):
                self.problems.append("seq %d: player %d cannot move %d/%d%s here"
                                     % (seq, player, src, dst, "*" if hit else ""))
                return
            me[src] -= 1
            me[dst] += 1
            if hit:
                opp[25 - dst] -= 1
                opp[25] += 1

    def position(self, player):
        """The checkers as a bgcore Position, `player` moving."""
        me = self.sides[player]
        opp = self.sides[1 - player]
        return Position([0] + me[1:], [0] + opp[1:])

    @property
    def score_after(self):
        return list(self.result["score"]) if self.result else None


class MatchLog:
    """A match (`length` N) or money session (`length` 0): `rules` (the options of `new`),
    `games` (GameLog), `over` (the match_over event or None), `first_seq` (the seq of its
    `match` event, or of its first event when the journal began inside it: then `length` is
    None, unknown)."""

    def __init__(self, length, rules, seq, event=None):
        self.length = length
        self.rules = dict(rules or {})
        ev = event or {}
        # kind "chouette": players (by rank at the start), multiple_cubes, partner_from;
        # balance: each player's net points over the games settled; line: the line-up now
        self.kind = ev.get("kind") or ("money" if length == 0 else "match")
        self.limit = ev.get("games")  # a match over this many games, decided by the total
        self.players = list(ev.get("players") or [])
        self.multiple_cubes = bool(ev.get("multiple_cubes", True))
        self.partner_from = ev.get("partner_from")
        self.consult = ev.get("consult", "free")  # the team consults: free, none, cube
        self.partner_by = ev.get("partner_by", "rotation")
        self.balance = dict((p, 0) for p in self.players)
        self.line = list(self.players)
        self.partner = None
        self.games = []
        self.over = None
        self.first_seq = seq
        self.last_seq = seq
        self.skipped = []  # seqs of events that could not be placed (a game begun unseen)

    @property
    def money(self):
        return self.length == 0

    @property
    def chouette(self):
        return self.kind == "chouette"

    def rule(self, name, default=False):
        value = self.rules.get(name, default)
        return default if value is None else value

    @property
    def score(self):
        """The score after the last finished game (the start score before any)."""
        for g in reversed(self.games):
            if g.result is not None:
                return list(g.result["score"])
            return list(g.score)
        return [0, 0]

    def apply(self, ev):
        name = ev["ev"]
        self.last_seq = ev["seq"]
        if name == "game":
            self.partner = ev.get("partner")
            self.games.append(GameLog(ev["number"], ev["score"], ev["crawford"], ev["seq"],
                                      ev.get("box"), ev.get("captain"), ev.get("team", ())))
        elif name == "match_over":
            self.over = ev
        elif name == "partner":
            self.partner = ev["name"]
        elif name == "join":  # during a game: the result's line-up brings the player in
            self.balance.setdefault(ev["name"], 0)
            if not self.games or self.games[-1].result is not None:
                self.line.append(ev["name"])
        elif name == "leave":
            if ev["name"] in self.line:
                self.line.remove(ev["name"])
            if ev["name"] == self.partner:
                self.partner = None
        elif name in EVENTS:
            if not self.games:
                self.skipped.append(ev["seq"])
                return
            self.games[-1].apply(ev)
            if name == "result":
                self._settle(ev)

    def _settle(self, ev):
        # A chouette's game settled: who paid whom, and the line-up after the rotation.
        for row in ev.get("settled") or []:
            if (isinstance(row, list) and len(row) == 3 and _ok("name", row[0])
                    and _ok("name", row[1]) and isinstance(row[2], (int, float))):
                payer, payee, points = row
                self.balance[payer] = self.balance.get(payer, 0) - points
                self.balance[payee] = self.balance.get(payee, 0) + points
        line = ev.get("line")
        if isinstance(line, list) and all(_ok("name", n) for n in line):
            self.line = list(line)
            self.partner = None


def _high_low(dice):
    a, b = dice
    return (a, b) if a >= b else (b, a)


def build_matches(events, problems=None):
    """Group events (in seq order) into MatchLogs. Events that break the game's order are
    reported through `problems` (a list to append text to, or a callable) and skipped."""

    def report(text):
        if problems is None:
            return
        if callable(problems):
            problems(text)
        else:
            problems.append(text)

    matches = []
    current = None
    last = 0
    for ev in events:
        if isinstance(ev, dict) and "ev" not in ev and "journal" in ev:
            last = 0  # a new board journal: its seqs start again, its history is new
            current = None
            continue
        try:
            check_event(ev)
        except EventError as e:
            report(str(e))
            continue
        if ev["seq"] <= last:
            report("event seq %d repeats or goes back (after %d): skipped" % (ev["seq"], last))
            continue
        last = ev["seq"]
        name = ev["ev"]
        if name not in EVENTS:
            report("unknown event %r (seq %d): kept in the journal, not in the files"
                   % (name[:32], ev["seq"]))
            continue
        if name == "match":
            current = MatchLog(ev["length"], ev["rules"], ev["seq"], ev)
            matches.append(current)
            continue
        if current is None:
            current = MatchLog(None, {}, ev["seq"])
            matches.append(current)
            report("the events begin at seq %d, inside a match whose start is not in the "
                   "journal: its length is unknown" % ev["seq"])
        try:
            current.apply(ev)
        except EventError as e:
            report(str(e))
    for m in matches:
        for g in m.games:
            for text in g.problems:
                report(text)
        if m.skipped:
            report("events %d..%d belong to a game whose start is not in the journal: "
                   "left out of the files" % (m.skipped[0], m.skipped[-1]))
    return matches


_BOARD_LINE = re.compile(r"([0-9a-f]{8}) (e([0-9]+) (.*))$")


def _board_line(line):
    # A line of the board's own journal file (board/journal.py: "CRC32 eSEQ JSON", as
    # `bgboard kept` downloads it): the event with its seq; None for the header, a line
    # that fails its check, or any other line.
    m = _BOARD_LINE.match(line)
    if m is None or zlib.crc32(m.group(2).encode()) != int(m.group(1), 16):
        return None
    try:
        ev = json.loads(m.group(4))
    except ValueError:
        return None
    if not isinstance(ev, dict):
        return None
    ev["seq"] = int(m.group(3))
    return ev


def _in_match(match, ev):
    # match: the events of the match in progress (from its `match` event)
    if ev.get("ev") == "match":
        del match[:]
    match.append(ev)


def read_journal(lines, problems=None):
    """The events of a journal file's lines (JSON, one per line, as `bgboard log` writes,
    or the board's own "CRC eSEQ JSON" lines, as `bgboard kept` downloads them), with the
    `{"journal": ID, ...}` notes that say where a new board journal or timeline begins
    (seqs start again there; build_matches understands them); a fork's timeline (its note
    has "from": S, bgboard.recorder) begins with the match's events up to S again. Other
    lines are skipped."""

    events = []
    journal = None
    match = []  # the events of the match in progress, for a fork
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        ev = _board_line(line)
        if ev is not None:
            events.append(ev)
            _in_match(match, ev)
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            if problems is not None:
                problems.append("line %d is not JSON: skipped" % n)
            continue
        if isinstance(obj, dict) and "ev" in obj:
            events.append(obj)
            _in_match(match, obj)
        elif isinstance(obj, dict) and "journal" in obj:
            # a new journal, or a new timeline of the same one (bgboard.recorder): the seqs
            # start again, never merged into the ones before
            key = (obj["journal"], obj.get("timeline", 1))
            if journal is not None and key != journal:
                events.append({"journal": obj["journal"]})
                kept = obj.get("from")
                match[:] = [ev for ev in match if isinstance(kept, int) and isinstance(
                    ev.get("seq"), int) and ev["seq"] <= kept]
                events.extend(dict(ev) for ev in match)
            journal = key
    return events
