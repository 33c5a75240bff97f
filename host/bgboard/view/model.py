"""What the browser view knows of the board, and what it sends the pages.

`BoardModel` follows one board through the lines the link delivers: the journaled events
(into bgboard.monitor.View, which builds the match as bgboard.events does), the `state`
replies (position, dice, cube, score, what is allowed), the live lines (`leds`, `board`,
`refused`, the virtual board's `sim`) and the `dump` replies of the raw sensor view.
`snapshot()` is the page's whole picture as one JSON-able dict, the board drawn by
bgboard.view.drawing and the move list in .mat notation (bgboard.matfile).
"""

import collections
import time

from bgboard.events import Entry
from bgboard.matfile import DEFAULT_NAMES, action_text, layout
from bgboard.monitor import View
from bgboard.narrate import Narrator
from bgboard.view.drawing import (Scene, board_svg, leds_from_live, match_fields, sides_of,
                                   status_words)
from bgcore import Position
from bgwire.sim import check as check_sim  # the contract's check of a sim line


def arrangement(table, hand, target):
    """The sim lines that move the checkers of `table` (the virtual board's [white, black]
    counts) and `hand` to `target` (the same shape): checkers in hand are put down first,
    then each surplus place gives a checker to a place that lacks one."""
    lines = []
    for side in (0, 1):
        have = list(table[side])
        want = list(target[side])
        short = [p for p in range(26) for _ in range(max(0, want[p] - have[p]))]
        extra = [p for p in range(26) for _ in range(max(0, have[p] - want[p]))]
        for _ in range(hand[side]):
            if short:
                lines.append({"sim": "place", "side": side, "at": short.pop(0)})
        for src, dst in zip(extra, short):
            lines.append({"sim": "lift", "side": side, "at": src})
            lines.append({"sim": "place", "side": side, "at": dst})
    return lines


class BoardModel:
    def __init__(self, port, names=DEFAULT_NAMES, keep_notes=8):
        self.port = port
        self.names = names
        self.view = View(names)
        self.conn = "connecting"
        self.conn_text = "connecting to %s" % port
        self.hello = None
        self.state = {}
        self.leds = {}
        self.board_live = None  # the last live board line (tracker state, moves)
        self.virtual = None  # None: not known yet; True: the board answered a sim line
        self.table = None
        self.hand = [0, 0]
        self.heat = None
        self.notes = collections.deque(maxlen=keep_notes)
        self.narrator = Narrator()  # what the board asks for, in words, as notes
        self.coach = None  # the coach's hint and ratings (bgboard engine --view), or None
        self.rev = 0
        self.changed = True

    # --- what comes in ---------------------------------------------------------------------

    def touch(self):
        self.changed = True

    def note(self, text):
        self.notes.append({"t": round(time.time(), 3), "text": str(text)[:200]})
        self.touch()

    def set_conn(self, conn, text):
        if (conn, text) != (self.conn, self.conn_text):
            self.conn, self.conn_text = conn, text
            self.touch()

    def new_journal(self, journal):
        # The board's history (re)starts: the events follow from its start.
        self.view = View(self.names)
        self.touch()

    def event(self, ev):
        self.view.apply(ev)
        self.note(self.view.describe(ev))  # a tie thrown again, a pass... said in words

    def live(self, msg):
        """A live line; returns True when the board's state should be asked again."""
        kind = msg.get("live")
        for text in self.narrator.live(msg):  # refusals, what the LEDs ask for
            self.note(text)
        if kind == "leds":
            self.leds = leds_from_live(msg)
        elif kind == "board":
            self.board_live = msg
            self.touch()
            return True
        elif kind == "refused":
            pass  # noted above
        elif kind == "sim":
            if "error" in msg:
                self.virtual = True
                self.note("the virtual board: %s" % msg["error"])
            elif isinstance(msg.get("table"), list) and len(msg["table"]) == 2:
                self.virtual = True
                self.table = [list(msg["table"][0]), list(msg["table"][1])]
                hand = msg.get("hand")
                self.hand = list(hand) if isinstance(hand, list) and len(hand) == 2 else [0, 0]
        else:
            return False
        self.touch()
        return False

    def set_state(self, reply):
        self.state = {k: v for k, v in reply.items() if k not in ("id", "ok")}
        self.touch()

    def set_heat(self, dump):
        self.heat = dump
        self.touch()

    # --- what goes out ---------------------------------------------------------------------

    def target(self):
        """[white, black] counts of the position the board expects (for arranging the
        virtual board's checkers), or None when it has no game."""
        pid = (self.state.get("game") or {}).get("position_id")
        if not pid:
            return None
        return list(sides_of(Position.from_id(pid), 0))

    def scene(self):
        game = self.state.get("game") or {}
        match = self.state.get("match") or {}
        phase = self.state.get("phase")
        fields = match_fields(game)
        pips = None
        white, black = [0] * 26, [0] * 26
        try:
            position = Position.from_id(game["position_id"]) if game.get("position_id") else None
        except ValueError:
            position = None
        if position is not None:
            white, black = sides_of(position, 0)
            pips = position.pips()  # the board's position, from White's side
        if self.virtual and self.table is not None:
            white, black = self.table  # what lies on the table, as the sensors see it
        playing = phase == "playing" and fields is not None
        on_roll = game.get("player") if playing else None
        if fields is not None and playing and (fields["double_offered"] or fields["resignation"]):
            on_roll = fields["turn"]  # the player whose decision it is
        status = status_words(fields, self.names, phase)
        offer = self.view.offer
        if playing and fields["resignation"] and offer and " demands " in offer:
            status = offer  # the resigner answers a demand: a Match ID cannot say so
            on_roll = 1 - fields["turn"]
        m = self.view.match
        number = m.games[-1].number if m is not None and m.games else None
        dice = tuple(game.get("dice") or ())
        return Scene(white, black, on_roll=on_roll, dice=dice, cube=game.get("cube", 1),
                     cube_owner=game.get("cube_owner"),
                     offered=bool(fields and fields["double_offered"]),
                     score=match.get("score") if match else None,
                     length=match.get("length") if match else None,
                     crawford=bool(match.get("crawford")), names=self.names,
                     status=status, leds=self.leds,
                     heat=self.heat, hand=self.hand, game_number=number, pips=pips,
                     games=(self.state.get("settings") or {}).get("games") if match else None)

    def games(self):
        """The match's games in .mat notation: [{number, score, rows}], rows as
        bgboard.matfile.layout gives them ([number or None, left, right])."""
        m = self.view.match
        if m is None:
            return []
        out = []
        for g in m.games:
            names = g.names or self.names
            out.append({"number": g.number, "names": list(names), "score": list(g.score),
                        "rows": [[n, (a or "").strip() or None, (b or "").strip() or None]
                                 for n, a, b in layout(g.entries)]})
        return out

    def pending(self):
        """The play being made (not journaled until the opponent acts), in .mat notation."""
        game = self.state.get("game") or {}
        moves = game.get("moves") or []
        view = self.view
        if not moves or view.dice is None or view.on_roll is None:
            return ""
        steps = [(m[0], m[1], bool(m[2])) for m in moves if isinstance(m, list) and len(m) == 3]
        entry = Entry("move", view.on_roll, tuple(view.dice), tuple(steps), None, None, None,
                      None)
        return "%s %s (%s's numbering)" % (self.names[view.on_roll], action_text(entry),
                                            self.names[view.on_roll])

    def snapshot(self):
        self.rev += 1
        self.changed = False
        game = self.state.get("game") or {}
        hello = self.hello or {}
        return {
            "type": "view",
            "rev": self.rev,
            "svg": board_svg(self.scene()),
            "conn": {"state": self.conn, "text": self.conn_text},
            "board": {"port": self.port, "firmware": hello.get("firmware"),
                      "virtual": bool(self.virtual)},
            "phase": self.state.get("phase"),
            "on_roll": game.get("player"),
            "allowed": game.get("allowed") or [],
            "table": self.table,
            "hand": self.hand,
            "games": self.games(),
            "pending": self.pending(),
            "notes": list(self.notes),
            "raw": self.heat is not None,
            "seq": self.view.seq,
            "coach": self.coach,
        }
