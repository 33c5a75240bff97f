"""Errors raised by the rules core. All subclass ValueError (as python-chess does), so a caller
that only cares about "bad input" can catch ValueError. (A bad Match ID's MatchIdError is
bgcore.matchid's: loaded with it.)"""


class PositionError(ValueError):
    """A position or Position ID that cannot exist."""


class DiceError(ValueError):
    """Dice that are not two numbers from 1 to 6."""


class IllegalMoveError(ValueError):
    """A checker move the rules forbid; the text says why, for the player."""


class AmbiguousMoveError(IllegalMoveError):
    """A chained move that may or may not hit on its way; say which."""


class RuleError(ValueError):
    """An action the rules of the game, cube, match or chouette forbid now; the text names the
    rule. A refused action changes nothing."""
