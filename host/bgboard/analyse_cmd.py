"""`bgboard analyse FILE.mat`: GNU Backgammon's analysis of a match, written beside it (or
into --out DIR) as NAME.analysis.json and NAME.analysis.html (bgboard.analysis)."""

import time

import click

from bgboard.cli_common import say


def progress_printer(say=say):
    """An on_progress for analyse_file that says how far it is, with the time taken."""
    started = time.monotonic()

    def on_progress(game, games, plays):
        say("analysing game %d of %d (%d plays; %.1f s so far)"
            % (game, games, plays, time.monotonic() - started))

    return on_progress


def summary_lines(summary):
    out = []
    for p in summary["players"]:
        out.append("%s: error rate %.1f mEMG (%s), %.3f equity lost; %d doubtful, %d bad, %d "
                   "very bad, %d cube error(s); luck %+.1f mEMG" % (
                       p["name"], p["overall"]["error_rate_memg"], p["overall"]["rating"],
                       p["overall"]["error_total"], p["checker"]["doubtful"],
                       p["checker"]["bad"], p["checker"]["very_bad"], p["cube"]["errors"],
                       p["luck"]["rate_memg"]))
    return out


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Where to write NAME.analysis.json and .html (default: beside FILE).")
@click.option("--worst", type=click.IntRange(0, 100), default=5, show_default=True,
              help="How many of each player's worst checker plays to list.")
def analyse(file, out_dir, worst):
    """GNU Backgammon analyses a match (.mat or .sgf, as bgboard writes them): error and
    luck rates, ratings, the worst plays with their positions, into NAME.analysis.json
    and NAME.analysis.html."""
    from bgboard.analysis import AnalysisError, BadMatchFile, analyse_file
    from bgboard.engine import EngineError, EngineMissing

    started = time.monotonic()
    try:
        summary, json_path, html_path = analyse_file(file, out_dir, progress_printer(),
                                                     worst=worst)
    except (BadMatchFile, EngineMissing) as e:
        raise click.UsageError(str(e)) from None  # one line, exit 2
    except (AnalysisError, EngineError) as e:
        raise click.ClickException(str(e)) from None  # exit 1
    except OSError as e:
        raise click.ClickException("cannot write the analysis: %s" % e) from None
    for line in summary_lines(summary):
        click.echo(line)
    click.echo("analysis: %s, %s (%.1f s)" % (json_path, html_path,
                                             time.monotonic() - started))


COMMANDS = [analyse]
