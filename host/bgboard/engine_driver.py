"""The engine's side of `bgboard engine` on a board: GNU Backgammon (bgboard.engine) plays one
side through the board's link; its coach (bgboard.engine_coach) and the analysis of the matches
it played (bgboard.engine_analysis) are parts of the same driver.

The host watches the board's state. On the engine's turn it asks gnubg whether to double
(then sends `double`) or throws (`roll`; with physical dice it asks the person to throw
for it and type them, enter_dice); when the engine has thrown, it asks for gnubg's
play and sends it to the board as a `guide` (docs/protocol.md): the board lights it one
checker at a time, the person moves the engine's checkers, and the board commits nothing
else. A double offered to the engine is taken, dropped or beavered as gnubg says, a beaver
of its double raccooned when gnubg would double, and the engine resigns where gnubg's own
player does (bgboard.engine: raccoon, resignation). The state is asked
again after every answer: a gnubg process that died is started again and asked the same
(bgboard.engine), and a board put back to its journal is guided again.
"""

import time

from bgboard.cli_common import say
from bgboard.engine import COACH_LEVEL, Context, EngineError, position_of, turn_of
from bgboard.engine_analysis import MatchAnalysis
from bgboard.engine_coach import Coach

# The engine's side asks the board's state when the board said something (an event, a
# checker moved, a refusal), and at least this often: `state` costs a Pico some milliseconds.
LOOK_S = 1.0
WAIT_S = 0.2  # ... or this often while the person's finished play stands (--wait)
ENGINE_RETRIES = 3  # a decision gnubg fails on this many times in a row ends the command


class EngineDriver(Coach, MatchAnalysis):
    """Plays `side` (0 white, 1 black) on the board behind `link` (bgboard.link.Link) with
    `engine`. step() once in a while; event(ev) for each committed event. grace: seconds the
    person's finished play must stand before the engine throws (a person may still take a
    checker back; the simulated hands need none). coach, hint_level, flash_blunders,
    on_coach: the coach's (bgboard.engine_coach); analysis_dir, names: the analysis's
    (bgboard.engine_analysis). physical_dice: the engine does not throw the board's dice;
    it asks for its throw, which the person types (enter_dice)."""

    def __init__(self, engine, side, link, say=say, grace=0.0, coach=False,
                 hint_level=COACH_LEVEL, flash_blunders=False, on_coach=None,
                 analysis_dir=None, names=None, physical_dice=False):
        self.engine = engine
        self.side = side
        self.link = link
        self.say = say
        self.grace = grace
        self.plays = 0  # the engine's plays committed as gnubg chose them
        self.mismatches = []  # ... committed otherwise
        self.doubles = self.takes = self.drops = 0
        self.beavers = self.raccoons = 0
        self.accepted = self.rejected = 0  # resignations offered to the engine
        self.resigned = 0  # resignations the engine offered
        self.engine_errors = 0  # gnubg's failures in a row
        self._offered = 0  # the level of the engine's resignation on offer
        self._declined = 0  # the highest the person rejected in this game
        self._init_coach(coach, hint_level, flash_blunders, on_coach)
        self._init_analysis(analysis_dir, names)
        self.start_match = None  # a match of this length to start first (--match)
        self._game = None  # bgboard.events.GameLog of the game being played (its position)
        self._st = None  # the last state seen
        self.guides = 0
        self._guided = None  # (start Position, dice, target Position) of the last guide
        self._next = 0.0  # when to look at the state again
        self._ready_since = None  # when the engine's throw became due (grace)
        self._ready_key = None
        # Physical dice: the engine's throws are typed by the person (enter_dice), asked for
        # once the engine has decided not to double (the turn's key when asked).
        self.physical_dice = physical_dice
        self._dice_asked = None
        shown = link.on_live

        def on_live(msg):
            if msg.get("live") in ("board", "refused", "autoplay"):
                self._next = 0.0  # something happened: look
            elif msg.get("live") == "hint":
                self._hint_wanted = True  # answered from step(): not inside the link's poll
            if shown is not None:
                shown(msg)

        link.on_live = on_live

    # --- the board's events -----------------------------------------------------------------

    def event(self, ev):
        self._next = 0.0
        if self.analysis_dir is not None:
            self._keep(ev)
        self._coach_event(ev)
        self._follow(ev)
        if ev["ev"] != "play" or ev["player"] != self.side or self._guided is None:
            return
        start, dice, target = self._guided
        self._guided = None
        if tuple(sorted(ev["dice"], reverse=True)) != tuple(sorted(dice, reverse=True)):
            return
        try:
            got = turn_of(start, dice, [(m[0], m[1]) for m in ev["moves"]]).position
        except ValueError:
            got = None
        if got == target:
            self.plays += 1
        else:
            self.mismatches.append((start.to_id(), list(dice), ev["moves"]))

    def _follow(self, ev):
        # The game's position from its events; the person's plays rated on the way.
        from bgboard.events import EventError, GameLog

        kind = ev["ev"]
        if kind == "game":
            self._game = GameLog(ev["number"], ev["score"], ev["crawford"], ev["seq"])
            self._offered = self._declined = 0
            return
        game = self._game
        if game is None or game.over:
            return
        if kind == "play" and ev["player"] != self.side and ev["moves"] \
                and self._st is not None and "match" in self._st:
            self._rate(game.position(ev["player"]), ev)
        try:
            game.apply(ev)
        except EventError:
            self._game = None  # not followed any more (a log's problem, not a player's)

    # --- acting -------------------------------------------------------------------------------

    def step(self):
        from bgboard.link import Refused

        if self.start_match:
            length, self.start_match = self.start_match, None
            try:
                self.link.command("new", kind="match", length=length)
            except Refused as e:
                self.say("new match %d: %s" % (length, e))
        self._coach_step()
        self._analysis_step()
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + LOOK_S
        try:
            self._act(self.link.command("state"), now)
        except Refused:
            self._next = now + WAIT_S  # the board moved on meanwhile, or the checkers are
            # not right yet: again soon
        except EngineError as e:
            # gnubg refused an answer (or died twice on it): nothing was sent to the board,
            # so the decision is asked again from the board's state, a few times.
            self.engine_errors += 1
            if self.engine_errors > ENGINE_RETRIES:
                raise
            self.say("gnubg: %s; asking again" % e)
            self._next = now + LOOK_S
        else:
            self.engine_errors = 0

    def _context(self, st, player):
        m = st["match"]
        g = st["game"]
        rules = st.get("settings", {}).get("rules", {})
        return Context(player=player, length=m["length"], score=m["score"],
                       crawford=m["crawford"], cube=g["cube"], owner=g["cube_owner"],
                       jacoby=rules.get("jacoby", False), beavers=rules.get("beavers", False))

    def _act(self, st, now):
        if st.get("phase") != "playing" or "game" not in st:
            return
        self._st = st
        self._played_here = True  # the match being played is followed live
        g = st["game"]
        allowed = g["allowed"]
        on_roll = g["player"]
        side = self.side
        if "take" in allowed:  # a double stands: the doubler is on roll
            if on_roll != side:
                advice = self.engine.cube(position_of(g["position_id"], on_roll),
                                          self._context(st, on_roll))
                if advice.beaver and "beaver" in allowed:  # gnubg's own: "No double, beaver"
                    self.beavers += 1
                    self.link.command("beaver")
                elif advice.take:
                    self.takes += 1
                    self.link.command("take")
                else:
                    self.drops += 1
                    self.link.command("drop")
            return
        if "accept_resignation" in allowed:  # a resignation stands: the resigner is on roll
            from bgcore.matchid import decode

            level = decode(g["match_id"])["resignation"]
            if on_roll != side:
                if self.engine.accepts(position_of(g["position_id"], on_roll), level,
                                       self._context(st, on_roll)):
                    self.accepted += 1
                    self.link.command("accept")
                else:
                    self.rejected += 1
                    self.link.command("reject")
            elif self._offered and level > self._offered:
                # The person demands more than the engine offered: it agrees when gnubg
                # would resign that much itself, else it plays on.
                agreed = self.engine.resignation(position_of(g["position_id"], side),
                                                 self._context(st, side)) >= level
                self._declined = max(self._declined, self._offered)
                self._offered = 0
                self.link.command("accept" if agreed else "reject")
            return
        if self._offered and on_roll == side:  # the engine's resignation was rejected: it
            self._declined = max(self._declined, self._offered)  # offers only more later
            self._offered = 0  # (gnubg's own rule: ms.fResignationDeclined)
        if on_roll != side:
            self._ready_since = self._ready_key = None  # the next throw waits afresh (two
            return  # rolls with no play in a row leave the position as it was)
        if g["dice"]:
            self._guide(st)
            return
        if "roll" not in allowed and "pass" not in allowed:  # pass: shut out, no throw
            return
        # The person's play as it now stands: the engine throws once it has stood `grace`.
        key = (g["position_id"], tuple(tuple(m) for m in g.get("moves", [])))
        if key != self._ready_key or self._ready_since is None:
            self._ready_key = key
            self._ready_since = now
        if now - self._ready_since < self.grace:
            self._next = min(self._next, now + WAIT_S)
            return
        if self.physical_dice and self._dice_asked == key:
            return  # it decided on the cube and asked for its dice: they are to come
        mine = position_of(g["position_id"], side)
        if "raccoon" in allowed and self.engine.raccoon(mine, self._context(st, side)):
            self.raccoons += 1  # the person beavered the engine's double
            self.link.command("raccoon")
            return
        if "resign" in allowed:
            level = self.engine.resignation(mine, self._context(st, side))
            if level > self._declined:
                self.resigned += 1
                self._offered = level
                self.link.command("resign", level=level)
                return
        if "double" in allowed:
            advice = self.engine.cube(mine, self._context(st, side))
            if advice.double:
                self.doubles += 1
                self.link.command("double")
                return
        if self.physical_dice and "pass" not in allowed:  # the person throws for it and
            # types the dice (enter_dice); a shut-out pass needs none
            if self._dice_asked != key:
                self._dice_asked = key
                self.say("gnubg's throw: throw the dice for it and enter them (e.g. 5 2)")
            return
        self.link.command("roll")

    def enter_dice(self, dice):
        """Physical dice typed by the person (high or low first): the throw of the player on
        roll, the opening throw ([white's die, black's die]) included; the board checks it.
        The engine's throw only once it asked for it: its cube comes first. The board's
        reply; Refused, or CoachError when it is not the dice's turn."""
        from bgboard.engine_coach import CoachError

        st = self.link.command("state")
        g = st.get("game")
        if st.get("phase") == "playing" and g is not None and g["player"] == self.side \
                and not g["dice"]:
            key = (g["position_id"], tuple(tuple(m) for m in g.get("moves", [])))
            if self._dice_asked != key:
                raise CoachError("gnubg is deciding on the cube: type its dice when it asks")
        reply = self.link.command("roll", dice=list(dice))
        self._dice_asked = None
        self._next = 0.0
        return reply

    def _guide(self, st):
        info = self.link.command("guide")
        if info.get("moves") is not None or info["player"] != self.side:
            return
        start = position_of(info["start"], 0)  # the ID is the mover's own
        dice = tuple(info["dice"])
        steps = self.engine.play(start, dice, self._context(st, self.side))
        try:
            target = turn_of(start, dice, steps).position  # gnubg's play, checked by bgcore
        except ValueError as e:
            raise EngineError("gnubg's play %s is not legal here: %s" % (steps, e)) from None
        self.link.command("guide", moves=" ".join("%d/%d" % s for s in steps),
                          start=info["start"])
        self.guides += 1
        self._guided = (start, dice, target)

    def summary(self):
        return ("engine: %d play(s) as gnubg chose them, %d otherwise; %d double(s), %d "
                "take(s), %d drop(s), %d beaver(s), %d raccoon(s); %d resignation(s) offered; "
                "%d resignation(s) accepted, %d rejected; gnubg restarted %d time(s)" % (
                    self.plays, len(self.mismatches), self.doubles, self.takes, self.drops,
                    self.beavers, self.raccoons, self.resigned, self.accepted, self.rejected,
                    self.engine.restarts))
