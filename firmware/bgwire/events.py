"""The board's journaled events (docs/protocol.md, "Events"): each name with its fields and
their kinds, and the check of one field. The board writes events as it commits them
(board/controller.py; board/record.py applies them, live and replayed); the host checks each
against this before using it (bgboard.events).
Only the host and the tests load this module: it costs the board nothing.

    {"ev": "roll", "seq": 12, "player": 0, "dice": [5, 2]}

EVENTS: name -> {field: kind}, the fields every such event has; OPTIONAL: name -> {field:
kind}, the fields some have (chouettes, a number of games, automatic doubles). Kinds:
"int" (0 or more), "player" (0 or 1), "winner" (a player or null), "dice" and "die2" (two
dice), "moves", "score", "bool", "dict", "level" (1..3), "how", "cube" (a power of two),
"name", "names" (a list of names), "any" (documented, not checked here).
"""

EVENTS = {
    "match": {"length": "int", "rules": "dict"},
    "game": {"number": "int", "score": "score", "crawford": "bool"},
    "opening": {"dice": "die2"},
    "roll": {"player": "player", "dice": "dice"},
    "play": {"player": "player", "dice": "dice", "moves": "moves"},
    "double": {"player": "player", "cube": "cube"},
    "take": {"player": "player"},
    "drop": {"player": "player"},
    "beaver": {"player": "player", "cube": "cube"},
    "raccoon": {"player": "player", "cube": "cube"},
    "resign": {"player": "player", "level": "level"},
    "accept": {"player": "player"},
    "reject": {"player": "player"},
    "demand": {"player": "player", "level": "level"},
    "pass": {"player": "player"},
    "rethrow": {"player": "player", "dice": "dice"},
    "void": {"player": "player"},
    "correct_setup": {"player": "player"},
    "result": {"winner": "player", "points": "int", "level": "level", "how": "how",
               "score": "score"},
    "match_over": {"score": "score"},
    "partner": {"name": "name"},
    "join": {"name": "name"},
    "leave": {"name": "name"},
}

OPTIONAL = {
    "match": {"games": "int", "kind": "any", "players": "names", "multiple_cubes": "any",
              "partner_from": "any", "consult": "any", "partner_by": "any"},
    "game": {"box": "name", "captain": "name", "team": "any", "partner": "any"},
    "opening": {"cube": "cube"},
    "double": {"member": "name"},
    "take": {"member": "name", "team": "any"},
    "drop": {"member": "name", "team": "any"},
    "result": {"settled": "any", "line": "any"},
    "match_over": {"winner": "winner"},
}

HOW = ("played", "dropped", "resigned")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def field_ok(kind, v):
    """True if v is a field value of that kind."""
    if kind == "any":
        return True
    if kind == "int":
        return is_int(v) and v >= 0
    if kind == "player":
        return v in (0, 1) and is_int(v)
    if kind == "winner":
        return v is None or (v in (0, 1) and is_int(v))
    if kind in ("dice", "die2"):
        return (isinstance(v, list) and len(v) == 2
                and all(is_int(d) and 1 <= d <= 6 for d in v))
    if kind == "score":
        return isinstance(v, list) and len(v) == 2 and all(is_int(s) and s >= 0 for s in v)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "dict":
        return isinstance(v, dict)
    if kind == "level":
        return is_int(v) and 1 <= v <= 3
    if kind == "how":
        return v in HOW
    if kind == "cube":
        return is_int(v) and v >= 1 and v & (v - 1) == 0
    if kind == "name":
        return isinstance(v, str) and 0 < len(v) <= 64
    if kind == "names":
        return isinstance(v, list) and all(field_ok("name", n) for n in v)
    if kind == "moves":
        if not isinstance(v, list) or len(v) > 4:
            return False
        for m in v:
            # hit: true/false, or 1/0 (as the firmware's controller writes it)
            if not (isinstance(m, list) and len(m) == 3 and is_int(m[0]) and is_int(m[1])
                    and m[2] in (True, False) and 1 <= m[0] <= 25 and 0 <= m[1] <= 24
                    and m[1] < m[0] and not (m[2] and m[1] == 0)):
                return False
        return True
    return False
