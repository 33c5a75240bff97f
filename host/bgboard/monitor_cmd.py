"""`bgboard monitor`: the board live in the terminal (the view itself is
bgboard.monitor.View)."""

import sys

import click

from bgboard.cli_common import (LinkFailure, check_name, connect, names_options, open_link,
                                port_option, quiet_retries, say)
from bgboard.link import LinkError, Refused, VersionError


@click.command()
@port_option
@names_options
@click.option("--once", is_flag=True, help="Print the view once (after reading the board's "
                                          "journal) and exit.")
@click.option("--events", "keep", type=int, default=8, show_default=True,
              help="How many of the last events to show.")
def monitor(port, white, black, once, keep):
    """Show the board live: position, dice, cube, score, the last events and sensor
    problems, redrawn as events arrive. Ctrl-C to quit."""
    from bgboard.monitor import View

    names = (check_name(white, "--white"), check_name(black, "--black"))
    view = View(names, keep=keep)
    changed = {"yes": True}

    def on_event(ev):
        view.apply(ev)
        changed["yes"] = True

    def on_live(msg):
        view.apply_live(msg)
        changed["yes"] = True

    def on_status(text):
        view.status = text
        changed["yes"] = True
        if not sys.stdout.isatty():
            say(text)

    link = open_link(port, reconnect=not once, sync=True, on_event=on_event, on_live=on_live,
                     on_status=quiet_retries(on_status),
                     on_problem=lambda t: view.problems.append(t))
    tty = sys.stdout.isatty() and not once
    try:
        connect(link)
        try:
            view.board_state = link.command("state")
        except (Refused, LinkError):
            pass  # the events alone still make the view
        if once:
            click.echo(view.render())
            return
        while True:
            if changed["yes"]:
                changed["yes"] = False
                text = view.render()
                if tty:
                    click.echo("\x1b[H\x1b[2J" + text)
                else:
                    click.echo(text + "\n")
            try:
                link.poll(0.25)
            except LinkError as e:
                if isinstance(e, VersionError):
                    raise
                view.status = str(e)
                changed["yes"] = True
    except KeyboardInterrupt:
        pass
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()


COMMANDS = [monitor]
