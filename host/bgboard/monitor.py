"""`bgboard monitor`: the board as the events describe it, as text for a terminal.

`View` follows the events (and the `live` lines) and renders the position diagram (bgcore's,
from the side of the player on roll), the match and score, the cube, the dice, the last
events in words and any sensor problems the board reports. In a chouette the players are
the game's box and captain, and the view adds the line-up and each player's balance (the
ledger: the results settled per member).
"""

import collections

from bgboard.events import MatchLog, check_event, EventError
from bgboard.matfile import DEFAULT_NAMES, clean_name
from bgcore.drawing import diagram
from bgwire.sensors import untrusted_words

LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


class View:
    def __init__(self, names=DEFAULT_NAMES, keep=8):
        self.names = (clean_name(names[0], DEFAULT_NAMES[0]),
                      clean_name(names[1], DEFAULT_NAMES[1]))
        self.match = None
        self.last = collections.deque(maxlen=keep)
        self.problems = collections.deque(maxlen=keep)  # sensor trouble and link notes
        self.live = {}  # live name -> the last such line
        self.status = ""
        self.cube = 1
        self.owner = None
        self.offer = None  # words for a double or resignation on offer
        self.dice = None
        self.on_roll = None
        self.seq = 0
        self.board_state = None  # the board's `state` reply, when asked
        self.untrusted = None  # the `blind` live line's slots (newer than board_state's)
        self.game_names = None  # a chouette's game: (box, captain)
        self.stakes = {}  # a chouette's game: member -> [cube, holder(, offered)] or why out

    # --- following the events -------------------------------------------------------------------

    def apply(self, ev):
        try:
            check_event(ev)
        except EventError as e:
            self.problems.append(str(e))
            return
        self.seq = ev["seq"]
        name = ev["ev"]
        if name == "match":
            self.match = MatchLog(ev["length"], ev["rules"], ev["seq"], ev)
        elif self.match is None:
            self.match = MatchLog(None, {}, ev["seq"])
        if name != "match":
            try:
                self.match.apply(ev)
            except EventError as e:
                self.problems.append(str(e))
        self._follow(ev)
        self.last.append(self.describe(ev))

    def _follow(self, ev):
        name = ev["ev"]
        p = ev.get("player")
        n = self._names()
        if name == "match":
            self.game_names = None
        if "member" in ev and name in ("double", "take", "drop"):
            if ev.get("team") in ("take", "drop"):  # the last member answered the box
                name = ev["team"]
            else:  # a member's own stake: not the game's cube
                self.offer = self.describe(ev) if name == "double" else None
                self._stake(ev, name, ev["member"])
                return
        if name == "game":
            self.cube, self.owner, self.offer, self.dice, self.on_roll = 1, None, None, None, None
            if "box" in ev:
                self.game_names = (clean_name(ev["box"], "Box"),
                                   clean_name(ev.get("captain"), "Captain"))
                self.stakes = dict((m, [1, None]) for m in ev.get("team") or [])
        elif name == "opening":
            d0, d1 = ev["dice"]
            self.cube = ev.get("cube", self.cube)
            if d0 != d1:
                self.on_roll = 0 if d0 > d1 else 1
                self.dice = (max(d0, d1), min(d0, d1))
        elif name == "roll":
            self.on_roll, self.dice, self.offer = p, tuple(ev["dice"]), None
        elif name == "rethrow":
            self.dice = tuple(ev["dice"])
        elif name == "void":
            self.dice = None
        elif name in ("play", "pass"):
            self.on_roll, self.dice = 1 - p, None
        elif name == "double":
            self.offer = "%s doubles to %d" % (n[p], ev["cube"])
        elif name == "take":
            self.cube, self.owner, self.offer = self.cube * 2, p, None
        elif name in ("beaver", "raccoon"):
            self.cube, self.offer = ev["cube"], None
            if name == "beaver":
                self.owner = p
        elif name == "resign":
            self.offer = "%s offers to resign %s" % (n[p], LEVELS[ev["level"]])
        elif name == "demand":
            self.offer = "%s demands %s: %s to agree or play on" % (
                n[p], LEVELS[ev["level"]], n[1 - p])
        elif name in ("accept", "reject", "drop", "result"):
            self.offer = None

    def _stake(self, ev, name, member):
        # A member's own cube (multiple cubes) or answer to the box's double.
        stake = self.stakes.get(member)
        if not isinstance(stake, list):
            return
        if name == "double":
            stake.append(ev["cube"])  # on offer
        elif name == "take" and len(stake) > 2:
            self.stakes[member] = [stake[2], "box" if ev["player"] == 0 else member]
        elif name == "drop":
            self.stakes[member] = "dropped" if ev["player"] == 1 else "won: the box dropped"

    def _names(self):
        return self.game_names or self.names

    def describe(self, ev):
        """One event in words."""
        name = ev["ev"]
        n = self._names()
        p = ev.get("player")
        if name == "match":
            if ev.get("kind") == "chouette":
                return "new: a chouette of %s (%s)" % (
                    ", ".join(str(x) for x in ev.get("players") or []),
                    "multiple cubes" if ev.get("multiple_cubes", True) else "single cube")
            what = ("a %d-point match" % ev["length"]) if ev["length"] else "a money session"
            if ev.get("games"):
                what = "a match over %d games, decided by the total" % ev["games"]
            return "new: %s" % what
        member = ev.get("member")
        if member is not None and name in ("double", "take", "drop"):
            return self._member_words(ev, n, member)
        if name == "partner":
            return "the box takes %s as partner for the next game" % ev["name"]
        if name == "join":
            return "%s joins the chouette" % ev["name"]
        if name == "leave":
            return "%s leaves the chouette" % ev["name"]
        if name == "game" and "box" in ev:
            others = [m for m in ev.get("team") or [] if m != ev.get("captain")]
            return "game %d starts: %s (box%s) against %s (captain)%s" % (
                ev["number"], ev["box"], ", partner %s" % ev["partner"]
                if ev.get("partner") else "", ev.get("captain"),
                " with %s" % ", ".join(others) if others else "")
        if name == "result" and isinstance(ev.get("settled"), list):
            text = "%s wins %d point%s (%s)" % (
                n[ev["winner"]], ev["points"], "" if ev["points"] == 1 else "s", ev["how"])
            paid = ["%s pays %s %s" % (a, b, _num(v)) for a, b, v in ev["settled"]]
            if paid:
                text += "; " + ", ".join(paid)
            if ev.get("line"):
                text += "; next: %s" % ", ".join(str(x) for x in ev["line"])
            return text
        if name == "game":
            return "game %d starts, %s %d - %s %d%s" % (
                ev["number"], n[0], ev["score"][0], n[1], ev["score"][1],
                " (Crawford game)" if ev["crawford"] else "")
        if name == "opening":
            d0, d1 = ev["dice"]
            text = "opening throw: %s %d, %s %d" % (n[0], d0, n[1], d1)
            if d0 == d1 and ev.get("cube"):  # automatic doubles (a money session's option)
                return text + " (a tie: the cube turns to %d; both throw again)" % ev["cube"]
            return text + (" (a tie: both throw again)" if d0 == d1 else "")
        if name == "roll":
            return "%s rolls %d-%d" % (n[p], ev["dice"][0], ev["dice"][1])
        if name == "play":
            moves = " ".join("%d/%d%s" % (a, b, "*" if h else "") for a, b, h in ev["moves"])
            return "%s plays %d%d: %s" % (n[p], ev["dice"][0], ev["dice"][1],
                                          moves or "(no legal play)")
        if name == "double":
            return "%s doubles to %d" % (n[p], ev["cube"])
        if name in ("take", "drop", "accept", "reject"):
            return "%s %ss" % (n[p], name)
        if name in ("beaver", "raccoon"):
            return "%s %ss: the cube is at %d" % (n[p], name, ev["cube"])
        if name == "resign":
            return "%s offers to resign %s" % (n[p], LEVELS[ev["level"]])
        if name == "rethrow":
            return "%s's dice were cocked: thrown again %d-%d" % (n[p], ev["dice"][0],
                                                                 ev["dice"][1])
        if name == "void":
            return "%s voids the play: %s throws again" % (n[p], n[1 - p])
        if name == "correct_setup":
            return "the setup is corrected: %s plays the opening numbers again" % n[p]
        if name == "pass":
            return "%s is shut out: passes without a throw" % n[p]
        if name == "demand":
            return "%s demands %s instead" % (n[p], LEVELS[ev["level"]])
        if name == "result":
            return "%s wins %d point%s (%s); score %d-%d" % (
                n[ev["winner"]], ev["points"], "" if ev["points"] == 1 else "s", ev["how"],
                ev["score"][0], ev["score"][1])
        if name == "match_over":
            if ev.get("winner") is None:
                return "the match is drawn %d-%d" % (ev["score"][0], ev["score"][1])
            return "%s wins the match %d-%d" % (n[ev["winner"]], ev["score"][0],
                                                ev["score"][1])
        return "%s (seq %d)" % (name, ev["seq"])

    def _member_words(self, ev, n, member):
        name = ev["ev"]
        box = n[0]
        if name == "double":
            if ev["player"] == 0:
                return "%s (box) doubles %s to %d" % (box, member, ev["cube"])
            return "%s doubles the box to %d" % (member, ev["cube"])
        if ev["player"] == 0:
            return "%s (box) %ss %s's double" % (box, name, member)
        text = "%s %ss the box's double" % (member, name)
        if ev.get("team") in ("take", "drop"):
            text += ": the team %ss" % ev["team"]
        return text

    def apply_live(self, msg):
        name = msg.get("live")
        if not isinstance(name, str):
            return
        self.live[name] = msg
        if name == "blind" and isinstance(msg.get("slots"), list):
            self.untrusted = msg["slots"]
        for key in ("faulty", "problem", "problems", "error", "unknown", "missing", "extra"):
            if msg.get(key):
                self.problems.append("%s: %s %s" % (name, key, _short(msg[key])))

    def _untrusted(self):
        # The slots whose sensors the board ignores: the last `blind` line's, else the
        # `state` reply's.
        slots = self.untrusted
        if slots is None and isinstance(self.board_state, dict):
            slots = self.board_state.get("untrusted")
        if not isinstance(slots, list):
            return []
        return [s for s in slots if isinstance(s, int) and 0 <= s < 128]

    # --- drawing --------------------------------------------------------------------------------

    def render(self):
        out = []
        n = self.names
        m = self.match
        if m is None:
            out.append("No match on the board yet (start one with `bgboard send new match N`).")
        else:
            if m.length:
                head = "%d-point match" % m.length
            elif m.limit:
                head = "match over %d games" % m.limit
            elif m.length == 0:
                head = "money session"
            else:
                head = "match (its start is not in the board's journal)"
            game = m.games[-1] if m.games else None
            score = m.score
            if m.chouette:
                head = "chouette"
            if game is not None:
                head += ", game %d" % game.number
                if game.crawford:
                    head += " (Crawford)"
            if m.chouette:
                n = self._names()
                out.append("%s    %s (box) against %s (captain)" % (head, n[0], n[1]))
                out.append("line-up: %s" % ", ".join(m.line))
                out.append(_consult_words(m.consult, self.board_state))
                out.append("ledger: %s" % ", ".join(
                    "%s %s" % (name, _signed(v)) for name, v in m.balance.items()))
                if self.stakes and game is not None and game.result is None:
                    out.append("stakes: %s" % ", ".join(
                        "%s %s" % (who, _stake_words(st, m.multiple_cubes))
                        for who, st in self.stakes.items()))
            else:
                out.append("%s    %s %d - %s %d" % (head, n[0], score[0], n[1], score[1]))
            if game is not None:
                mover = self.on_roll if self.on_roll is not None else 0
                out.append("X is %s (player %d)%s, O is %s" % (
                    n[mover], mover, " on roll" if self.on_roll is not None else "",
                    n[1 - mover]))
                out.append(diagram(game.position(mover)))
                owner = "centred" if self.owner is None else "owned by %s" % n[self.owner]
                dice = "%d-%d" % self.dice if self.dice else "-"
                out.append("cube %d (%s)    dice %s" % (self.cube, owner, dice))
                if self.offer:
                    out.append("on offer: %s" % self.offer)
                if game.result is not None:
                    out.append("game over: %s" % self.describe(game.result))
        state = self.board_state
        if isinstance(state, dict):
            words = []
            if state.get("phase") is not None:
                words.append("phase %s" % _short(state["phase"]))
            allowed = state.get("allowed")
            if isinstance(allowed, list) and allowed:
                words.append("allowed: %s" % _short(", ".join(str(a) for a in allowed)))
            if words:
                out.append("board: %s" % "; ".join(words))
        untrusted = self._untrusted()
        if untrusted:
            out.append(untrusted_words(untrusted))
        if self.last:
            out.append("")
            out.append("last events:")
            out += ["  " + t for t in self.last]
        if self.problems:
            out.append("")
            out.append("problems:")
            out += ["  " + t for t in self.problems]
        if self.status:
            out.append("")
            out.append(self.status)
        return "\n".join(out)


CONSULT_WORDS = {"free": "the team may consult freely", "none": "no consulting",
                 "cube": "the team may consult once a cube is turned"}


def _consult_words(rule, state):
    """The chouette's consultation option, and whether the board says the team may consult
    now (its `state`, when the monitor has it)."""
    text = "consultation: %s" % CONSULT_WORDS.get(rule, rule)
    now = (state.get("chouette") or {}).get("consult") if isinstance(state, dict) else None
    if rule == "cube" and isinstance(now, bool):
        text += " (%s)" % ("now it may" if now else "not yet")
    return text


def _stake_words(stake, multiple):
    if isinstance(stake, str):
        return "out (%s)" % stake
    if not multiple:
        return "in"
    value, holder = stake[0], stake[1]
    text = "cube %d%s" % (value, " (%s's)" % holder if holder else "")
    if len(stake) > 2:
        text += ", doubled to %d" % stake[2]
    return text


def _num(v):
    return ("%d" % v) if v == int(v) else ("%.1f" % v)


def _signed(v):
    return ("+" if v > 0 else "") + _num(v)


def _short(value, n=60):
    text = str(value)
    return text if len(text) <= n else text[:n] + "..."
