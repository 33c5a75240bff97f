"""bgboard: host tool for the bgboard smart backgammon board."""

__version__ = "0.1.0"
