"""Who owes whom how much, settlement by settlement. Amounts are points; they are kept in half
points so that a box and its partner can share an odd result exactly."""

from bgcore.errors import RuleError


def points(halves):
    """Half points as points: an int when whole, else a float ending in .5."""
    return halves // 2 if halves % 2 == 0 else halves / 2


class Ledger:
    """Net debts between pairs of players, and each game's settlements."""

    def __init__(self, keep=50):
        self.pairs = {}  # (a, b) with a < b: half points a owes b (negative: b owes a)
        self.games = []  # per game: [[payer, payee, half points], ...], the last `keep` games
        self.keep = keep

    def open_game(self):
        self.games.append([])
        if len(self.games) > self.keep:
            self.games.pop(0)

    def pay(self, payer, payee, amount, halves=False):
        """Record that payer owes payee `amount` points (half points when `halves`)."""
        units = amount if halves else 2 * amount
        if payer == payee or units < 0:
            raise RuleError("a payment goes from one player to another, %r to %r of %r"
                            % (payer, payee, amount))
        if not units:
            return
        if not self.games:
            self.open_game()
        self.games[-1].append([payer, payee, units])
        if payer < payee:
            key, sign = (payer, payee), 1
        else:
            key, sign = (payee, payer), -1
        net = self.pairs.get(key, 0) + sign * units
        if net:
            self.pairs[key] = net
        elif key in self.pairs:
            del self.pairs[key]

    def owes(self, debtor, creditor):
        """Points `debtor` owes `creditor`, net (negative when it is the other way)."""
        if debtor < creditor:
            return points(self.pairs.get((debtor, creditor), 0))
        return points(-self.pairs.get((creditor, debtor), 0))

    def balance(self, name):
        """Points `name` is up overall (negative: down)."""
        total = 0
        for (a, b), units in self.pairs.items():
            if a == name:
                total -= units
            elif b == name:
                total += units
        return points(total)

    def debts(self):
        """[(debtor, creditor, points)] for every pair with a debt, sorted by names."""
        out = []
        for (a, b), units in sorted(self.pairs.items()):
            if units > 0:
                out.append((a, b, points(units)))
            else:
                out.append((b, a, points(-units)))
        return out

    def game(self, index=-1):
        """[(payer, payee, points)] settled in one game (default the latest)."""
        if not self.games:
            return []
        return [(p, q, points(u)) for p, q, u in self.games[index]]

    def to_dict(self):
        return {
            "keep": self.keep,
            "pairs": [[a, b, u] for (a, b), u in sorted(self.pairs.items())],
            "games": [[list(e) for e in g] for g in self.games],
        }

    @classmethod
    def from_dict(cls, data):
        ledger = cls(data["keep"])
        for a, b, u in data["pairs"]:
            ledger.pairs[(a, b)] = u
        ledger.games = [[list(e) for e in g] for g in data["games"]]
        return ledger
