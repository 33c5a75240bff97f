"""Chouettes played on the firmware's own controller (board.controller, on CPython), for the
host's tests: the journal events are the board's, not a copy of its logic.

`play_chouette(rng, players, multiple, games)` sets up the checkers, throws, plays random
legal plays by hand (perfect sensing: tests/board's Eyes), doubles and answers at random
(every member on their own), resigns now and then, until `games` games have a result.
Returns (events numbered from seq 1 as a journal has them, the Controller at the end).
"""

import random

from bgcore import Rules, plays_with_steps
from board.controller import LAST_OFF_MS, OPENING, OVER, PASS_MS, PLAYING, SETUP
from board_support import Eyes
from chouette_support import Clock

from board.controller import Controller
from board import chouette_session


class Odds:
    def __init__(self, double=0.15, take=0.6, resign=0.01, accept=0.7, lineup=0.3):
        self.double = double
        self.take = take
        self.resign = resign
        self.accept = accept
        self.lineup = lineup  # between games; a tenth of it at each step of a game


def play_chouette(rng, players=("Ann", "Bob", "Cy", "Dee"), multiple=True, games=3,
                  rules=None, odds=None, max_steps=20000):
    if isinstance(rng, int):
        rng = random.Random(rng)
    odds = odds or Odds()
    events = []

    def emit(msg):
        if "ev" in msg:
            ev = dict(msg)
            ev["seq"] = len(events) + 1
            events.append(ev)

    board = Controller(Clock(), rng, None, None, emit)
    eyes = Eyes(board)
    chouette_session.new(board, list(players), rules or Rules(), multiple, None)
    p = _Players(board, eyes, rng, odds)
    for _ in range(max_steps):
        if sum(1 for e in events if e["ev"] == "result") >= games:
            return events, board
        p.step()
    raise AssertionError("the chouette did not finish %d games" % games)


class _Players:
    def __init__(self, board, eyes, rng, odds):
        self.board = board
        self.eyes = eyes
        self.rng = rng
        self.odds = odds
        self.joined = 0

    def chance(self, p):
        return self.rng.random() < p

    def dice(self):
        return (self.rng.randint(1, 6), self.rng.randint(1, 6))

    def step(self):
        board = self.board
        if board.phase in (SETUP, OVER):
            if self.chance(self.odds.lineup):  # between games: someone comes or goes
                self.lineup()
            self.eyes.start()
            return
        if board.phase == OPENING:
            board.roll(self.dice())
            return
        assert board.phase == PLAYING, board.phase
        game = board.match.game
        c = board.match.chouette
        due = c.pending()
        if due:  # answers to doubles, each on their own
            who = self.rng.choice(due)
            kind = "take" if self.chance(self.odds.take) else "drop"
            board.cube_action(kind, None if who == "box" else who.split(":")[-1])
            return
        if game.resignation is not None:
            board.answer_resignation(self.chance(self.odds.accept))
            return
        turn = game.turn
        if turn is not None and not turn.can_end():
            self.play(game)
            return
        if turn is not None and not turn.required:
            board.clock.advance(PASS_MS + 10)  # a roll with no play passes by itself
            board.tick()
            return
        if self.chance(self.odds.lineup / 10):  # someone arrives during a game
            self.lineup()
            return
        if self.chance(self.odds.resign) and game.can("resign", 1):
            board.resign(self.rng.choice([1, 1, 2, 3]))
            return
        if self.chance(self.odds.double):
            self.double(game, c)
            if board.phase != PLAYING or c.pending():
                return
        board.roll(self.dice())

    def lineup(self):
        """A newcomer joins, or a player who may leave now leaves."""
        c = self.board.match.chouette
        leavers = [n for n in c.players() if c.why_not_leave(n) is None]
        if leavers and self.chance(0.5):
            chouette_session.lineup(self.board, "leave", self.rng.choice(leavers))
        else:
            self.joined += 1
            chouette_session.lineup(self.board, "join", "New%d" % self.joined)

    def double(self, game, c):
        board = self.board
        if not c.multiple:
            if game.can("double"):
                board.cube_action("double")
            return
        if game.on_roll == 0 and self.chance(0.5):
            try:
                board.cube_action("double")  # the box doubles every cube it may
            except ValueError:
                pass
            return
        for m in list(c.active):
            if self.chance(0.5):
                try:
                    board.cube_action("double", m)
                except ValueError:
                    pass  # not this member's to double now

    def play(self, game):
        # A random legal play, one die at a time, as a hand moves the checkers.
        turn = game.turn
        side = game.player
        board = self.board
        eyes = self.eyes
        _, steps = self.rng.choice(plays_with_steps(turn.position, turn.dice))
        for s in steps:
            if s.dst == 0:
                eyes.lift(side, s.src)
                eyes.put(side, 0)  # into the tray
                board.settle()
            else:
                eyes.carry(side, s.src, s.dst)
                if s.hit:
                    eyes.carry(1 - side, 25 - s.dst, 25)
        if turn.position.mover[0] == 15 or board.last_off_at is not None:
            board.clock.advance(LAST_OFF_MS + 10)  # the last checker stays off
            board.tick()
        assert game.is_over() or turn.can_end(), (turn.moves, steps)
