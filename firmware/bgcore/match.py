"""A match to N points (Crawford, post-Crawford, Holland) or a money session (length 0,
cumulative score), played game after game."""

from bgcore.errors import RuleError
from bgcore.game import Game
from bgcore.rules import Rules

# The longest match a new match may be (the board's `new`, every bgboard command): GNU
# Backgammon plays, imports and analyses matches "of length 64 and below" (1.07, measured:
# `new match 65` and a .mat of 65 points are refused). Match itself takes up to 32767, what
# a Match ID holds, so a journal or an ID of a longer match still reads.
MAX_MATCH_LENGTH = 64


def check_new_length(length):
    """RuleError unless `length` is a new match's: 1 to MAX_MATCH_LENGTH points."""
    if not isinstance(length, int) or isinstance(length, bool) or \
            not 1 <= length <= MAX_MATCH_LENGTH:
        raise RuleError("a match is played to 1 to %d points, got %r"
                        % (MAX_MATCH_LENGTH, length))


class Match:
    """Games between player 0 and player 1. `length` 0 is a money session.

    `score` counts the current game once it is over; `next_game()` starts the next one. With
    a side already at N-1 in `score`, the first game is post-Crawford unless `crawford` says
    it is the Crawford game (as gnubg's `set score` does).
    """

    def __init__(self, length=0, rules=None, score=(0, 0), crawford=None):
        rules = rules if rules is not None else Rules()
        if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length < 1 << 15:
            raise RuleError("a match is played to 1 to 32767 points (0: money), got %r"
                            % (length,))
        if length:
            rules.check_match()
        s = _check_score(score)
        if length and max(s) >= length:
            raise RuleError("a score of %d is past the %d-point match: the match would be over"
                            % (max(s), length))
        self.length = length
        self.rules = rules
        self._score = s
        self.games = 0  # games finished before the current one
        at_n1 = length > 1 and rules.crawford and (length - 1) in s
        if crawford and not at_n1:
            if not rules.crawford:
                raise RuleError("the Crawford rule is off for this match")
            raise RuleError("Crawford rule: the Crawford game follows a side reaching %d, one "
                            "point short of the match" % (length - 1))
        self.post_crawford = bool(at_n1 and not crawford)
        self.game = self._new_game(bool(crawford))

    def _new_game(self, crawford):
        trailer = None
        a, b = self._score
        if self.length and self.rules.holland and self.post_crawford and a != b:
            trailer = 0 if a < b else 1
        needs = [self.length - a, self.length - b] if self.length else None
        return Game(self.rules, money=not self.length, crawford=crawford, trailer=trailer,
                    needs=needs)

    @property
    def money(self):
        return not self.length

    @property
    def score(self):
        """[player 0, player 1], the current game counted once it is over."""
        s = list(self._score)
        r = self.game.result
        if r is not None:
            s[r.winner] += r.points
        return s

    @property
    def winner(self):
        """The player who has won the match, or None (always None in a money session)."""
        if self.length:
            s = self.score
            for p in (0, 1):
                if s[p] >= self.length:
                    return p
        return None

    def is_over(self):
        return self.winner is not None

    def why_not_next_game(self):
        if not self.game.is_over():
            return "the game is not over: finish it before starting the next"
        if self.is_over():
            return "the match is over: player %d has reached %d points" % (self.winner,
                                                                           self.length)
        return None

    def next_game(self):
        """Score the finished game and start the next; returns the new Game."""
        reason = self.why_not_next_game()
        if reason:
            raise RuleError(reason)
        self._score = self.score
        self.games += 1
        crawford = False
        if self.game.crawford:
            self.post_crawford = True
        elif (self.length > 1 and self.rules.crawford and not self.post_crawford
              and self.length - 1 in self._score):
            crawford = True
        self.game = self._new_game(crawford)
        return self.game

    # --- Match ID ------------------------------------------------------------------------------

    def id_fields(self):
        """The gnubg Match ID fields of the match as it stands."""
        return self.game.id_fields(self.length, self.score)

    def match_id(self):
        from bgcore.matchid import encode  # loaded only when asked: it costs RAM

        return encode(self.id_fields())

    @classmethod
    def from_match_id(cls, match_id, position=None, rules=None):
        """A match resumed from a gnubg Match ID and the Position ID's Position (seen from the
        player on roll; default the starting position). Only a game not yet over can be
        resumed; rolls before are unknown, so the Holland rule counts as satisfied."""
        from bgcore.matchid import match_from_id  # the host's (it costs RAM)

        return match_from_id(cls, match_id, position, rules)

    # --- snapshots -----------------------------------------------------------------------------

    def to_dict(self):
        game = self.game.to_dict()
        del game["rules"]  # the match's
        return {
            "length": self.length,
            "rules": self.rules.to_dict(),
            "score": list(self._score),
            "games": self.games,
            "post_crawford": int(self.post_crawford),
            "game": game,
        }

    @classmethod
    def from_dict(cls, data):
        return Match(data["length"], Rules.from_dict(data["rules"]), data["score"],
                     False)._load(data)

    def _load(self, data):
        self.games = data["games"]
        self.post_crawford = bool(data["post_crawford"])
        game = dict(data["game"])
        game["rules"] = data["rules"]
        self.game = Game.from_dict(game)
        return self


def _check_score(score):
    try:
        a, b = score
    except (TypeError, ValueError):
        raise RuleError("a score is two numbers, [player 0, player 1], got %r" % (score,))
    for s in (a, b):
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 1 << 15:
            raise RuleError("a score is a whole number from 0 to 32767, got %r" % (s,))
    return [a, b]
