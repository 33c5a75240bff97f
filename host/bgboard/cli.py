"""The `bgboard` command line. Errors are one line on stderr with exit status 2."""

import sys

import click

from bgboard import __version__
from bgboard.analyse_cmd import COMMANDS as ANALYSE_COMMANDS
from bgboard.board_cmd import COMMANDS as BOARD_COMMANDS
from bgboard.engine_cmd import COMMANDS as ENGINE_COMMANDS
from bgboard.rules_cmd import rules
from bgboard.play_cmd import play
from bgboard.sim_cmd import COMMANDS as SIM_COMMANDS
from bgboard.view_cmd import COMMANDS as VIEW_COMMANDS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bgboard")
def cli():
    """Host tool for the bgboard smart backgammon board."""


cli.add_command(rules)
for _command in (BOARD_COMMANDS + SIM_COMMANDS + [play] + VIEW_COMMANDS + ENGINE_COMMANDS
                 + ANALYSE_COMMANDS):
    cli.add_command(_command)


def main(argv=None):
    try:
        cli.main(args=argv, prog_name="bgboard", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as e:
        if e.ctx is not None and e.ctx.parent is not None:  # `bgboard send`: which command?
            click.echo("bgboard: %s needs a command (%s --help lists them)"
                       % (e.ctx.info_name, e.ctx.command_path), err=True)
            sys.exit(2)
        click.echo(e.ctx.get_help() if e.ctx else str(e))  # bare `bgboard`: its help
        sys.exit(0)
    except click.ClickException as e:
        click.echo("bgboard: %s" % e.format_message(), err=True)
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("bgboard: aborted", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
