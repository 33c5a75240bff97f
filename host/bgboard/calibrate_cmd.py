"""`bgboard calibrate`: the sensors' calibration, step by step with the person at the board
(empty board, then the starting position), stored on the board."""

import click

from bgboard.cli_common import port_option, session


def _ask(step, prompt, yes):
    """Say what to do; wait for Enter unless --yes."""
    click.echo(step)
    if not yes:
        click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")


@click.command()
@port_option
@click.option("--yes", "-y", is_flag=True, help="Do not wait for Enter: the board is ready.")
@click.option("--no-save", is_flag=True, help="Measure and report, but do not store.")
def calibrate(port, yes, no_save):
    """Calibrate the sensors: with the board empty, measure every slot's zero level and
    report slots that look faulty; with the starting position set up, measure the
    sensitivity of the slots holding a checker; store the result on the board."""
    progress = {"last": None}

    def on_live(msg):
        if msg.get("live") in ("calibrate", "calibration", "progress"):
            pct = msg.get("progress", msg.get("percent"))
            if pct is not None and pct != progress["last"]:
                progress["last"] = pct
                click.echo("  measuring... %s%%" % pct, err=True)

    with session(port, 60.0, on_live=on_live) as link:
        _ask("Step 1 of 4: take every checker off the board (the tray too) and keep "
             "magnets and phones away.", "Press Enter when the board is empty", yes)
        click.echo("Measuring the empty board...")
        reply = link.command("calibrate", step="empty")
        faulty = [f[0] if isinstance(f, list) else f for f in reply.get("faulty") or []]
        if faulty:
            click.echo("Slots that look faulty: %s (check their sensors and wiring)"
                       % ", ".join(str(s) for s in faulty))
        else:
            click.echo("Every slot reads as expected.")
        click.echo("Step 2 of 4: checking what the board now sees...")
        dump = link.command("dump")
        codes = dump.get("codes") or []
        seen = [i for i, c in enumerate(codes) if c]
        if seen:
            click.echo("The board still senses something on slots %s: clear them and "
                       "calibrate again" % ", ".join(str(i) for i in seen[:32]))
        else:
            click.echo("The empty board reads as empty.")
        _ask("Step 3 of 4: set up the starting position, one checker per slot from the edge "
             "of each point (2, 3 or 5 checkers in a row).",
             "Press Enter when the checkers stand", yes)
        click.echo("Measuring one checker on each of 30 slots...")
        reply = link.command("calibrate", step="checkers")
        suspect = reply.get("suspect") or []
        for slot, why in suspect:
            click.echo("Slot %s: %s (check the magnet, the sensor's height, its wiring)"
                       % (slot, why))
        click.echo("%d slots measured, %d suspect." % (reply.get("measured", 0), len(suspect)))
        if no_save:
            click.echo("Step 4 of 4: not stored (--no-save).")
            return
        click.echo("Step 4 of 4: storing the calibration on the board...")
        link.command("calibrate", step="save")
        click.echo("Calibration stored.%s" % (" Faulty slots: %s."
                                               % ", ".join(str(s) for s in faulty)
                                               if faulty else ""))


COMMANDS = [calibrate]
