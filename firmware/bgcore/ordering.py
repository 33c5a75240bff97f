"""Ranking players by single-die throws, ties thrown again among the tied (the chouette's order:
highest is the box, next the captain, the rest rank behind)."""

from bgcore.errors import DiceError, RuleError


class Ordering:
    """Throw, throw again among ties, until every player has a rank.

    `pending()` names the players who throw next (one tied group at a time, the highest
    first); `throw({name: die})` records their dice. `ranking()` is the order, highest first.
    """

    def __init__(self, names):
        names = list(names)
        if len(names) < 2:
            raise RuleError("ranking needs two or more players")
        for n in names:
            if not isinstance(n, str) or not n:
                raise RuleError("players are named by non-empty strings, got %r" % (n,))
            if names.count(n) > 1:
                raise RuleError("two players are named %r" % n)
        self.groups = [names]  # in rank order; a group of two or more is still tied

    def pending(self):
        """Names that throw next (a tied group), or [] when the order is settled."""
        for g in self.groups:
            if len(g) > 1:
                return list(g)
        return []

    def done(self):
        return not self.pending()

    def throw(self, dice):
        """Record one die for each pending player; ties among them throw again."""
        group = self.pending()
        if not group:
            raise RuleError("the order is settled: nobody throws again")
        if not isinstance(dice, dict) or sorted(dice) != sorted(group):
            raise RuleError("the throw is one die for each of %s" % ", ".join(group))
        for name in group:
            d = dice[name]
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
                raise DiceError("a die shows 1 to 6, got %r for %s" % (d, name))
        parts = []
        for value in range(6, 0, -1):
            same = [n for n in group if dice[n] == value]
            if same:
                parts.append(same)
        i = self.groups.index(group)
        self.groups = self.groups[:i] + parts + self.groups[i + 1:]
        return self.pending()

    def throw_random(self, rng):
        """Throw for the pending players with a random source (randint(a, b))."""
        return self.throw(dict((n, rng.randint(1, 6)) for n in self.pending()))

    def ranking(self):
        if not self.done():
            raise RuleError("the order is not settled: %s throw again" % ", ".join(self.pending()))
        return [g[0] for g in self.groups]
