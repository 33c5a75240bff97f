# bgcore: the backgammon rules, one copy for the board (MicroPython) and the host (CPython).
from bgcore.errors import AmbiguousMoveError, DiceError, IllegalMoveError, PositionError
from bgcore.plays import legal_plays, plays_with_steps
from bgcore.position import BAR, OFF, Position
from bgcore.turn import Step, Turn, notation

__all__ = [
    "AmbiguousMoveError", "DiceError", "IllegalMoveError", "PositionError",
    "legal_plays", "plays_with_steps", "BAR", "OFF", "Position", "Step", "Turn", "notation",
]
