"""`bgboard monitor`: the board as the events describe it, as text for a terminal.

`View` follows the events (and the `live` lines) and renders the position diagram (bgcore's,
from the side of the player on roll), the match and score, the cube, the dice, the last
events in words and any sensor problems the board reports.
"""

import collections

from bgboard.events import MatchLog, check_event, EventError
from bgboard.matfile import DEFAULT_NAMES, clean_name
from bgcore.position import diagram

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
            self.match = MatchLog(ev["length"], ev["rules"], ev["seq"])
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
        if name == "game":
            self.cube, self.owner, self.offer, self.dice, self.on_roll = 1, None, None, None, None
        elif name == "opening":
            d0, d1 = ev["dice"]
            self.cube = ev.get("cube", self.cube)
            if d0 != d1:
                self.on_roll = 0 if d0 > d1 else 1
                self.dice = (max(d0, d1), min(d0, d1))
        elif name == "roll":
            self.on_roll, self.dice, self.offer = p, tuple(ev["dice"]), None
        elif name == "play":
            self.on_roll, self.dice = 1 - p, None
        elif name == "double":
            self.offer = "%s doubles to %d" % (self.names[p], ev["cube"])
        elif name == "take":
            self.cube, self.owner, self.offer = self.cube * 2, p, None
        elif name in ("beaver", "raccoon"):
            self.cube, self.offer = ev["cube"], None
            if name == "beaver":
                self.owner = p
        elif name == "resign":
            self.offer = "%s offers to resign %s" % (self.names[p], LEVELS[ev["level"]])
        elif name in ("accept", "reject", "drop", "result"):
            self.offer = None

    def describe(self, ev):
        """One event in words."""
        name = ev["ev"]
        n = self.names
        p = ev.get("player")
        if name == "match":
            what = ("a %d-point match" % ev["length"]) if ev["length"] else "a money session"
            return "new: %s" % what
        if name == "game":
            return "game %d starts, %s %d - %s %d%s" % (
                ev["number"], n[0], ev["score"][0], n[1], ev["score"][1],
                " (Crawford game)" if ev["crawford"] else "")
        if name == "opening":
            d0, d1 = ev["dice"]
            text = "opening throw: %s %d, %s %d" % (n[0], d0, n[1], d1)
            return text + (" (a tie: again)" if d0 == d1 else "")
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
        if name == "result":
            return "%s wins %d point%s (%s); score %d-%d" % (
                n[ev["winner"]], ev["points"], "" if ev["points"] == 1 else "s", ev["how"],
                ev["score"][0], ev["score"][1])
        if name == "match_over":
            return "%s wins the match %d-%d" % (n[ev["winner"]], ev["score"][0],
                                                ev["score"][1])
        return "%s (seq %d)" % (name, ev["seq"])

    def apply_live(self, msg):
        name = msg.get("live")
        if not isinstance(name, str):
            return
        self.live[name] = msg
        for key in ("faulty", "problem", "problems", "error", "unknown", "missing", "extra"):
            if msg.get(key):
                self.problems.append("%s: %s %s" % (name, key, _short(msg[key])))

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
            elif m.length == 0:
                head = "money session"
            else:
                head = "match (its start is not in the board's journal)"
            game = m.games[-1] if m.games else None
            score = m.score
            if game is not None:
                head += ", game %d" % game.number
                if game.crawford:
                    head += " (Crawford)"
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


def _short(value, n=60):
    text = str(value)
    return text if len(text) <= n else text[:n] + "..."
