"""Random matches and money sessions played with bgcore, as the board journals them.

`play_match(rng, length, ...)` returns the event list docs/protocol.md describes, seq 1, 2,
...: `match`, then per game `game`, `opening` throws (ties thrown again; with automatic
doubles a `cube` field), `roll`s, `play`s (moves in the mover's numbering, one entry per
die, hits marked; empty when nothing can be played; a play is journaled when the opponent
throws, doubles or resigns, or the game ends), cube actions (`double`, `take`, `drop`,
`beaver`, `raccoon`), resignations (`resign`, `demand`, `accept`/`reject`), `result` and
`match_over`. Cube and resignation decisions are random, with the odds given.
"""

import random

from bgcore import Match, Rules


class Odds:
    """Chances (0..1) of each random decision."""

    def __init__(self, double=0.12, take=0.7, beaver=0.3, raccoon=0.4, resign=0.015,
                 resign_after_roll=0.01, accept=0.6, irregular=0.0, demand=0.0):
        self.double = double
        self.take = take
        self.beaver = beaver
        self.raccoon = raccoon
        self.resign = resign
        self.resign_after_roll = resign_after_roll
        self.accept = accept
        self.irregular = irregular  # cocked dice thrown again; a play voided (Lowe 9-10)
        self.demand = demand  # the acceptor requires a higher forfeit (0: no draw is made)


def rules_dict(rules):
    """The rules as the `match` event carries them (the options of `new`)."""
    d = rules.to_dict()
    out = {}
    for k, v in d.items():
        if k in ("jacoby", "beavers", "raccoons", "crawford", "holland", "opening_rethrow",
                 "dead_cube", "shut_out_pass"):
            out[k] = bool(v)
        else:
            out[k] = v
    out["cube_cap"] = rules.cube_cap
    return out


class Journal:
    def __init__(self, first_seq=1):
        self.events = []
        self.seq = first_seq - 1

    def emit(self, name, **fields):
        self.seq += 1
        ev = {"ev": name, "seq": self.seq}
        ev.update(fields)
        self.events.append(ev)
        return ev


class Player:
    """Plays one match or session, emitting events."""

    def __init__(self, rng, match, journal, odds):
        self.rng = rng
        self.match = match
        self.j = journal
        self.odds = odds
        self.pending = None  # the completed play not yet journaled

    def chance(self, p):
        return self.rng.random() < p

    def flush(self):
        if self.pending is not None:
            self.j.emit("play", **self.pending)
            self.pending = None

    def result(self):
        g = self.match.game
        r = g.result
        self.flush()
        self.j.emit("result", winner=r.winner, points=r.points, level=r.level,
                    how={"over": "played"}.get(r.how, r.how), score=self.match.score)

    def maybe_resign(self, player, after_roll=False):
        g = self.match.game
        p = self.odds.resign_after_roll if after_roll else self.odds.resign
        if not self.chance(p):
            return False
        level = self.rng.choice([1, 1, 1, 2, 2, 3])
        if not g.can("resign", level, player):
            return False
        self.flush()
        g.resign(level, player)
        self.j.emit("resign", player=player, level=level)
        other = 1 - player
        answers = other
        if self.odds.demand and level < 3 and self.chance(self.odds.demand):
            demanded = self.rng.randint(level + 1, 3)
            g.demand(demanded, other)  # the resigner now agrees or plays on
            self.j.emit("demand", player=other, level=demanded)
            answers = player
        if self.chance(self.odds.accept):
            g.accept_resignation(answers)
            self.j.emit("accept", player=answers)
            self.result()
            return True
        g.reject_resignation(answers)
        self.j.emit("reject", player=answers)
        return False

    def maybe_double(self, player):
        g = self.match.game
        if not g.can("double", player) or not self.chance(self.odds.double):
            return False
        self.flush()
        g.double(player)
        self.j.emit("double", player=player, cube=g.cube.value * 2)
        taker = 1 - player
        if g.can("beaver", taker) and self.chance(self.odds.beaver):
            if self.chance(0.5):  # Take pressed first, then the beaver at once
                g.take(taker)
                self.j.emit("take", player=taker)
            g.beaver(taker)
            self.j.emit("beaver", player=taker, cube=g.cube.value)
            if g.can("raccoon", player) and self.chance(self.odds.raccoon):
                g.raccoon(player)
                self.j.emit("raccoon", player=player, cube=g.cube.value)
            return False
        if self.chance(self.odds.take):
            g.take(taker)
            self.j.emit("take", player=taker)
            return False
        g.drop(taker)
        self.j.emit("drop", player=taker)
        self.result()
        return True

    def play_roll(self):
        """Play the roll in game.turn at random; leaves it pending (or ends the game)."""
        g = self.match.game
        turn = g.turn
        player = g.player
        moves = []
        while not turn.can_end():
            # as a hand plays it: lift a checker that may move, put it where it may go
            # (a chain of dice at times), one event entry per die
            sources = [p for p in range(25, 0, -1) if turn.destinations(p)]
            src = self.rng.choice(sources)
            dst = self.rng.choice(turn.destinations(src))
            route = self.rng.choice(turn.paths(src, dst))
            hits = [s.dst for s in route[:-1] if s.hit]
            for step in g.move(src, dst, hits):
                moves.append([step.src, step.dst, bool(step.hit)])
        self.pending = {"player": player, "dice": list(turn.dice), "moves": moves}
        if g.is_over():
            self.result()
            return True
        return False

    def opening(self):
        g = self.match.game
        while True:
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            before = g.cube.value
            g.roll(dice)
            fields = {"dice": list(dice)}
            if g.cube.value != before:
                fields["cube"] = g.cube.value
            self.j.emit("opening", **fields)
            if dice[0] != dice[1]:
                return

    def game(self):
        m = self.match
        g = m.game
        self.j.emit("game", number=m.games + 1, score=m.score, crawford=g.crawford)
        self.opening()
        if self.maybe_resign(g.player, after_roll=True):
            return
        if self.play_roll():
            return
        while True:
            player = g.on_roll
            if self.maybe_double(player):
                return
            if self.maybe_resign(player):
                return
            self.flush()
            if g.rules.shut_out_pass:  # shut out, with the rule option: no throw
                from bgcore import rare
                if rare.why_not_pass_turn(g, player) is None:
                    rare.pass_turn(g, player)
                    self.j.emit("pass", player=player)
                    continue
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            g.roll(dice, player)
            self.j.emit("roll", player=player, dice=list(dice))
            if self.odds.irregular and self.chance(self.odds.irregular):
                from bgcore import irregular  # the dice were cocked: thrown again
                dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
                irregular.rethrow(g, dice, player)
                self.j.emit("rethrow", player=player, dice=list(dice))
            if g.turn.required and self.maybe_resign(player, after_roll=True):
                return
            if self.play_roll():
                return
            if self.odds.irregular and self.chance(self.odds.irregular):
                from bgcore import irregular  # the dice picked up early: the opponent voids
                irregular.void(g, 1 - player)
                self.pending = None
                self.j.emit("void", player=1 - player)


def play_match(rng, length=0, rules=None, games=None, odds=None, first_seq=1, score=None,
               limit=None):
    """Events of a random match to `length` points (0: a money session of `games` games,
    default 1 to 4; `limit`: a bgcore GamesMatch over that many games, decided by the
    total). Returns (events, bgcore Match at the end)."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    rules = rules if rules is not None else Rules()
    odds = odds or Odds()
    kwargs = {}
    if score is not None:
        kwargs["score"] = score
    if limit:
        from bgcore import GamesMatch

        match = GamesMatch(limit, rules, **kwargs)
    else:
        match = Match(length, rules, **kwargs)
    j = Journal(first_seq)
    extra = {"games": limit} if limit else {}
    j.emit("match", length=length, rules=rules_dict(rules), **extra)
    p = Player(rng, match, j, odds)
    if not length and games is None:
        games = limit or rng.randint(1, 4)
    played = 0
    while True:
        p.game()
        played += 1
        if match.is_over():
            j.emit("match_over", winner=match.winner, score=match.score)
            break
        if not length and played >= games:
            break
        match.next_game()
    return j.events, match


def journal_of(*runs):
    """Concatenate several event lists into one journal, renumbering seqs from 1."""
    out = []
    seq = 0
    for events in runs:
        for ev in events:
            seq += 1
            e = dict(ev)
            e["seq"] = seq
            out.append(e)
    return out
