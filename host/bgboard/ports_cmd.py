"""`bgboard ports`: the serial ports, boards that look like a Pico marked (the discovery
itself is bgboard.cli_common's, which every --port uses)."""

import click

from bgboard import cli_common


@click.command()
def ports():
    """List serial ports; boards that look like a Pico running MicroPython (USB vendor ID
    2E8A) are marked with *."""
    found = cli_common.list_ports()
    if not found:
        click.echo("no serial ports found")
        return
    for device, desc, pico in found:
        click.echo("%s %-20s %s%s" % ("*" if pico else " ", device, desc,
                                      "  [Pico/MicroPython]" if pico else ""))


COMMANDS = [ports]
