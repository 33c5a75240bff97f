"""`bgboard rules ...`: the rules core from the command line."""

import json

import click

from bgcore import Position, notation, plays_with_steps
from bgcore.matchid import decode as decode_match_id, encode as encode_match_id


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
    if not sum(position.mover[1:]) or not sum(position.opponent[1:]):  # [0]: borne off
        # A side with every checker off: the game ended there, no one moves (an empty
        # board cannot even arise).
        raise click.UsageError("position %s: the game is over (a side has no checkers "
                               "left), so there is nothing to play" % pid)
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


@rules.command()
@click.argument("match_id", required=False)
@click.option("--encode", is_flag=True,
              help="Read the JSON object (the keys decoding prints) on stdin; print its ID.")
def matchid(match_id, encode):
    """Decode a gnubg Match ID into one JSON object, or encode one with --encode.

    Keys: cube, cube_owner (0, 1, null centred), on_roll, crawford, game_state (none, playing,
    over, resigned, dropped), turn, double_offered, resignation (0-3), dice ([high, low] or
    []), match_length (0 money), score ([p0, p1]), jacoby.
    """
    if encode:
        if match_id is not None:
            raise click.UsageError("--encode reads the fields on stdin: give no Match ID")
        text = click.get_text_stream("stdin").read()
        try:
            fields = json.loads(text)
        except ValueError as e:
            raise click.UsageError("stdin is not a JSON object: %s" % e)
        try:
            click.echo(encode_match_id(fields))
        except ValueError as e:
            raise click.UsageError(str(e))
        return
    if match_id is None:
        raise click.UsageError("give a Match ID to decode, or --encode with the fields on stdin")
    try:
        fields = decode_match_id(match_id)
    except ValueError as e:
        raise click.UsageError(str(e))
    click.echo(json.dumps(fields))
