"""`bgboard rules ...`: the rules core from the command line."""

import json

import click

from bgcore import Position, notation, plays_with_steps


def _position(pid):
    try:
        return Position.from_id(pid)
    except ValueError as e:
        raise click.UsageError(str(e))


@click.group()
def rules():
    """Ask the rules core: legal plays, diagrams, match IDs."""


@rules.command()
@click.option("--position-id", "pid", required=True, help="gnubg Position ID, side on roll moving.")
@click.option("--dice", nargs=2, type=int, required=True, help="The two dice, e.g. --dice 3 1.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object with plays and notation.")
def plays(pid, dice, as_json):
    """List the distinct legal plays as resulting Position IDs (mover still on roll)."""
    position = _position(pid)
    try:
        found = plays_with_steps(position, dice)
    except ValueError as e:
        raise click.UsageError(str(e))
    if as_json:
        out = {
            "position_id": pid,
            "dice": sorted(dice, reverse=True),
            "plays": [{"position_id": p.to_id(), "move": notation(s)} for p, s in found],
        }
        click.echo(json.dumps(out))
        return
    for p, _ in found:
        click.echo(p.to_id())


@rules.command()
@click.option("--position-id", "pid", required=True, help="gnubg Position ID.")
def show(pid):
    """Print a text diagram of a position."""
    click.echo(str(_position(pid)))
