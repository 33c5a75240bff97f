"""A chouette: three or more players, the box against a team whose captain plays the checkers.
Single-cube (one cube; every member takes or drops the box's double on their own) or
multiple-cube (every member has a cube against the box). Results go to a Ledger.

In each game the box is player 0 and the team player 1 of a bgcore Game; throw the dice
through Chouette.roll (it waits for cube answers), play checkers through `game`."""

from bgcore.cube import BACKGAMMON, SINGLE, Cube, scored
from bgcore.errors import RuleError
from bgcore.game import Game, Result
from bgcore.offers import OVER, player_error
from bgcore.ledger import Ledger
from bgcore.rules import Rules

BOX = 0
TEAM = 1
_NO = -1  # an answer not given yet
CONSULT = ("free", "none", "cube")  # the team consults: freely, never, once a cube is turned
PARTNER_BY = ("rotation", "lot", "beaten")  # how the box's partner is chosen


class Chouette:
    """`ranking`: names, highest first (see Ordering): the box, the captain, the rest.
    `partner_from`: None, or the number of players (6 or 8) from which the box may take a
    partner who shares its results half and half. `consult`: may the team consult on the
    play, "free"ly, "none", or once the "cube" is turned. `partner_by`: the box's partner is
    offered in "rotation" from the captain down (any member may accept; by lot when none
    does: draw_partner), drawn by "lot" among the members other than the captain, or is the
    player the box has just "beaten"."""

    def __init__(self, ranking, rules=None, multiple_cubes=True, partner_from=None,
                 consult="free", partner_by="rotation"):
        rules = rules if rules is not None else Rules()
        if rules.beavers or rules.automatic_doubles:
            raise RuleError("beavers, raccoons and automatic doubles are not supported in a "
                            "chouette")
        names = list(ranking)
        if len(names) < 3:
            raise RuleError("a chouette needs three or more players")
        for n in names:
            _check_name(n, names)
        if partner_from is not None and (not isinstance(partner_from, int) or partner_from < 4):
            raise RuleError("partner_from is a number of players (6 or 8) or None, got %r"
                            % (partner_from,))
        if consult not in CONSULT or partner_by not in PARTNER_BY:
            raise RuleError("consult is free, none or cube and partner_by rotation, lot or "
                            "beaten, got %r and %r" % (consult, partner_by))
        self.rules = rules
        self.multiple = bool(multiple_cubes)
        self.partner_from = partner_from
        self.consult = consult
        self.partner_by = partner_by
        self.beaten = None  # who lost the last game between the box and the captain
        self.line = names  # rank order: box first, then the team by rank
        self.joiners = []  # joined during a game: they rank last after it
        self.leavers = []  # left during a game: out of the line-up after its rotation
        self.ledger = Ledger()
        self.game = None
        self.settled = True  # no game, or the last one settled and rotated
        self.partner = None
        self.partner_out = False  # the box's partner left this game: the box plays alone
        self.captain = None
        self.members = []  # the team in this game, by rank
        self.active = []  # members still playing this game
        self.cubes = {}  # multiple cubes: member -> Cube (owner 0 the box, 1 the member)
        self.offers = {}  # multiple cubes: member -> side (BOX or TEAM) whose double awaits
        self.answers = {}  # single cube, the box doubled: member -> 1 take, 0 drop, -1 not yet
        self.won = {}  # member -> 1 beat the box, -1 lost to it (settled this game)
        self.captain_dropped = False  # multiple cubes: the captain dropped, answers pending
        self.games = 0

    # --- who is who ----------------------------------------------------------------------------

    @property
    def box(self):
        return self.line[0]

    def team(self):
        """Team members by rank (the box's partner excluded)."""
        return [n for n in self.line[1:] if n != self.partner]

    def players(self):
        return self.line + self.joiners

    # --- between games -------------------------------------------------------------------------

    def why_not_join(self, name):
        """Why `name` may not join now (a bad or taken name), or None."""
        try:
            _check_name(name, self.players() + [name])
        except RuleError as e:
            return str(e)
        return None

    def join(self, name):
        """A new player joins at the bottom (after the current game's rotation)."""
        reason = self.why_not_join(name)
        if reason:
            raise RuleError(reason)
        if self.settled:
            self.line.append(name)
        else:
            self.joiners.append(name)

    def why_not_leave(self, name):
        """Why `name` may not leave now, or None ("Players can leave or join a chouette at
        any time"): only those a double on offer concerns wait for its answers (the box and
        its partner, the captain whose double it is, the members who answer it, the member
        whose own cube it is); a chouette keeps three players."""
        if name in self.joiners:
            return None
        if name not in self.line or name in self.leavers:
            return "%r is not in this chouette" % (name,)
        if len(self.line) - len(self.leavers) + len(self.joiners) <= 3:
            return "a chouette needs three or more players"
        if not self.settled and name in self._concerned():
            return "a double that concerns %s is on offer: its answers first, then %s may " \
                   "leave" % (name, name)
        return None

    def _concerned(self):
        # Who a double on offer concerns (nobody when none is).
        out = list(self.answers) + list(self.offers)
        if not self.multiple and self.game.cube.offered_by == TEAM:  # type: ignore
            out.append(self.captain)
        if out:
            out += [self.box, self.partner]
        return out

    def leave(self, name):
        """Between games `name` leaves the line-up. During a game a member still in settles
        as if dropping the present cube; the box leaving settles so with every member still
        in (the team wins: the captain becomes the box); a captain who leaves hands the
        captaincy to the highest-ranking member still in. The box's partner who leaves
        concedes its half: it pays each member still in half the present cube (theirs, with
        multiple cubes), and the box plays on for its own half alone. Leavers go after the
        rotation."""
        reason = self.why_not_leave(name)
        if reason:
            raise RuleError(reason)
        if name in self.joiners:
            self.joiners.remove(name)
            return
        if self.settled:
            self.line.remove(name)
            if name == self.partner:  # chosen for the next game, now gone
                self.partner = None
            return
        game = self.game
        self.leavers.append(name)
        if name == self.partner:
            for m in self.active:
                self.ledger.pay(name, m, self._stake(m), halves=True)
            self.partner_out = True
        elif name == self.box:
            for m in list(self.active):
                self._leaves(m, self._stake(m), True)
            game.finish(TEAM)  # type: ignore[union-attr]
        elif name in self.active:
            self._leaves(name, self._stake(name), False)
            if not self.active:
                game.finish(BOX)  # type: ignore[union-attr]
            elif name == self.captain:
                self.captain = self.active[0]

    def _stake(self, member):
        # What a member's drop would cost now: the present cube, theirs or the game's.
        return (self.cubes[member] if self.multiple else self.game.cube).value  # type: ignore

    def why_not_partner(self, name):
        """Why the box may not take `name` as its partner for the next game, or None."""
        if self.partner_from is None:
            return "the box takes a partner only with the option partner_from (6 or 8)"
        if not self.settled:
            return "the box chooses a partner before the game starts"
        if len(self.line) < self.partner_from:
            return "the box may take a partner with %d or more players, there are %d" % (
                self.partner_from, len(self.line))
        if name not in self.line[1:]:
            return "the box's partner comes from the team: %r is not in it" % (name,)
        if self.partner_by == "beaten" and name != self.beaten:
            return "the box takes as partner the player just beaten (%s)" % self.beaten
        if self.partner_by == "lot" and name == self.line[1]:
            return "the partner is drawn by lot among the members other than the captain"
        return None

    def draw_partner(self, rng):
        """A partner by lot ("chosen by lot from among the team members other than the
        captain"), drawn with rng.randint; RuleError when none may be."""
        if self.partner_by == "beaten":
            raise RuleError("the box takes as partner the player just beaten: no draw")
        names = [n for n in self.line[2:] if self.why_not_partner(n) is None]
        if not names:
            raise RuleError(self.why_not_partner(self.line[-1]) or
                            "no member other than the captain to draw")
        return names[rng.randint(0, len(names) - 1)]

    def may_consult(self):
        """May the team consult on the play now ("In some chouettes, the team may consult
        freely as to how rolls should be played. In others, consultation is prohibited. A
        popular compromise permits consultation only after the cube has been turned.")"""
        if self.consult != "cube":
            return self.consult == "free"
        if self.multiple:
            return any(c.value > 1 for c in self.cubes.values())
        return self.game is not None and self.game.cube.value > 1

    def take_partner(self, name):
        """The box takes a partner for the next game (rule option partner_from)."""
        reason = self.why_not_partner(name)
        if reason:
            raise RuleError(reason)
        self.partner = name

    def start_game(self):
        if not self.settled:
            raise RuleError("a game is in progress: finish and settle it first")
        self.members = self.team()
        self.captain = self.members[0]
        self.active = list(self.members)
        self.game = Game(self.rules, money=True, doubling=not self.multiple)
        self.cubes = {}
        if self.multiple:
            for m in self.members:
                self.cubes[m] = Cube()
        self.offers = {}
        self.answers = {}
        self.won = {}
        self.captain_dropped = False
        self.settled = False
        self.ledger.open_game()
        return self.game

    # --- play ----------------------------------------------------------------------------------

    def _game(self):
        if self.settled or self.game is None:
            raise RuleError("no game in progress: start one")
        return self.game

    def pending(self):
        """Who must answer a double: member names, "box" (single cube), or "box:NAME" for
        the box answering NAME's double (multiple cubes)."""
        out = [m for m in self.active if self.answers.get(m, 0) == _NO]
        for m in self.offers:
            out.append(m if self.offers[m] == BOX else "box:" + m)
        if not self.multiple and self.game is not None and self.game.cube.offered_by == TEAM:
            out.append("box")
        return out

    def roll(self, dice):
        game = self._game()
        if self.offers or self.answers:
            raise RuleError("doubles are on offer: every answer is needed before the next throw")
        return game.roll(dice)

    def double(self, member=None):
        """Single cube: the side on roll doubles, `member` None or the one who may: the
        captain for the team, "box" for the box. Multiple cubes: the box doubles `member`'s
        cube, or `member` doubles the box, before the roll."""
        game = self._game()
        if not self.multiple:
            doubler = game.on_roll
            # "The captain rolls the dice and makes the plays for the team": the captain
            # doubles for it, the box for itself; None is whoever is on roll.
            if member is not None and member != (self.captain if doubler else "box"):
                raise RuleError("single cube: %s, not %r" % (
                    "the captain (%s) doubles for the team" % self.captain if doubler else
                    "the box is on roll and doubles", member))
            game.double()
            if doubler == BOX:
                for m in self.active:
                    self.answers[m] = _NO
            return
        self._check_member(member)
        side = game.on_roll
        reason = game.timing_error() or self.cubes[member].why_not_double(side, self.rules)
        if member in self.offers:
            reason = "%s's cube is already on offer" % member
        if reason:
            raise RuleError(reason)
        game.accept_play()
        self.cubes[member].offer(side)
        self.offers[member] = side

    def take(self, member=None):
        self._answer(member, True)

    def drop(self, member=None):
        self._answer(member, False)

    def _answer(self, member, take):
        game = self._game()
        if self.multiple:
            self._check_member(member)
            if member not in self.offers:
                raise RuleError("no double is on offer on %s's cube" % member)
            side = self.offers.pop(member)
            cube = self.cubes[member]
            if take:
                cube.take()
                cube.taken_by = None  # no beavers in a chouette
            else:
                self._leaves(member, cube.drop(), side == TEAM)
                if member == self.captain and side == BOX:
                    self.captain_dropped = True
            if not self.offers:  # every answer is in
                if self.captain_dropped:
                    self._demote()
                self.captain_dropped = False
            if not self.active:
                game.finish(side)
            return
        doubler = game.cube.offered_by
        if doubler is None:
            raise RuleError("no double has been offered: there is nothing to take or drop")
        if doubler == TEAM:  # the box answers the team's double
            if member is not None and member != "box":
                raise RuleError("the team doubled: the box takes or drops")
            if take:
                game.take()
            else:
                game.drop()
            return
        if self.answers.get(member, None) != _NO:
            raise RuleError("%r has no double to answer: members answering are %s"
                            % (member, ", ".join(self.pending())))
        self.answers[member] = 1 if take else 0
        if _NO not in self.answers.values():
            self._resolve_single()

    def _resolve_single(self):
        game = self.game
        value = game.cube.value  # type: ignore[union-attr]
        takers = [m for m in self.active if self.answers[m]]
        droppers = [m for m in self.active if not self.answers[m]]
        for m in droppers:
            self._leaves(m, value, False)
        if self.captain in droppers:
            self._demote()
        self.answers = {}
        if takers:
            game.take()  # type: ignore[union-attr]
        else:
            game.drop()  # type: ignore[union-attr]

    def _leaves(self, member, value, member_won):
        # A member's game is settled early by a drop: the loser pays `value` at once.
        self._settle(member, value, member_won)
        self.active.remove(member)

    def _demote(self):
        # The captain dropped while others play on: the highest-ranking member still in
        # becomes captain for the rest of the game, the old captain goes to the bottom.
        if self.active:
            old = self.captain
            self.captain = self.active[0]
            self.line.remove(old)
            self.line.append(old)

    def _check_member(self, member):
        if member not in self.active:
            raise RuleError("%r is not on the team in this game (still playing: %s)"
                            % (member, ", ".join(self.active)))

    def _settle(self, member, points, member_won):
        self.won[member] = 1 if member_won else -1
        payer, payee = (self.box, member) if member_won else (member, self.box)
        if self.partner is None:
            self.ledger.pay(payer, payee, points)
            return
        for box_side in (self.box, self.partner):
            if box_side == self.partner and self.partner_out:
                continue  # its half was settled when it left
            if member_won:
                self.ledger.pay(box_side, member, points, halves=True)
            else:
                self.ledger.pay(member, box_side, points, halves=True)

    # --- after the game ------------------------------------------------------------------------

    def end_game(self):
        """Settle the finished game with every member still in, then rotate: if the captain
        beat the box, the captain becomes the box and the box goes to the bottom; otherwise
        the captain goes to the bottom. Returns the new line."""
        game = self._game()
        if not game.is_over():
            raise RuleError("the game is not over")
        r = game.result
        for m in list(self.active):
            if self.multiple:
                level = r.level if r.how != "dropped" else SINGLE  # type: ignore[union-attr]
                points = scored(level, self.cubes[m].value,
                                self.rules.jacoby and self.cubes[m].owner is None)
            else:
                points = r.points  # type: ignore[union-attr]
            self._settle(m, points, r.winner == TEAM)  # type: ignore[union-attr]
        captain = self.captain
        line = list(self.line)
        line.remove(captain)
        beaten = captain
        if self.won.get(captain, 0) > 0:
            beaten = self.box
            line.remove(self.box)
            line = [captain] + line + [self.box]
        else:
            line.append(captain)
        self.beaten = beaten if beaten not in self.leavers else None
        self.line = [n for n in line + self.joiners if n not in self.leavers]
        self.joiners = []
        self.leavers = []
        self.partner = None
        self.partner_out = False
        self.settled = True
        self.games += 1
        return list(self.line)

    # --- snapshots -----------------------------------------------------------------------------

    def to_dict(self):
        d = self._dict()
        for k in ("leavers", "beaten"):  # only when there are some: snapshots stay short
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.partner_out:
            d["partner_out"] = 1
        if self.consult != "free" or self.partner_by != "rotation":
            d["options"] = [self.consult, self.partner_by]
        return d

    def _dict(self):
        return {
            "rules": self.rules.to_dict(),
            "multiple": int(self.multiple),
            "partner_from": self.partner_from or 0,
            "line": list(self.line),
            "joiners": list(self.joiners),
            "ledger": self.ledger.to_dict(),
            "game": self.game.to_dict() if self.game is not None else {},
            "settled": int(self.settled),
            "partner": self.partner or "",
            "captain": self.captain or "",
            "members": list(self.members),
            "active": list(self.active),
            "cubes": dict((m, c.to_list()) for m, c in self.cubes.items()),
            "offers": dict(self.offers),
            "answers": dict(self.answers),
            "won": dict(self.won),
            "captain_dropped": int(self.captain_dropped),
            "games": self.games,
        }

    @classmethod
    def from_dict(cls, data):
        c = cls(data["line"], Rules.from_dict(data["rules"]), bool(data["multiple"]),
                data["partner_from"] or None, *data.get("options", ()))
        c.beaten = data.get("beaten")
        c.joiners = list(data["joiners"])
        c.leavers = list(data.get("leavers", ()))
        c.ledger = Ledger.from_dict(data["ledger"])
        c.game = Game.from_dict(data["game"]) if data["game"] else None
        c.settled = bool(data["settled"])
        c.partner = data["partner"] or None
        c.partner_out = bool(data.get("partner_out", 0))
        c.captain = data["captain"] or None
        c.members = list(data["members"])
        c.active = list(data["active"])
        c.cubes = dict((m, Cube.from_list(v)) for m, v in data["cubes"].items())
        c.offers = dict(data["offers"])
        c.answers = dict(data["answers"])
        c.won = dict(data["won"])
        c.captain_dropped = bool(data["captain_dropped"])
        c.games = data["games"]
        return c


def _check_name(name, names):
    if not isinstance(name, str) or not name or name == "box":
        raise RuleError("players are named by non-empty strings (not 'box'), got %r" % (name,))
    if names.count(name) > 1:
        raise RuleError("two players are named %r" % name)


def finish(game, winner, level, how):
    """bgcore.game.Game.finish: the game ends by an outside decision (a chouette's: the
    team has all dropped)."""
    if winner is None or player_error(winner):
        raise RuleError("the winner is player 0 or 1, got %r" % (winner,))
    if not isinstance(level, int) or isinstance(level, bool) or \
            not SINGLE <= level <= BACKGAMMON:
        raise RuleError("a game is won single (1), gammon (2) or backgammon (3), got %r"
                        % (level,))
    if game.phase == OVER:
        raise RuleError("the game is over")
    points = scored(level, game.cube.value, game._single_gammons())
    game._end(Result(winner, level, points, how))
