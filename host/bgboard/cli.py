"""The `bgboard` command line: the click group that gathers every command, and main() (the
console script), which turns click's errors into one line on stderr: exit status 2 for bad
input, 1 for a lost link (bgboard.cli_common.LinkFailure) or an abort."""

import sys

import click

from bgboard import __version__
from bgboard import (analyse_cmd, calibrate_cmd, engine_cmd, flash_cmd, journal_cmd,
                     monitor_cmd, ports_cmd, send_cmd, sim_cmd, view_cmd)
from bgboard.play_cmd import play
from bgboard.rules_cmd import rules


# What a person starts with, listed first by `bgboard --help` (in this order).
START_WITH = ("sim", "play", "engine", "log")


class CommandList(click.Group):
    """`bgboard --help`: the commands a person starts with first (START_WITH), then the
    others in alphabetical order, each with the whole first sentence of its help (click
    would cut it at the terminal's width)."""

    def list_commands(self, ctx):
        first = [n for n in START_WITH if n in self.commands]
        return first + sorted(n for n in self.commands if n not in first)

    def format_commands(self, ctx, formatter):
        rows = [(name, first_sentence(self.commands[name].help or ""))
                for name in self.list_commands(ctx) if not self.commands[name].hidden]
        start = [r for r in rows if r[0] in START_WITH]
        with formatter.section("Start with"):
            formatter.write_dl(start)
        with formatter.section("More commands"):
            formatter.write_dl([r for r in rows if r[0] not in START_WITH])


def first_sentence(text):
    """The first sentence of a help text, whole, on one line."""
    import re

    text = " ".join(text.split())
    end = re.search(r"\.(\s|$)", text)
    return text[:end.start() + 1] if end else text


@click.group(cls=CommandList, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bgboard")
def cli():
    """Host tool for the bgboard smart backgammon board. New here? `bgboard sim --view`
    runs a virtual board in the browser; `bgboard engine --port PORT` plays GNU Backgammon
    on it."""


# One module per command group, each listing its click commands in COMMANDS: a new command
# is a click command in its group's module (or a new NAME_cmd.py added here); what they share
# (--port, opening a link, names, one-line errors) is bgboard.cli_common.
cli.add_command(rules)
cli.add_command(play)
for _module in (ports_cmd, monitor_cmd, journal_cmd, send_cmd, calibrate_cmd, flash_cmd,
                sim_cmd, view_cmd, engine_cmd, analyse_cmd):
    for _command in _module.COMMANDS:
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
