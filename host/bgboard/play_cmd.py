"""`bgboard play`: a person at the terminal plays on the virtual board: lifts and places
checkers by hand (the simulated hands of the `sim` lines, docs/protocol.md), presses the
board's buttons, and sees the checkers on the table, the dice, whose turn it is, the LEDs
the board lights and, in words, what the board did by itself or refused (bgboard.narrate).

One numbering throughout, typed and shown: White's, the numbers on the board's frame (the
browser view draws them); Black's point q is the frame's 25 - q. The sim lines and the
firmware's words use each side's own numbering: this module turns them."""

import re
import shlex
import time

import click

from bgboard.cli_common import LinkFailure, connect, open_link, port_option
from bgboard.leds import led_places
from bgboard.monitor import View
from bgboard.narrate import Narrator, lit_by_role

HELP = """\
Points are in White's numbering (the numbers on the board's frame) for both sides.
lift P [w|b]      take a checker from point P (1..24; bar, off); side: the player on roll
place P [w|b]     put the checker in hand on P
move P Q [w|b]    lift from P and place on Q (a chain of dice is one move)
roll | double | take | drop | verify | menu    press that button
new money | new match N                        start a session on the board
arrange           move the checkers where the board expects them (setting up, restoring)
show | help | quit"""

PLACES = {"bar": 25, "off": 0, "tray": 0}
SIDES = ("white", "black")


def own(side, point):
    """A side's own number of the frame's point (bar 25 and off 0 are each side's own)."""
    return point if side == 0 or point in (0, 25) else 25 - point


def sim_words(error):
    """The virtual board's refusal in White's numbering."""
    m = re.match(r"no checker of side (\d) on (\d+) to lift$", error)
    if m:
        side, at = int(m.group(1)), int(m.group(2))
        place = {0: "off", 25: "the bar"}.get(at, "point %d" % own(side, at))
        return "no %s checker on %s to lift" % (SIDES[side], place)
    m = re.match(r"side (\d) has no checker in hand$", error)
    if m:
        return "no %s checker in hand" % SIDES[int(m.group(1))]
    return error


def describe_leds(lit, places):
    """'may go: point 5, point 4; origin: point 8' from a live leds line's `lit`."""
    by_role = lit_by_role(lit, places)
    return "; ".join("%s: %s" % (r, ", ".join(n)) for r, n in sorted(by_role.items())) \
        or "all dark"


def describe_table(table, hand):
    """Each side's checkers (the virtual board's table: each side's own numbering) on the
    frame's points, White's numbering."""
    out = []
    for side, colour in enumerate(SIDES):
        counts = table[side]
        points = " ".join("%d:%d" % (p, counts[own(side, p)]) for p in range(24, 0, -1)
                          if counts[own(side, p)])
        out.append("%s %s | bar %d | off %d | in hand %d"
                   % (colour, points or "-", counts[25], counts[0], hand[side]))
    return "\n".join(out)


def describe_turn(state, names=("White", "Black")):
    """Whose turn it is and the dice, from a `state` reply."""
    from bgboard.view.drawing import match_fields, status_words

    game = state.get("game") or {}
    fields = match_fields(game)
    words = status_words(fields, names, state.get("phase")) or "no game"
    dice = game.get("dice")
    if dice and "%d-%d" % tuple(dice[:2]) not in words:
        words += "; dice %d-%d" % tuple(dice[:2])
    elif not dice and state.get("phase") == "playing":
        words += "; no dice thrown"
    return words


def parse(words, on_roll):
    """A sim line or a command ({"cmd": ...}) from what the person typed; ValueError."""
    verb = words[0].lower()
    if verb in ("roll", "double", "take", "drop", "verify", "menu"):
        return [{"sim": "press", "button": verb}]
    if verb == "new":
        if words[1:2] == ["money"]:
            return [{"cmd": "new", "kind": "money"}]
        if words[1:2] == ["match"] and len(words) == 3 and words[2].isdigit():
            return [{"cmd": "new", "kind": "match", "length": int(words[2])}]
        raise ValueError("new money, or new match N")
    need = {"lift": 1, "place": 1, "move": 2}.get(verb)
    if need is None:
        raise ValueError("unknown: %s (type help)" % verb)
    args = words[1:]
    side = on_roll
    if len(args) == need + 1 and args[-1] in ("w", "b"):
        side = 0 if args.pop() == "w" else 1
    if len(args) != need:
        raise ValueError("%s takes %d point(s)" % (verb, need))
    points = [PLACES[a] if a in PLACES else int(a) if a.isdigit() else -1 for a in args]
    if not all(0 <= p <= 25 for p in points):
        raise ValueError("points are 1..24, bar or off")
    points = [own(side, p) for p in points]
    if verb == "move":
        return [{"sim": "lift", "side": side, "at": points[0]},
                {"sim": "place", "side": side, "at": points[1]}]
    return [{"sim": verb, "side": side, "at": points[0]}]


@click.command()
@port_option
def play(port):
    """Play on the virtual board (`bgboard sim`) from the terminal: move checkers by hand,
    press the buttons, see the dice and the LEDs. Points are in White's numbering (the
    numbers on the board's frame) for both sides. Type help for the commands."""
    play_on(port)


def play_on(port):
    """The terminal session of `bgboard play` on `port` (None: auto-detect)."""
    places = led_places()
    seen = {}
    said = []  # what the board did or asks for, in words: printed after each command
    narrator = Narrator(places)
    view = View()

    def on_live(msg):
        seen[msg.get("live")] = msg
        said.extend(narrator.live(msg))

    def on_event(ev):
        view.apply(ev)
        said.append("event %d: %s" % (ev["seq"], view.describe(ev)))

    link = open_link(port, on_live=on_live, on_event=on_event, sync=True)
    connect(link)
    try:
        link.send({"sim": "look"})
        link.poll(1.0)
        if "sim" not in seen:
            raise LinkFailure("%s is not a virtual board (no answer to a sim line)" % link.name)
        del said[:]  # the journal's history, caught up on connecting: not news
        click.echo(HELP)
        while True:
            state = link.command("state")
            on_roll = (state.get("game") or {}).get("player") or 0
            try:
                words = shlex.split(input("bgboard> "))
            except EOFError:
                break
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                break
            if words[0] == "help":
                click.echo(HELP)
                continue
            if words[0] == "arrange":
                lines = _arrangement(state, seen.get("sim", {}))
                if lines is None:
                    click.echo("  no game on the board yet: start one (new match N)")
                    continue
            elif words[0] != "show":
                try:
                    lines = parse(words, on_roll)
                except (ValueError, IndexError) as e:
                    click.echo("  %s" % e)
                    continue
            else:
                lines = []
            for msg in lines:
                if "cmd" in msg:
                    click.echo("  %s" % link.command(msg.pop("cmd"), **msg))
                else:
                    link.send(msg)
                    link.poll(0.4 if words[0] != "arrange" else 0.05)  # sensors: 150 ms
            time.sleep(0.2)
            link.poll(0.3)
            for text in said:
                click.echo("  %s" % text)
            del said[:]
            sim = seen.get("sim", {})
            if sim.get("error"):
                click.echo("  refused: %s" % sim_words(sim["error"]))
                sim.pop("error")
            elif "table" in sim:
                click.echo(describe_table(sim["table"], sim["hand"]))
            click.echo("turn: %s" % describe_turn(link.command("state")))
            click.echo("LEDs: %s" % describe_leds(seen.get("leds", {}).get("lit", {}), places))
    except KeyboardInterrupt:
        pass
    finally:
        link.close()


def _arrangement(state, sim):
    """The sim lines that put the table's checkers where the board expects them, or None
    when it has no game."""
    from bgcore import Position

    from bgboard.view.drawing import sides_of
    from bgboard.view.model import arrangement

    pid = (state.get("game") or {}).get("position_id")
    if not pid or "table" not in sim:
        return None
    return arrangement(sim["table"], sim["hand"], list(sides_of(Position.from_id(pid), 0)))
