"""`bgboard view` (the board live in a browser) and `bgboard render` (the same drawing of a
position into an SVG file). The drawing is bgboard.view.drawing; the server
bgboard.view.server."""

import click

from bgboard.cli_common import (check_name, check_port, names_options, port_option,
                                stop_on_sigterm)


@click.command()
@port_option
@click.option("--http-port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The web server's port (0: any free one).")
@click.option("--host", "http_host", default="127.0.0.1", show_default=True,
              help="The address to serve on (0.0.0.0: every interface, for other machines).")
@names_options
def view(port, http_port, http_host, white, black):
    """Show the board live in a web browser: the checkers, dice, cube, score, pip counts,
    the LEDs as the board lights them, the moves in .mat notation and, with a toggle, the
    raw sensor readings. Any number of pages follow one serial connection. On the virtual
    board (`bgboard sim`) the page plays with the mouse: click a checker to lift it, a
    point to put it down, and the board's buttons. Prints `view: URL`; serves until
    Ctrl-C."""
    from bgboard.view import serve

    names = (check_name(white, "--white"), check_name(black, "--black"))
    path = check_port(port)
    stop_on_sigterm()
    try:
        serve(path, http_host=http_host, http_port=http_port, names=names,
              on_ready=lambda url: click.echo("view: %s" % url))
    except KeyboardInterrupt:
        click.echo("bgboard: stopped", err=True)


@click.command()
@click.option("--position-id", "pid", required=True,
              help="gnubg Position ID, from the side of the player on roll (player 0 "
                   "without --match-id).")
@click.option("--match-id", "mid", default=None,
              help="gnubg Match ID: who is on roll, the dice, the cube, the score.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              required=True, help="The SVG file to write (- for stdout).")
@names_options
def render(pid, mid, output, white, black):
    """Draw a position as an SVG file: the drawing `bgboard view` shows."""
    from bgboard.view.drawing import board_svg, scene_from_ids

    names = (check_name(white, "--white"), check_name(black, "--black"))
    try:
        scene = scene_from_ids(pid, mid, names=names)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    svg = board_svg(scene)
    if output == "-":
        click.echo(svg)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(svg + "\n")
    except OSError as e:
        raise click.ClickException("cannot write %s: %s" % (output, e.strerror or e))


COMMANDS = [view, render]
