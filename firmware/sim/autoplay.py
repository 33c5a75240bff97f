"""Two simulated players at a virtual board: they set up, throw, play random legal plays by
hand (clumsily at times), double, take and drop at random. Every play the board commits is
checked against what the hands did. (Power cuts thrown in: sim.power_cuts.)"""

from bgcore import Position
from board.controller import IDLE, OPENING, OVER, PASS_MS, PLAYING, SETUP
from board.tracker import STEADY
from bgwire import DOUBLE, DROP, ROLL, TAKE
from sim.hands import choose_play, scratch
from sim.rng import Rng


class Autoplay:
    """Plays on `vb` (sim.virtual_board.VirtualBoard). Percentages: double_pct of the turns
    where a double is allowed, take_pct of doubles taken."""

    def __init__(self, vb, seed=1, double_pct=8, take_pct=70):
        self.vb = vb
        self.rng = Rng(seed * 31 + 5)
        self.double_pct = double_pct
        self.take_pct = take_pct
        self.intended = None  # (player, Position after the play the hands made)
        self.plays = 0  # plays committed and checked
        self.mismatches = []  # plays the board committed differently from the hands
        self.stuck = 0  # times the board did not agree with the hands after a play
        self.games = 0
        self.setups_refused = 0  # set-ups the board did not see as the starting position
        vb.emit = self.on_message  # the board's messages reach it through vb

    # --- watching what the board commits ---------------------------------------------------------

    def on_message(self, msg):
        ev = msg.get("ev")
        if ev is None:
            return
        if ev == "play" and self.intended is not None:
            player, want = self.intended
            self.intended = None
            if msg["player"] == player:
                self.plays += 1
                got = self._played(msg)
                if got != want:
                    self.mismatches.append((msg["moves"], want.to_id(), got.to_id()))
        if ev == "result":
            self.games += 1

    def _played(self, msg):
        # The position the board's play leads to: its game has applied it already.
        game = self.vb.board.match.game
        if game.is_over():
            return game.turn.position  # type: ignore[union-attr]
        return game.position.swapped()

    # --- playing ---------------------------------------------------------------------------------

    def chance(self, pct):
        return self.rng.randint(1, 100) <= pct

    def play_match(self, length, rules=None, max_steps=100000):
        """Play a whole match (length 0: one money game... see play_games)."""
        self.vb.board.new_match(length, rules)
        steps = 0
        while self.vb.board.phase != IDLE and steps < max_steps:
            self.step()
            steps += 1
        return self.vb.board.phase == IDLE

    def play_games(self, games, rules=None, max_steps=100000):
        """A money session of `games` games."""
        self.vb.board.new_match(0, rules)
        steps = 0
        while self.games < games and steps < max_steps:
            self.step()
            steps += 1
        return self.games >= games

    def step(self):
        """One thing a player does, as the board's state asks."""
        board = self.vb.board
        if board.phase in (SETUP, OVER):
            self.set_up()
            return
        if board.phase == OPENING:
            self.press(ROLL)
            return
        if board.phase != PLAYING:
            return
        game = board.match.game
        if game.cube.offered_by is not None:
            self.press(TAKE if self.chance(self.take_pct) else DROP)
            return
        if game.resignation is not None:
            try:
                board.answer_resignation(True)
            except ValueError:
                pass  # refused (a write failed): the next step answers again
            return
        turn = game.turn
        if turn is not None and not turn.can_end():
            self.play_roll(game)
            return
        if turn is not None and not turn.required:
            self.vb.wait(PASS_MS + 100)  # a roll with no play passes by itself
            return
        if game.can("double") and self.chance(self.double_pct):
            self.press(DOUBLE)
            return
        self.press(ROLL)

    def press(self, buttons):
        self.vb.board.on_buttons(buttons)
        self.vb.wait(self.rng.randint(200, 600))

    def set_up(self):
        # The players sweep the checkers into the starting position.
        p = Position.initial()
        self.vb.table.set_position(p.mover, p.opponent)
        self.vb.wait(400)
        if self.vb.board.phase in (SETUP, OVER):
            self.setups_refused += 1

    def play_roll(self, game):
        turn = game.turn
        side = game.player
        moves, after = choose_play(turn, self.rng)
        self.intended = (side, after)
        if not self.act(self.vb.hands.play(side, scratch(turn), moves)):
            return
        self.vb.wait(200)
        board = self.vb.board
        try:
            board.settle()  # what the opponent's next action does first
        except ValueError:
            return  # refused (a write failed): shown, and the next step tries again
        if board.tracker is None:
            return  # the play ended the game
        if board.reading.state != STEADY or not turn.can_end() or turn.position != after:
            self.stuck += 1
            self.restore()

    def act(self, actions):
        """Carry out the hands' actions (False: they were cut short, sim.power_cuts)."""
        self.vb.act(actions)
        return True

    def restore(self):
        """Put the checkers where the board expects them (a person following the LEDs)."""
        board = self.vb.board
        expected = board.expected()
        if expected is None:
            return
        side, position = expected
        if board.tracker is not None:  # from its mover's side (see Controller.restoring)
            side, position = board.tracker.mover, board.tracker.turn.position
        white, black = ((position.mover, position.opponent) if side == 0
                        else (position.opponent, position.mover))
        self.vb.table.set_position(white, black)
        self.vb.wait(400)
