"""What the board did, in words, for the people at a browser page (`bgboard view`) or a
terminal (`bgboard play`): each journaled event (a tied opening throw thrown again, a pass,
an automatic double... as `bgboard monitor` says them), each refusal, and what the board's
LEDs ask for when the checkers on the table are not what it expects (a checker of the side
not on roll lifted, a checker put on a point it may not go to, a hit checker not yet on the
bar), with the places it lights.

Points are named in White's numbering, the numbers written on the board's frame (the page
draws them, `bgboard play` takes and shows them).
"""

import re

from bgboard.leds import led_places, role
from bgboard.matfile import DEFAULT_NAMES

# the live board line's tracker states (docs/protocol.md)
STEADY, LIFTED, HIT_WAIT, ILLEGAL, RESTORE = range(5)


def lit_by_role(lit, places=None):
    """{role: [place name, ...]} from a live leds line's `lit` ({"rrggbb": [index, ...]})."""
    places = places or led_places()
    out = {}
    for colour, indices in sorted(lit.items()):
        names = out.setdefault(role(colour), [])
        for i in indices:
            name = places.name(i)
            if name not in names:
                names.append(name)
    return out


def _places(names):
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + \
        names[-1]


def tracker_words(state, roles):
    """What the board asks for in tracker state `state` (the live board line), the places
    taken from the LEDs lit for it ({role: [place names]}); None when there is nothing to
    say (steady, a checker lifted for a move: the page lights where it may go)."""
    if state == ILLEGAL:
        wrong = roles.get("wrong") or ["a point the dice do not allow"]
        back = roles.get("origin")
        text = "not a legal place: the checker on %s must go back to %s" % (
            _places(wrong), _places(back) if back else "where it came from")
        return text
    if state == RESTORE:
        parts = []
        if roles.get("missing"):
            parts.append("put back a checker on %s" % _places(roles["missing"]))
        if roles.get("extra"):
            parts.append("take the extra checker from %s" % _places(roles["extra"]))
        return "checkers out of place (only the side on roll moves): " + (
            "; ".join(parts) if parts else "put them back as they were")
    if state == HIT_WAIT:
        where = roles.get("hit")
        return "a checker is hit: put it on the bar%s" % (
            " (lit: %s)" % _places(where) if where else "")
    return None


NEEDS = {ILLEGAL: ("wrong",), RESTORE: ("missing", "extra"), HIT_WAIT: ("hit",)}


class Narrator:
    """Follows the live lines and says in words what the board asks for: `live(msg)`
    returns the sentences that line calls for (a tracker state is said once the LED frame
    shows its places: the board line and the leds line come in either order)."""

    def __init__(self, places=None, names=DEFAULT_NAMES):
        self.names = names
        self.places = places or led_places()
        self.state = STEADY
        self.roles = {}
        self.said = None

    def live(self, msg):
        kind = msg.get("live")
        if kind == "refused":
            reason = re.sub(r"\bplayer ([01])\b", lambda m: self.names[int(m.group(1))],
                            str(msg.get("reason", "?")))
            return ["refused: %s" % reason]
        if kind == "board":
            self.state = msg.get("state")
            if self.state not in NEEDS:
                self.said = None
        elif kind == "leds":  # the places lit (not the dice: red dice are a refusal's sign)
            lit = lit_by_role(msg.get("lit") or {}, self.places)
            self.roles = {r: [n for n in names if not n.startswith("die ")]
                          for r, names in lit.items()}
        else:
            return []
        if not any(self.roles.get(r) for r in NEEDS.get(self.state, ())):
            return []
        text = tracker_words(self.state, self.roles)
        if text == self.said:  # said once, again only when it changes
            return []
        self.said = text
        return [text]
