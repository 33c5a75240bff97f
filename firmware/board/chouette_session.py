"""A chouette on the board: bgcore's Chouette as the game record's match and session
(board.record: the game, the score and snapshots as a Match has them; on_event, waiting,
plan and add_state as the record answers them for a match), loaded only when a chouette is
played (RAM).

The box is player 0 of every game (white), the team player 1 (black: its captain moves the
checkers). The cube actions, the results and the rotation go through the Chouette. Cube
events with a `member` are that member's own stake; those without are the game's cube
(docs/protocol.md).
"""

from bgcore.chouette import BOX, TEAM, Chouette
from bgcore.errors import RuleError
from bgcore.game import Game
from bgcore.rules import Rules


def match_event(players, rules, multiple_cubes, partner_from, extra=None):
    """The `match` event that starts a chouette; RuleError for settings bgcore refuses.
    extra: {"consult": ..., "partner_by": ...} (bgcore.chouette), when not the defaults."""
    extra = extra or {}
    Chouette(players, rules, multiple_cubes, partner_from, **extra)  # refused before it is
    ev = {"ev": "match", "length": 0, "rules": rules.to_dict(), "kind": "chouette",  # written
          "players": list(players), "multiple_cubes": bool(multiple_cubes),
          "partner_from": partner_from}
    ev.update(extra)
    return ev


class ChouetteSession:
    """`chouette` (bgcore Chouette); `score`: [box, team] points of the games as the game
    itself scores them (its own cube), which is what a .mat of the session shows."""

    length = 0
    winner = None

    def __init__(self, chouette, score=None):
        self.chouette = c = chouette
        c.ledger.keep = 1  # every game's settlements are in the journal, not in RAM
        if c.game is None:  # no game begun yet: one to look at until the position stands
            c.game = Game(c.rules, True, doubling=not c.multiple)
        self._score = list(score) if score else [0, 0]

    @classmethod
    def start(cls, ev):
        return cls(Chouette(ev["players"], Rules.from_dict(ev["rules"]), ev["multiple_cubes"],
                            ev["partner_from"], ev.get("consult", "free"),
                            ev.get("partner_by", "rotation")))

    # --- what the record and the controller ask of a match -------------------------------

    @property
    def game(self):
        return self.chouette.game

    @property
    def games(self):
        return self.chouette.games

    @property
    def score(self):
        s = list(self._score)
        r = self.chouette.game.result
        if r is not None:
            s[r.winner] += r.points
        return s

    def is_over(self):
        return False

    def match_id(self):
        from bgcore.matchid import encode

        return encode(self.game.id_fields(0, self.score))

    def to_dict(self):
        d = self.chouette.to_dict()
        del d["game"]["rules"]  # the chouette's (a snapshot must stay small)
        d["score"] = list(self._score)
        return d

    @classmethod
    def from_dict(cls, data):
        data = dict(data)
        score = data.pop("score")
        data["game"] = dict(data["game"])
        data["game"]["rules"] = data["rules"]
        return cls(Chouette.from_dict(data), score)

    # --- the session (board.record) ------------------------------------------------------

    def on_event(self, ev):
        """The chouette's part of an event (board.record.Record.apply; live or replayed):
        `game` begins the next game (the event gets who plays), a double, take or drop is
        that member's stake or the game's cube, `result` settles the game with every member
        and rotates (the event gets the settlements and the new line-up), `join`, `leave`
        and `partner` change the line-up; any other is refused."""
        c = self.chouette
        kind = ev["ev"]
        member = ev.get("member")
        if kind == "game":
            self._score = self.score
            c.start_game()
            ev["box"] = c.box
            ev["captain"] = c.captain
            ev["team"] = list(c.members)
            if c.partner is not None:
                ev["partner"] = c.partner
        elif kind == "result":
            ev["line"] = c.end_game()
            ev["settled"] = [[p, q, v] for p, q, v in c.ledger.game()]
        elif kind == "partner":
            c.take_partner(ev["name"])
        elif kind == "join" or kind == "leave":
            getattr(c, kind)(ev["name"])
        elif kind == "double":
            c.double(member)
            cube = c.cubes[member] if c.multiple else c.game.cube
            ev["cube"] = cube.value * 2
        elif kind == "take" or kind == "drop":
            if kind == "take":
                c.take(member)
            else:
                c.drop(member)
            if not c.multiple and member is not None and not c.answers:
                # the last member answered the box: the team takes if anyone took
                ev["team"] = "drop" if c.game.is_over() else "take"
        elif kind == "beaver" or kind == "raccoon":
            raise RuleError("no %ss in a chouette" % kind)
        else:
            raise ValueError("unknown event %r" % kind)

    # --- cube actions ----------------------------------------------------------------------

    def waiting(self):
        """Why nobody may throw or resign now (answers to doubles are due), or None."""
        c = self.chouette
        if c.offers or c.answers:
            return "doubles are on offer: every answer is needed first (%s)" % ", ".join(
                c.pending())
        return None

    def plan(self, kind, member, pick):
        """The events of a cube action (double, take, drop; `member` None or a name), or
        ValueError saying why not; nothing changes here. `pick`: with no member named,
        answer for the first (by rank) whose answer is due (the board's buttons)."""
        c = self.chouette
        game = c.game
        if kind not in ("double", "take", "drop"):
            raise RuleError("no beavers or raccoons in a chouette")
        if kind == "double":
            side = game.on_roll
            if not c.multiple:
                if member is not None and not (side == TEAM and member == c.captain):
                    raise RuleError("single cube: the box doubles the whole team and the "
                                    "captain (%s) doubles for the team" % c.captain)
                _refuse(game.why_not_double(side))
                return [{"ev": "double", "player": side}]
            _refuse(game.timing_error())
            if member is None:
                if side == TEAM:
                    raise RuleError("multiple cubes: each member doubles the box on their own: "
                                    "say who")
                names = [m for m in c.active if m not in c.offers
                         and c.cubes[m].why_not_double(BOX, c.rules) is None]
                if not names:
                    raise RuleError("the box may double none of the team's cubes now")
            else:
                _refuse(self._why_not_double(member, side))
                names = [member]
            return [{"ev": "double", "player": side, "member": m} for m in names]
        if not c.multiple:
            doubler = game.cube.offered_by
            if doubler is None:
                raise RuleError("no double has been offered: there is nothing to take or drop")
            if doubler == TEAM:
                if member is not None and member != "box":
                    raise RuleError("the team doubled: the box takes or drops")
                return [{"ev": kind, "player": BOX}]
            due = [m for m in c.active if c.answers.get(m) == -1]
            m = _who(member, due, pick, "who answers")
            return [{"ev": kind, "player": TEAM, "member": m}]
        due = [m for m in c.members if m in c.offers]
        if not due:
            raise RuleError("no double has been offered: there is nothing to take or drop")
        m = _who(member, due, pick, "whose double")
        return [{"ev": kind, "player": 1 - c.offers[m], "member": m}]

    def _why_not_double(self, member, side):
        c = self.chouette
        if member not in c.active:
            return "%s is not on the team in this game (still playing: %s)" % (
                member, ", ".join(c.active))
        if member in c.offers:
            return "%s's cube is already on offer" % member
        cube = c.cubes[member]
        if cube.owner is not None and cube.owner != side:
            return "%s owns %s's cube: only the owner redoubles" % (
                "the box" if cube.owner == BOX else member, member)
        return cube.why_not_double(side, c.rules)

    # --- between games -----------------------------------------------------------------------

    def why_not(self, kind, name):
        """Why `name` may not "join", "leave" or be the box's "partner" now, or None."""
        return getattr(self.chouette, "why_not_" + kind)(name)

    def add_state(self, out):
        """The host's `state` gets the chouette's line-up, cubes and balances."""
        c = self.chouette
        led = c.ledger
        info = {
            "line": list(c.line), "box": c.box, "captain": c.captain,
            "members": list(c.members), "active": list(c.active), "partner": c.partner,
            "multiple_cubes": c.multiple, "consult": c.may_consult(),
            "partner_by": c.partner_by, "beaten": c.beaten,
            "pending": c.pending(), "games": c.games,
            "balance": dict((n, led.balance(n)) for n in c.players()),
            "debts": [list(d) for d in led.debts()],
        }
        if c.multiple:  # member: [value, "box", the member or None (centred)]
            info["cubes"] = dict((m, [k.value, None if k.owner is None else
                                      ("box" if k.owner == BOX else m)])
                                 for m, k in c.cubes.items())
        out["chouette"] = info


# --- a chouette's own actions (the host's new chouette, partner, join, leave) ----------------

def new(board, players, rules=None, multiple_cubes=True, partner_from=None, extra=None):
    """Start a chouette on `board` (board.controller.Controller): `players` by rank, the box
    first; extra: its consultation and partner options (bgcore.chouette)."""
    rules = rules if rules is not None else Rules()
    board._commit(match_event(players, rules, multiple_cubes, partner_from, extra))
    board._update()  # show at once what the setup lacks


def partner(board, name):
    """Between games: the box takes `name` as its partner for the next game ("*": drawn by
    lot among the members other than the captain)."""
    m = board.match
    if name == "*" and isinstance(m, ChouetteSession):
        name = m.chouette.draw_partner(board.rng)
    lineup(board, "partner", name)


def lineup(board, kind, name):
    """`name` "join"s (at the bottom of the rotation, after the game being played), "leave"s
    (during a game: settled as a drop of the present cube; the box leaving ends the game) or
    becomes the box's "partner" for the next game."""
    m = board.match
    if not isinstance(m, ChouetteSession):
        raise ValueError("the box takes a partner only in a chouette" if kind == "partner"
                         else "players join and leave only a chouette")
    reason = m.why_not(kind, name)
    if reason:
        raise ValueError(reason)
    board._commit({"ev": kind, "name": name})
    board._finish_game()  # the box, or the last member still in, left


def _who(member, due, pick, what):
    # Whose answer: the member named, or the one whose answer is due.
    if member is None:
        if len(due) == 1 or (pick and due):
            return due[0]
        raise RuleError("say %s: %s" % (what, ", ".join(due)))
    if member not in due:
        raise RuleError("%s has no double to answer (answers due: %s)" % (member, ", ".join(due)))
    return member


def _refuse(reason):
    if reason:
        raise RuleError(reason)
