"""`bgboard play`: a person at the terminal plays on the virtual board: lifts and places
checkers by hand (the simulated hands of the `sim` lines, docs/protocol.md), presses the
board's buttons, and sees the checkers on the table and the LEDs the board lights."""

import json
import shlex
import time

import click

from bgboard.cli_common import LinkFailure, connect, open_link, port_option
from bgboard.leds import led_places, role

HELP = """\
lift P [w|b]      take a checker from point P (1..24; bar, off); side: the player on roll
place P [w|b]     put the checker in hand on P
move P Q [w|b]    lift from P and place on Q (a chain of dice is one move)
roll | double | take | drop | verify | menu    press that button
new money | new match N                        start a session on the board
show | help | quit"""

PLACES = {"bar": 25, "off": 0, "tray": 0}


def describe_leds(lit, places):
    """'may go: point 5, point 4; origin: point 8' from a live leds line's `lit`."""
    by_role = {}
    for colour, indices in sorted(lit.items()):
        names = by_role.setdefault(role(colour), [])
        for i in indices:
            name = places.name(i)
            if name not in names:
                names.append(name)
    return "; ".join("%s: %s" % (r, ", ".join(n)) for r, n in sorted(by_role.items())) \
        or "all dark"


def describe_table(table, hand):
    out = []
    for side, colour in ((0, "white"), (1, "black")):
        counts = table[side]
        points = " ".join("%d:%d" % (p, counts[p]) for p in range(24, 0, -1) if counts[p])
        out.append("%s (own numbering) %s | bar %d | off %d | in hand %d"
                   % (colour, points or "-", counts[25], counts[0], hand[side]))
    return "\n".join(out)


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
    if verb == "move":
        return [{"sim": "lift", "side": side, "at": points[0]},
                {"sim": "place", "side": side, "at": points[1]}]
    return [{"sim": verb, "side": side, "at": points[0]}]


@click.command()
@port_option
def play(port):
    """Play on the virtual board (`bgboard sim`) from the terminal: move checkers by hand,
    press the buttons, see the LEDs. Points are in the moving side's own numbering, as in
    a .mat file. Type help for the commands."""
    play_on(port)


def play_on(port):
    """The terminal session of `bgboard play` on `port` (None: auto-detect)."""
    places = led_places()
    seen = {}

    def on_live(msg):
        seen[msg.get("live")] = msg

    def on_event(ev):
        click.echo("  event %d: %s" % (ev["seq"], json.dumps(
            {k: v for k, v in ev.items() if k not in ("seq",)})))

    link = open_link(port, on_live=on_live, on_event=on_event, sync=True)
    connect(link)
    try:
        link.send({"sim": "look"})
        link.poll(1.0)
        if "sim" not in seen:
            raise LinkFailure("%s is not a virtual board (no answer to a sim line)" % link.name)
        click.echo(HELP)
        while True:
            on_roll = (link.command("state").get("game") or {}).get("player") or 0
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
            if words[0] != "show":
                try:
                    lines = parse(words, on_roll)
                except (ValueError, IndexError) as e:
                    click.echo("  %s" % e)
                    continue
                for msg in lines:
                    if "cmd" in msg:
                        click.echo("  %s" % link.command(msg.pop("cmd"), **msg))
                    else:
                        link.send(msg)
                        link.poll(0.4)  # the sensors need 150 ms to trust a change
            time.sleep(0.2)
            link.poll(0.3)
            sim = seen.get("sim", {})
            if sim.get("error"):
                click.echo("  refused: %s" % sim["error"])
                sim.pop("error")
            elif "table" in sim:
                click.echo(describe_table(sim["table"], sim["hand"]))
            click.echo("LEDs (points in white's numbering): %s" % describe_leds(seen.get("leds", {}).get("lit", {}), places))
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
