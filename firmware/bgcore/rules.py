"""The optional rules players agree on before a game, match, session or chouette."""

from bgcore.errors import RuleError

# Names in the order of to_dict(); each with its default.
_FIELDS = (
    ("jacoby", False),  # money: gammons count single unless the cube was turned
    ("beavers", False),  # money: the taker may redouble at once and keep the cube
    ("raccoons", False),  # money: after a beaver the doubler may redouble at once (needs beavers)
    ("automatic_doubles", 0),  # money: opening ties turn the cube, at most this many times
    ("cube_cap", None),  # highest cube value allowed; None: no limit
    ("crawford", True),  # match: no doubling in the game after a side first reaches N-1
    ("holland", False),  # match: post-Crawford, the trailer doubles only after two rolls each
    ("opening_rethrow", False),  # old rule: the first player may throw both dice again
    ("dead_cube", False),  # match: no double once a win on the cube wins the match (gnubg's CLI)
    ("shut_out_pass", False),  # a player on the bar against a closed board passes, unrolled
)

_LEAN = ("dead_cube", "shut_out_pass")  # to_dict names these only when they are on

# The one cap on the cube, in money play and matches alike, with or without cube_cap ("There
# is no limit to the number of times a double may be offered in one game": a file must still
# load into GNU Backgammon). Measured with gnubg 1.07 importing .mat files bgboard wrote
# (doubles taken up to each power of two): in a match a cube of 128 imports and 256 crashes
# it (segmentation fault); a money session imports up to 4096, and 8192 is scored as 4096.
MAX_CUBE = 128


def is_power_of_two(n):
    return isinstance(n, int) and not isinstance(n, bool) and n > 0 and n & (n - 1) == 0


def _flag(name, value):
    if value not in (True, False):
        raise RuleError("rule option %s is on or off (True/False), got %r" % (name, value))
    return bool(value)


class Rules:
    """Options for play, given by keyword (see _FIELDS for what each means)."""

    def __init__(self, jacoby=False, beavers=False, raccoons=False, automatic_doubles=0,
                 cube_cap=None, crawford=True, holland=False, opening_rethrow=False,
                 dead_cube=False, shut_out_pass=False):
        self.jacoby = _flag("jacoby", jacoby)
        self.beavers = _flag("beavers", beavers)
        self.raccoons = _flag("raccoons", raccoons)
        self.automatic_doubles = automatic_doubles
        self.cube_cap = cube_cap
        self.crawford = _flag("crawford", crawford)
        self.holland = _flag("holland", holland)
        self.opening_rethrow = _flag("opening_rethrow", opening_rethrow)
        self.dead_cube = _flag("dead_cube", dead_cube)
        self.shut_out_pass = _flag("shut_out_pass", shut_out_pass)
        n = self.automatic_doubles
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 15:
            raise RuleError("automatic_doubles is a limit from 0 (off) to 15, got %r" % (n,))
        cap = self.cube_cap
        if cap is not None and not is_power_of_two(cap):
            raise RuleError("cube_cap is a cube value (1, 2, 4, ...) or None, got %r" % (cap,))
        if self.raccoons and not self.beavers:
            raise RuleError("raccoons answer a beaver: turn beavers on too")
        if self.holland and not self.crawford:
            raise RuleError("the Holland rule governs post-Crawford games: it needs Crawford")

    def money_only(self):
        """Names of the options set here that match play does not use."""
        out = []
        for name in ("jacoby", "beavers", "raccoons"):
            if getattr(self, name):
                out.append(name)
        if self.automatic_doubles:
            out.append("automatic_doubles")
        return out

    def check_match(self):
        """RuleError unless these rules may govern a match."""
        used = self.money_only()
        if used:
            raise RuleError(
                "%s: automatic doubles, beavers and the Jacoby rule are not used in match play"
                % ", ".join(used)
            )

    def cap_allows(self, value):
        """True when the cube may show `value` under the cube cap and MAX_CUBE."""
        limit = MAX_CUBE if self.cube_cap is None else min(self.cube_cap, MAX_CUBE)
        return value <= limit

    def to_dict(self):
        out = {}
        for name, _ in _FIELDS:
            value = getattr(self, name)
            if value is False and name in _LEAN:
                continue  # off: left out (snapshots and events stay as short as before)
            out[name] = int(value) if isinstance(value, bool) else value
        out["cube_cap"] = self.cube_cap or 0  # 0: no cap (snapshots hold ints only)
        return out

    @classmethod
    def from_dict(cls, data):
        options = {}
        for name, default in _FIELDS:
            if name in data:
                value = data[name]
                options[name] = bool(value) if isinstance(default, bool) else value
        if not options.get("cube_cap"):
            options["cube_cap"] = None
        unknown = [k for k in data if k not in options]
        if unknown:
            raise RuleError("unknown rule option(s): %s" % ", ".join(sorted(unknown)))
        return cls(**options)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        changed = []
        for name, default in _FIELDS:
            value = getattr(self, name)
            if value != default:
                changed.append("%s=%r" % (name, value))
        return "Rules(%s)" % ", ".join(changed)
