"""Two simulated players at the emulated Pico. They read the board as a person reads it (its
`state`, its answers), press its buttons through the GPIO pins, and move the checkers with
the simulated hands (sim.hands): set up, throw, play random legal plays clumsily, double,
take and drop at random. Every play the board commits is checked against what the hands
did (sim/autoplay.py is the same for the virtual board, where the players may look inside
the firmware; here they cannot)."""

import json

from bgcore import Position, Turn

PASS_MS = 2000  # board.controller: a roll with no legal play passes after this long
TRIES = 4  # restores in a row with no play committed: the board and the hands disagree for good


class Stalled(RuntimeError):
    """The board kept seeing something other than what the hands did."""


class Players:
    def __init__(self, pico, seed=1, double_pct=8, take_pct=70):
        from sim.hands import choose_play, scratch  # the world's modules (bgboard.pico)
        from sim.rng import Rng

        self.pico = pico
        self.rng = Rng(seed * 31 + 5)
        self._choose = choose_play
        self._scratch = scratch
        self.double_pct = double_pct
        self.take_pct = take_pct
        self.turn_start = None  # (player, dice, Position) where the turn under way began
        self.intended = None  # (player, Position after the play the hands made)
        self.plays = 0  # plays committed and checked
        self.mismatches = []  # plays the board committed differently from the hands
        self.stuck = 0  # times the board did not agree with the hands after a play
        self.tries = 0  # restores since the last committed play
        self.games = 0
        self.steps = 0

    # --- what the board commits --------------------------------------------------------------

    def on_line(self, line):
        """A line from the board (PicoBoard.on_line): its events, as they are committed.
        Returns the event, or None."""
        if not (line.startswith(b"{") and b'"ev"' in line):
            return None
        try:
            msg = json.loads(line)
        except ValueError:
            return None
        self.on_event(msg)
        return msg

    def on_event(self, msg):
        ev = msg.get("ev")
        if ev == "result":
            self.games += 1
        if ev == "play":
            self.tries = 0
        if ev != "play" or self.intended is None or self.turn_start is None:
            return
        player, want = self.intended
        self.intended = None
        start_player, dice, start = self.turn_start
        if msg["player"] != player or start_player != player:
            return
        self.plays += 1
        got = Turn(start, dice)
        try:
            for src, dst, _hit in msg["moves"]:
                got.move(src, dst)
        except ValueError:
            self.mismatches.append((msg["moves"], want.to_id(), None))
            return
        if got.position != want:
            self.mismatches.append((msg["moves"], want.to_id(), got.position.to_id()))

    # --- playing -------------------------------------------------------------------------------

    def chance(self, pct):
        return self.rng.randint(1, 100) <= pct

    def state(self):
        return self.pico.command({"cmd": "state"})

    def step(self):
        """One thing a player does, as the board's state asks. False once no match is on."""
        self.steps += 1
        st = self.state()
        phase = st.get("phase")
        if phase == "idle":
            return False
        if phase in ("setup", "over"):
            self.set_position(Position.initial())
            self.pico.sleep(400)
            return True
        if phase == "opening":
            self.press("roll")
            return True
        game = st["game"]
        allowed = game["allowed"]
        if "take" in allowed:
            self.press("take" if self.chance(self.take_pct) else "drop")
        elif "accept_resignation" in allowed:
            self.pico.command({"cmd": "accept"})
        elif "move" in allowed:
            self.play_roll(game)
        elif game["dice"] and not game.get("moves") and not self._required(game):
            self.pico.sleep(PASS_MS + 100)  # no legal play: the board passes by itself
        elif "double" in allowed and self.chance(self.double_pct):
            self.press("double")
        elif "roll" in allowed:
            self.press("roll")
        else:
            self.pico.sleep(300)
        return True

    def press(self, name):
        self.pico.press(name)
        self.pico.sleep(self.rng.randint(150, 400))  # a quick player's reaction

    def set_position(self, white_view):
        """Put every checker where `white_view` (a Position from White's side) says."""
        with self.pico.lock:
            self.pico.table.set_position(white_view.mover, white_view.opponent)

    def play_roll(self, game):
        side = game["player"]
        dice = tuple(game["dice"])
        seen = _mover_view(game)
        done = game.get("moves") or []
        if not done or self.turn_start is None or self.turn_start[:2] != (side, dice):
            if done:  # a turn we did not see begin (a restart): start from what stands
                self.turn_start = None
                self.restore(game)
                return
            self.turn_start = (side, dice, seen)
        turn = Turn(self.turn_start[2], dice)
        for src, dst, _hit in done:
            turn.move(src, dst)
        if turn.position != seen:
            self.restore(game)
            return
        moves, after = self._choose(turn, self.rng)
        self.intended = (side, after)
        self.pico.act(self.pico.hands.play(side, self._scratch(turn), moves))
        self.pico.sleep(200)
        st = self.state()
        if _unfinished(st, side) and any(m[-1].dst == 0 for m in moves):
            # A checker held off the board counts as borne off when the opponent acts.
            self.press("roll")
            st = self.state()
        if st.get("phase") != "playing":
            return  # the play ended the game
        now = st.get("game") or {}
        white = after if side == 0 else after.swapped()
        if _unfinished(st, side) or Position.from_id(now["position_id"]) != white:
            self.stuck += 1
            self.restore(now)

    def restore(self, game):
        """Put the checkers where the board expects them (a person following the LEDs).
        Raises Stalled once that has not helped TRIES times in a row."""
        self.tries += 1
        if self.tries > TRIES:
            raise Stalled("the board and the hands disagree after %d restores: it expects "
                          "%s and reads %s" % (TRIES, game.get("position_id"),
                                               self.pico.command({"cmd": "dump"})["codes"]))
        if game.get("position_id"):
            self.set_position(Position.from_id(game["position_id"]))
        self.pico.sleep(400)

    def _required(self, game):
        return bool(Turn(_mover_view(game), tuple(game["dice"])).required)


def _unfinished(state, side):
    """The board still waits for `side` to play checkers."""
    game = state.get("game") or {}
    return game.get("player") == side and "move" in game.get("allowed", ())


def _mover_view(game):
    white = Position.from_id(game["position_id"])
    return white if game["player"] == 0 else white.swapped()
