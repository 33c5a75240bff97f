"""A simulated person playing against an engine on the host (bgboard engine --sim --autoplay):
the person's side plays as sim.autoplay does (random plays, doubles, takes and drops); on
the engine's turns the host throws, doubles and answers the cube, and the person moves the
engine's checkers as the board guides them (board.guide: the engine's play, on the LEDs).
At wrong_pct of the engine's turns the person first makes another whole play: the board
must show it as wrong and refuse to go on; the person then takes it back, checker by
checker, and makes the guided play."""

from board.controller import OPENING, OVER, PASS_MS, PLAYING, SETUP
from board.tracker import STEADY
from bgwire import DOUBLE, DROP, ORIGIN, ROLL, TAKE, TARGET, WRONG, physical
from sim.autoplay import Autoplay
from sim.hands import random_play, scratch


class EngineAutoplay(Autoplay):
    def __init__(self, vb, engine, wrong_pct=0, **kw):
        Autoplay.__init__(self, vb, **kw)
        self.engine = engine  # the engine's side, 0 or 1
        self.wrong_pct = wrong_pct
        self.guided = 0  # engine plays made as guided
        self.lit = 0  # checkers of those plays whose origin and destination were lit first
        self.unlit = 0  # ... that were not
        self.wrong = 0  # wrong plays made on purpose
        self.wrong_shown = 0  # ... that the LEDs showed as wrong
        self.wrong_refused = 0  # ... that the board refused to commit
        self.waits = 0  # steps spent waiting for the host

    def idle(self):
        # Waiting for the host (the engine thinks): the board scans on; a serial board also
        # sleeps until a line arrives, instead of racing through simulated time.
        self.waits += 1
        link = getattr(self.vb, "link", None)
        if link is not None:
            link.wait(20)
        self.vb.wait(20)

    def step(self):
        board = self.vb.board
        if board.phase == SETUP or board.phase == OVER:
            self.set_up()
            return
        if board.phase == OPENING:
            self.press(ROLL)
            return
        if board.phase != PLAYING:
            return
        game = board.match.game
        engine = self.engine
        if game.cube.offered_by is not None:
            if game.decider == engine:
                self.idle()
            else:
                self.press(TAKE if self.chance(self.take_pct) else DROP)
            return
        if game.resignation is not None:
            Autoplay.step(self)
            return
        turn = game.turn
        if turn is not None and not turn.can_end():
            if game.player != engine:
                self.play_roll(game)
                return
            g = getattr(board, "guide", None)  # board.guide: set by the host's guide command
            if g is None or not g.current(game):
                self.idle()  # the engine's play has not come yet
                return
            if self.wrong_pct and self.chance(self.wrong_pct) and self.play_wrong(game, g):
                return
            self.play_guided(game, g)
            return
        if turn is not None and not turn.required:
            self.vb.wait(PASS_MS + 100)
            return
        if game.on_roll == engine:
            self.idle()  # the engine throws or doubles
            return
        if game.can("double") and self.chance(self.double_pct):
            self.press(DOUBLE)
            return
        self.press(ROLL)

    def play_guided(self, game, g):
        """Make the guide's play, a checker at a time, each once the LEDs show it (its origin
        and where it goes), as a person following them would."""
        turn = game.turn
        side = game.player
        self.guided += 1
        self.intended = (side, g.target)
        plan = scratch(turn)
        for move in g.moves:
            self.vb.wait(60)
            if self._lit(side, move[0].src, ORIGIN) and self._lit(side, move[-1].dst, TARGET):
                self.lit += 1
            else:
                self.unlit += 1
            self.vb.act(self.vb.hands.play(side, plan, [move]))
        self.vb.wait(200)
        board = self.vb.board
        try:
            board.settle()
        except ValueError:
            return
        if board.tracker is None:
            return  # the play ended the game
        if board.reading.state != STEADY or not turn.can_end() or turn.position != g.target:
            self.stuck += 1
            self.restore()

    def play_wrong(self, game, g):
        """Make a whole play other than the guide's (one that neither hits nor bears off, so
        that taking it back is a checker at a time), check that the LEDs say so and that the
        board will not go on, then take it back. False if the roll has no such play."""
        turn = game.turn
        side = game.player
        for _ in range(20):
            plan = random_play(scratch(turn), self.rng)
            if plan.position != g.target and not [s for s in plan.steps if s.hit or not s.dst]:
                break
        else:
            return False
        self.wrong += 1
        moves = plan.moves[len(turn.moves):]
        self.vb.act(self.vb.hands.play(side, scratch(turn), moves))
        self.vb.wait(400)
        board = self.vb.board
        rest, bad = g.left(turn)
        if bad is not None and self._lit(side, bad[-1].dst, WRONG):
            self.wrong_shown += 1
        board.on_buttons(ROLL)  # the person tries to go on
        if game.turn is turn and board.last_refusal.startswith("the play to make is"):
            self.wrong_refused += 1
        self.vb.wait(300)
        hands = self.vb.hands
        for m in reversed(turn.moves[:]):  # back, the last checker first
            self.vb.act(hands.carry(side, m[-1].dst, m[0].src))
        self.vb.wait(400)
        return True

    def _lit(self, side, point, rgb):
        # Is the place (side's own numbering: 25 its bar, 0 its tray) lit in that colour?
        r = self.vb.board.renderer
        if r is None:
            return False
        m = r.map
        if point == 25:
            index = m.bar[side][0]
        elif point == 0:
            index = m.tray[side][0]
        else:
            index = m.points[physical(side, point) - 1][0]
        return r.frame[3 * index:3 * index + 3] == r.colour(rgb)
