"""A match over a fixed number of games, decided by the total (the match-play sheet: "the
winner of the match determined by a tally of total points (based on the number of games won
and lost) after the final game in an agreed-upon number of games"). Its own module, loaded
only for such a match: the board pays nothing for it otherwise."""

from bgcore.errors import RuleError
from bgcore.match import Match
from bgcore.rules import Rules


class GamesMatch(Match):
    """`limit` games, each scored as in match play (the cube times 1, 2 or 3; no Crawford:
    there is no target score), the higher total after the last game wins; equal totals are
    a drawn match (over, `winner` None). Money-only options are refused, as in match play."""

    def __init__(self, limit, rules=None, score=(0, 0)):
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 < limit < 256:
            raise RuleError("a match over a number of games has 1 to 255 games, got %r"
                            % (limit,))
        rules = rules if rules is not None else Rules()
        rules.check_match()
        Match.__init__(self, 0, rules, score)
        self.limit = limit

    def is_over(self):
        return self.games + self.game.is_over() >= self.limit

    @property
    def winner(self):
        """The player with the higher total once every game is played, else None (a drawn
        match, or not over)."""
        a, b = self.score
        if a == b or not self.is_over():
            return None
        return 0 if a > b else 1

    def why_not_next_game(self):
        if self.is_over():
            return "the match is over: its %d games are played" % self.limit
        return Match.why_not_next_game(self)

    def to_dict(self):
        d = Match.to_dict(self)
        d["limit"] = self.limit
        return d

    @classmethod
    def from_dict(cls, data):
        return cls(data["limit"], Rules.from_dict(data["rules"]), data["score"])._load(data)
