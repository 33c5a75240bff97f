"""One game between player 0 and player 1: the opening roll, turns that alternate and may be
corrected until the opponent throws, the cube, resignations and the result.

The caller throws the dice and passes them in (roll_random takes a random source). Every
refused action raises RuleError (or DiceError/IllegalMoveError, all ValueErrors) naming the
rule, before anything changes.

What a game as the board plays it does not use is in modules loaded on first use (a Pico's
RAM holds their code once imported): resignations (bgcore.resign), beavers and raccoons
(bgcore.beavers), the opening rethrow (bgcore.rare), moving and taking back by command
(bgcore.moving), the host's state and snapshots (bgcore.gamedata)."""

from collections import namedtuple

from bgcore import offers
from bgcore.cube import BACKGAMMON, GAMMON, SINGLE, Cube, scored
from bgcore.errors import DiceError, RuleError
from bgcore.offers import OPENING, OVER, PLAYING
from bgcore.position import BAR, OFF, Position
from bgcore.rules import Rules
from bgcore.turn import Turn, check_dice


# how: "over" (all checkers borne off), "resigned" or "dropped" (a double refused).
Result = namedtuple("Result", ("winner", "level", "points", "how"))


def win_level(position):
    """SINGLE, GAMMON or BACKGAMMON for the mover of `position`, who has borne off all."""
    loser = position.opponent
    if loser[OFF]:
        return SINGLE
    if loser[BAR]:
        return BACKGAMMON
    for p in range(19, 25):  # the loser's 19..24 are the winner's home board
        if loser[p]:
            return BACKGAMMON
    return GAMMON


class Game:
    """A game. `money` enables the money-only options of `rules` (Jacoby, beavers, raccoons,
    automatic doubles); `crawford` forbids doubling; `trailer` (0 or 1) is the side the Holland
    rule restrains in a post-Crawford game; `needs` ([p0, p1], match play) are the points each
    side needs to win the match; `doubling` False keeps the cube out (a multiple-cube chouette
    keeps its own cubes); `position` starts the game elsewhere than the usual layout (seen
    from player 0).

    `player` is the player whose roll `turn` (a bgcore.Turn) is, or who rolls next when `turn`
    is None. A completed play stays in `turn`, and may be taken back, until the opponent
    throws, doubles or resigns: that accepts it.
    """

    def __init__(self, rules=None, money=True, crawford=False, trailer=None, doubling=True,
                 position=None, needs=None):
        self.rules = rules if rules is not None else Rules()
        self.money = bool(money)
        self.crawford = bool(crawford)
        self.trailer = trailer
        self.doubling = bool(doubling)
        self.needs = list(needs) if needs else None
        self.cube = Cube()
        self.phase = OPENING
        self.player = 0
        self.turn = None
        # The checkers at the start of `player`'s roll, `player` moving.
        self.start = position if position is not None else Position.initial()
        self.rolls = [0, 0]  # rolls each side has thrown (the opening throw counts)
        self.automatic = 0  # automatic doubles made in the opening
        self.opening = None  # (die of player 0, die of player 1) of the deciding throw
        self.rethrow_open = False
        self.resignation = None  # (player, level) on offer; (player, level, 1): demanded
        self.result = None  # a Result once the game is over

    # --- state ---------------------------------------------------------------------------------

    def _complete(self):
        return self.turn is not None and self.turn.can_end()

    def play_complete(self):
        """True when the roll has been played in full and waits for the opponent to act."""
        return self._complete()

    @property
    def on_roll(self):
        """The player rolling or playing now, or the next to roll once a play is complete."""
        if self._complete():
            return 1 - self.player
        return self.player

    @property
    def decider(self):
        """Whose decision the game waits for (gnubg's "turn"): the doubled or resigned-to
        player while an offer stands, otherwise the player on roll."""
        if self.cube.offered_by is not None:
            return 1 - self.cube.offered_by
        if self.resignation is not None:
            return 1 - self.resignation[0]
        r = self.result
        if r is not None:
            return r.winner if r.how == "resigned" else 1 - r.winner
        return self.on_roll

    @property
    def position(self):
        """The checkers as they stand, seen from the player on roll."""
        if self.turn is None:
            return self.start
        if self._complete():
            return self.turn.position.swapped()
        return self.turn.position

    @property
    def dice(self):
        """The dice the player on roll is playing, () before the roll."""
        if self.turn is None or self._complete():
            return ()
        return self.turn.dice

    @property
    def game_state(self):
        """none (before the opening throw), playing, over, resigned or dropped."""
        if self.phase == OPENING:
            return "none"
        if self.phase == PLAYING:
            return "playing"
        return self.result.how  # type: ignore[union-attr]

    def jacoby(self):
        """The Jacoby rule is in force (money play with the rule; the Match ID's field)."""
        return self.money and self.rules.jacoby

    def _single_gammons(self):
        # Jacoby holds while the cube is centred: no double was offered and taken (a
        # dropped one ends the game single anyway; an automatic double offers none).
        return self.jacoby() and self.cube.owner is None

    def allowed(self):
        """Names of the actions allowed now (the host's state: bgcore.gamedata)."""
        from bgcore import gamedata

        return gamedata.allowed(self)

    def can(self, action, *args):
        """Would `action` ("roll", "double", "resign"...: bgcore.gamedata.ACTIONS) be allowed
        now, with these arguments: why_not_<action>(*args) is None (it gives the reason
        when not)."""
        return getattr(self, "why_not_" + action)(*args) is None

    # --- throwing ------------------------------------------------------------------------------

    def why_not_roll(self, player=None):
        reason = self._throw_error(player)
        if not reason and self.rules.shut_out_pass:
            from bgcore import rare  # the shut-out pass (bgcore.rare.pass_turn)

            if rare.shut_out(self):
                return "shut out: the turn passes unthrown (rule option shut_out_pass)"
        return reason

    def why_not_pass(self, player=None):
        """Why the player on roll may not pass without a throw (the action "pass", rule
        option shut_out_pass: bgcore.rare.pass_turn), or None."""
        from bgcore import rare

        return rare.why_not_pass_turn(self, player)

    def _throw_error(self, player):
        if offers.player_error(player):
            return offers.player_error(player)
        if self.phase == OVER:
            return "the game is over"
        if self.phase == OPENING:
            return None
        if self.cube.offered_by is not None:
            return "a double is on offer: it must be taken or dropped before the next throw"
        if self.resignation is not None:
            return "a resignation is on offer: accept or reject it before the next throw"
        if self.turn is not None and not self.turn.can_end():
            return "player %d has not finished the play (%s still to play)" % (
                self.player, "-".join(str(d) for d in self.turn.remaining))
        if player is not None and player != self.on_roll:
            return "players throw in turn: player %d is on roll" % self.on_roll
        return None

    def roll(self, dice, player=None):
        """Throw the dice. In the opening, `dice` is (player 0's die, player 1's die): ties are
        thrown again (returns None), else the higher die plays both numbers. Later, the
        two dice of the player on roll; this accepts the opponent's play. Returns the Turn."""
        self._refuse(self.why_not_roll(player))
        if self.phase == OPENING:
            return self._opening(dice)
        dice = check_dice(dice)
        self._accept()
        self.cube.beaver_by = self.cube.taken_by = None  # beavers and raccoons come first
        self.turn = Turn(self.start, dice)
        self.rolls[self.player] += 1
        return self.turn

    def roll_random(self, rng, player=None):
        """Throw with a random source (anything with randint(a, b), e.g. the random module)."""
        return self.roll((rng.randint(1, 6), rng.randint(1, 6)), player)

    def _opening(self, dice):
        d0, d1 = _two_dice(dice)
        if d0 == d1:
            if self._automatic_double_allowed():
                self.cube.value *= 2
                self.automatic += 1
            return None
        self.player = 0 if d0 > d1 else 1
        if self.player:
            self.start = self.start.swapped()
        self.opening = (d0, d1)
        self.phase = PLAYING
        self.turn = Turn(self.start, (d0, d1))
        self.rolls[self.player] += 1
        self.rethrow_open = self.rules.opening_rethrow
        return self.turn

    def tie_doubles(self):
        """True when an opening tie thrown now would turn the cube (automatic doubles)."""
        return self.phase == OPENING and self._automatic_double_allowed()

    def _automatic_double_allowed(self):
        return (self.money and self.doubling and self.automatic < self.rules.automatic_doubles
                and self.rules.cap_allows(self.cube.value * 2))

    def why_not_rethrow(self, player=None):
        from bgcore import rare  # an old rule option, seldom on

        return rare.why_not_rethrow(self, player)

    def rethrow(self, dice, player=None):
        """Old rule: the first player throws both dice again instead of playing the opening
        numbers."""
        self._refuse(self.why_not_rethrow(player))
        self.turn = Turn(self.start, check_dice(dice))
        self.rethrow_open = False
        return self.turn

    # --- checker play ----------------------------------------------------------------------------

    def why_not_move(self, player=None):
        from bgcore import moving  # the board's tracker plays through the Turn itself

        return moving.why_not_move(self, player)

    def move(self, src, dst, hits=None, player=None):
        """Move a checker of the player on roll (see Turn.move); returns its Steps. Bearing off
        the last checker ends the game."""
        self._refuse(self.why_not_move(player))
        route = self.turn.move(src, dst, hits)  # type: ignore[union-attr]
        self._check_borne_off()
        return route

    def why_not_undo(self, player=None):
        from bgcore import moving  # a take-back by command

        return moving.why_not_undo(self, player)

    def undo(self, player=None):
        """Take back the last checker moved this turn (allowed until the opponent throws)."""
        self._refuse(self.why_not_undo(player))
        return self.turn.undo()  # type: ignore[union-attr]

    def check_end(self):
        """End the game if the player on roll has borne off all 15 (for a caller that moves
        checkers through `turn` itself; move() does this)."""
        self._check_borne_off()

    def _check_borne_off(self):
        turn = self.turn
        if turn is not None and self.phase == PLAYING:
            position = turn.position
            if position.mover[OFF] == 15:
                level = win_level(position)
                points = scored(level, self.cube.value, self._single_gammons())
                self._end(Result(self.player, level, points, "over"))

    def _accept(self):
        # The player on roll acts: the opponent's completed play stands.
        if self._complete():
            self.start = self.turn.position.swapped()  # type: ignore[union-attr]
            self.player = 1 - self.player
            self.turn = None
            self.rethrow_open = False

    def accept_play(self):
        """Accept a completed play now (the opponent acts on it)."""
        self._accept()

    # --- the cube --------------------------------------------------------------------------------

    def timing_error(self, player=None):
        return offers.timing_error(self, player)

    def why_not_double(self, player=None):
        return offers.why_not_double(self, player)

    def double(self, player=None):
        """The player on roll, before rolling, offers to double."""
        self._refuse(self.why_not_double(player))
        self._accept()
        self.cube.offer(self.player)

    def why_not_take(self, player=None):
        return offers.why_not_take(self, player)

    def take(self, player=None):
        """Accept the double: the cube doubles and the taker owns it."""
        self._refuse(self.why_not_take(player))
        self.cube.take()

    def why_not_drop(self, player=None):
        return self.why_not_take(player)

    def drop(self, player=None):
        """Refuse the double: the doubler wins the cube's value before the double."""
        self._refuse(self.why_not_drop(player))
        doubler = self.cube.offered_by
        points = self.cube.drop()
        self._end(Result(doubler, SINGLE, points, "dropped"))

    def why_not_beaver(self, player=None):
        from bgcore import beavers  # money play's options

        return beavers.why_not_beaver(self, player)

    def beaver(self, player=None):
        """Take and at once redouble, keeping the cube (money play, rule option beavers):
        instead of take(), or after it until the doubler throws."""
        self._refuse(self.why_not_beaver(player))
        from bgcore import beavers

        beavers.beaver(self.cube, self.rules.raccoons)

    def why_not_raccoon(self, player=None):
        from bgcore import beavers

        return beavers.why_not_raccoon(self, player)

    def raccoon(self, player=None):
        """The doubler answers a beaver by redoubling at once (rule option raccoons)."""
        self._refuse(self.why_not_raccoon(player))
        from bgcore import beavers

        beavers.raccoon(self.cube)

    # --- resignation -----------------------------------------------------------------------------

    def why_not_resign(self, level=SINGLE, player=None):
        from bgcore import resign  # loaded when a resignation is offered or asked about

        return resign.why_not_resign(self, level, player)

    def resign(self, level=SINGLE, player=None):
        """Offer to resign a single (1), gammon (2) or backgammon (3); player None: the
        player on roll. The opponent accepts or rejects."""
        self._refuse(self.why_not_resign(level, player))
        resigner = self.on_roll if player is None else player
        if resigner == self.on_roll:
            self._accept()
        self.resignation = (resigner, level)
        self.cube.taken_by = None  # the doubler acted: too late to beaver

    def why_not_accept_resignation(self, player=None):
        from bgcore import resign

        return resign.why_not_accept_resignation(self, player)

    def accept_resignation(self, player=None):
        """The game ends at the offered level times the cube."""
        self._refuse(self.why_not_accept_resignation(player))
        resigner, level = self.resignation[:2]  # type: ignore[index]
        points = scored(level, self.cube.value, self._single_gammons())
        self._end(Result(1 - resigner, level, points, "resigned"))

    def why_not_reject_resignation(self, player=None):
        return self.why_not_accept_resignation(player)

    def reject_resignation(self, player=None):
        """Play goes on (a demand refused by the resigner too)."""
        self._refuse(self.why_not_reject_resignation(player))
        self.resignation = None

    def why_not_demand(self, level=None, player=None):
        if self.resignation is None:
            return "no resignation is on offer"
        from bgcore import resign

        return resign.why_not_demand(self, level, player)

    def demand(self, level, player=None):
        """The opponent of a resigner requires a higher forfeit (a gammon for a single); the
        resigner then accepts (agrees: the game ends so) or rejects (plays on)."""
        self._refuse(self.why_not_demand(level, player))
        self.resignation = (self.resignation[0], level, 1)  # type: ignore[index]

    # --- the end -------------------------------------------------------------------------------

    def finish(self, winner, level=SINGLE, how="dropped"):
        """End the game by an outside decision (a chouette whose team has all dropped);
        scores `level` times the cube."""
        from bgcore.chouette import finish  # a chouette's

        finish(self, winner, level, how)

    def _end(self, result):
        self.result = result
        self.phase = OVER
        self.resignation = None
        self.cube.offered_by = self.cube.beaver_by = self.cube.taken_by = None
        self.rethrow_open = False

    def is_over(self):
        return self.phase == OVER

    def _refuse(self, reason):
        if reason:
            raise RuleError(reason)

    # --- Match ID fields and snapshots -----------------------------------------------------------

    # (bgcore.gamedata: loaded when first asked, by the host or for a journal's snapshot)

    def id_fields(self, length=0, score=(0, 0)):
        """The gnubg Match ID fields of this game (see bgcore.matchid)."""
        from bgcore import gamedata

        return gamedata.id_fields(self, length, score)

    def to_dict(self):
        """Plain data (ints, strings, lists) from which from_dict rebuilds this game."""
        from bgcore import gamedata

        return gamedata.to_dict(self)

    @classmethod
    def from_dict(cls, data):
        from bgcore import gamedata

        return gamedata.from_dict(cls, data)


def _two_dice(dice):
    try:
        a, b = dice
    except (TypeError, ValueError):
        raise DiceError("the opening throw is two dice, one for each player, got %r" % (dice,))
    for d in (a, b):
        if not isinstance(d, int) or isinstance(d, bool) or d < 1 or d > 6:
            raise DiceError("a die shows 1 to 6, got %r" % (d,))
    return a, b
