"""bgcore: the backgammon rules, one copy for the board (MicroPython) and the host (CPython)."""
from bgcore.errors import AmbiguousMoveError, DiceError, IllegalMoveError, PositionError
from bgcore.position import BAR, OFF, Position
from bgcore.turn import Step, Turn

__all__ = [
    "AmbiguousMoveError", "DiceError", "IllegalMoveError", "PositionError",
    "BAR", "OFF", "Position", "Step", "Turn",
]

# Games, the cube, matches and sessions, Match IDs, chouettes, and every play of a roll (the
# host's: the board never lists them). These load on first use (`from bgcore import Game`
# calls __getattr__ below, on MicroPython as on CPython), so that firmware that only tracks
# checkers keeps the RAM they take (about 50 KB as source).
from bgcore.errors import RuleError

_LAZY = {
    "Rules": "rules", "Cube": "cube", "SINGLE": "cube", "GAMMON": "cube",
    "BACKGAMMON": "cube", "Game": "game", "Result": "game", "Match": "match",
    "MatchIdError": "matchid", "decode_match_id": "matchid.decode",
    "encode_match_id": "matchid.encode",
    "Ordering": "ordering", "Ledger": "ledger", "Chouette": "chouette",
    "GamesMatch": "sheet",
    "legal_plays": "plays", "plays_with_steps": "plays", "notation": "plays",
}


def __getattr__(name):
    where = _LAZY.get(name)
    try:
        if where is None:  # a submodule: MicroPython's `from bgcore import game` asks here
            return __import__("bgcore." + name, None, None, ["_"])
        parts = where.split(".")
        module = __import__("bgcore." + parts[0], None, None, ["_"])
        value = getattr(module, parts[-1] if len(parts) > 1 else name)
    except ImportError:
        raise AttributeError("module 'bgcore' has no attribute '%s'" % name)
    globals()[name] = value
    return value


# pyright: reportUnsupportedDunderAll=false
# (these names exist through __getattr__, which pyright does not follow for __all__)
__all__ += [
    "MatchIdError", "RuleError", "Rules", "Cube", "SINGLE", "GAMMON", "BACKGAMMON", "Game",
    "Result", "Match", "decode_match_id", "encode_match_id", "Ordering", "Ledger", "Chouette",
    "legal_plays", "plays_with_steps", "notation", "GamesMatch",
]
