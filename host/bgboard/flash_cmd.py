"""`bgboard flash`: the firmware deployed onto a board, a virtual board or an emulated Pico
(bgboard.firmware builds the files, bgboard.flash writes them through mpremote's transport).
`bgboard sim --pico` flashes a new emulated Pico with flash_firmware."""

import click

from bgboard.cli_common import LinkFailure, PortError, choose_port, port_option, say


@click.command()
@port_option
@click.option("--source", "as_source", is_flag=True,
              help="Copy the firmware as .py source (default: compiled with mpy-cross "
                   "-march=armv6m, which a Pico needs: compiling on it costs RAM it lacks).")
@click.option("--firmware", "firmware_dir", type=click.Path(exists=True, file_okay=False),
              default=None, help="Firmware folder to deploy (default: this checkout's).")
@click.option("--no-reset", is_flag=True, help="Leave the board in the REPL afterwards.")
def flash(port, as_source, firmware_dir, no_reset):
    """Deploy the firmware and its config (pinmap.json, field.json) to a board, or to the
    virtual board (`bgboard sim` prints its port): only files whose SHA-256 differs are
    written, files that no longer belong are removed, then a soft reset starts it."""
    flash_firmware(choose_port(port), firmware_dir, as_source, no_reset)


def flash_firmware(port, firmware_dir, as_source, no_reset, summary_err=False):
    """Build the firmware from `firmware_dir` (default: this checkout's) and deploy it onto
    the board on `port`, saying what it does on stderr (the summary too with summary_err:
    `bgboard sim`'s first line on stdout is its port). A port missing, busy or no serial
    port is one line and exit status 2, said before the build; a firmware that cannot be
    built and a board that cannot take it are one line and exit status 1."""
    from bgboard.transport import SerialTransport, TransportError

    try:
        # A look before the build, which takes seconds; mpremote then opens the port
        # exclusively itself for the whole flash.
        SerialTransport(port).close()
    except TransportError as e:
        raise PortError(str(e)) from None
    from bgboard import firmware
    from bgboard.flash import FlashError
    from bgboard.flash import flash as deploy

    source = firmware_dir or firmware.FIRMWARE_DIR
    try:
        files = firmware.build(source, compiled=not as_source)
        need = firmware.micropython_min(source)
    except (OSError, firmware.FirmwareError) as e:
        raise click.ClickException(str(e)) from None
    size = sum(len(d) for d in files.values())
    say("firmware: %d files, %d bytes (%s)" % (len(files), size,
                                                "source" if as_source else "mpy, armv6m"))
    try:
        report = deploy(port, files, say=say, reset=not no_reset, micropython_min=need)
    except FlashError as e:
        raise LinkFailure(str(e)) from None
    click.echo(report.summary(), err=summary_err)


COMMANDS = [flash]
