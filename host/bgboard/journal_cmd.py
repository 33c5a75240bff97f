"""The board's journal into files: `bgboard log` (the events as the board commits them, into
journal.jsonl and one .mat and .sgf per match: bgboard.recorder), `bgboard export` (a .mat
or SGF file rebuilt from a journal) and `bgboard kept` (the journals the board kept aside)."""

import os
import time

import click

from bgboard.cli_common import (LinkFailure, check_name, connect, names_options, open_link,
                                open_port, port_option, quiet_retries, say, session)
from bgboard.events import build_matches, read_journal
from bgboard.link import LinkError, VersionError
from bgboard.matfile import mat_text
from bgboard.sgf import sgf_text


@click.command(name="export")
@click.argument("journal", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["mat", "sgf"]), default=None,
              help="mat: Jellyfish .mat text (gnubg `import mat`); sgf: SGF GM[6] (gnubg "
                   "`load match`).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: standard output).")
@click.option("--match", "which", type=int, default=None, metavar="N",
              help="Which match or session of the journal (1 the first; default the last).")
@names_options
def export(journal, fmt, output, which, white, black):
    """Rebuild the .mat or SGF file of a match from a journal (`bgboard log`'s
    journal.jsonl, or any file of event lines)."""
    if fmt is None:
        raise click.UsageError("say which file to build: --format mat or --format sgf")
    names = (check_name(white, "--white"), check_name(black, "--black"))
    problems = []
    try:
        with open(journal, encoding="utf-8", errors="replace") as f:  # a damaged line: skipped
            events = read_journal(f, problems)
    except (OSError, UnicodeDecodeError) as e:
        raise click.UsageError("cannot read %s: %s" % (journal, e)) from None
    matches = [m for m in build_matches(events, problems) if m.games]
    if not matches:
        raise click.UsageError("%s holds no game%s" % (
            journal, " (%d problem(s): %s)" % (len(problems), problems[0]) if problems else ""))
    for p in problems:
        say("warning: %s" % p)
    if which is None:
        if len(matches) > 1:
            say("%s holds %d matches or sessions: exporting the last (choose with --match N)"
                 % (journal, len(matches)))
        match = matches[-1]
    else:
        if not 1 <= which <= len(matches):
            raise click.UsageError("--match %d: %s holds %d match(es) or session(s)"
                                   % (which, journal, len(matches)))
        match = matches[which - 1]
    text = mat_text(match, names) if fmt == "mat" else sgf_text(match, names)
    if output:
        from bgboard.recorder import write_atomic

        try:
            write_atomic(output, text)
        except OSError as e:
            raise click.BadParameter("cannot write %s: %s" % (output, e.strerror or e),
                                     param_hint="--output") from None
    else:
        click.echo(text, nl=False)


@click.command(name="log")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder for journal.jsonl and the .mat and .sgf files.")
@port_option
@names_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the events.")
def log(out_dir, port, white, black, quiet):
    """Record everything the board commits into a folder: the raw event journal (JSON
    lines) and one .mat and .sgf per match, rewritten as games progress. Reconnects by
    itself when the link drops; started again on the same folder, it goes on where it
    stopped. Stop it with Ctrl-C."""
    from bgboard.monitor import View
    from bgboard.recorder import Recorder

    names = (check_name(white, "--white"), check_name(black, "--black"))
    view = View(names)
    link = open_link(port, reconnect=True, sync=True,
                     on_status=quiet_retries(say),
                     on_problem=lambda t: say("warning: %s" % t))
    open_port(link)  # a port missing, busy or no serial port: before any folder is made
    try:
        rec = Recorder(out_dir, names, on_problem=lambda t: say("warning: %s" % t))
    except OSError as e:
        link.close()
        raise click.UsageError("cannot record into %s: %s" % (out_dir, e)) from None

    def on_event(ev):
        rec.on_event(ev)
        view.apply(ev)
        if not quiet:
            click.echo("%6d  %s" % (ev["seq"], view.last[-1]))

    rec.attach(link)
    link.on_event = on_event
    say("recording into %s (from seq %d)" % (out_dir, rec.last_seq))
    try:
        connect(link)  # reconnects (a cable pulled) once it has had the port
        say("caught up with the board at seq %d" % rec.last_seq)
        while True:
            try:
                link.poll(1.0)
            except LinkError as e:
                if isinstance(e, VersionError):
                    raise
                say("warning: %s" % e)
                time.sleep(0.5)
    except KeyboardInterrupt:
        say("stopped; recorded up to seq %d" % rec.last_seq)
    except LinkError as e:
        raise LinkFailure(str(e)) from None
    finally:
        link.close()
        rec.close()


@click.command()
@port_option
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Folder to save them in.")
@click.option("--leave", is_flag=True,
              help="Leave them on the board (by default each is freed there once saved whole).")
def kept(port, out_dir, leave):
    """Download the journals the board has kept aside (damaged, or no longer replayable
    after a firmware update: its hello names them) into a folder, and free them on the
    board (it keeps them within a budget: past it a new one is not kept). `bgboard export`
    reads them."""
    import base64

    with session(port) as link:
        files = link.command("kept")["files"]
        if not files:
            click.echo("the board keeps no journal aside")
            return
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise click.BadParameter("cannot make %s: %s" % (out_dir, e.strerror),
                                     param_hint="--output") from None
        for name, size in files:
            data = bytearray()
            while len(data) < size:
                page = base64.b64decode(link.command("kept", name=name,
                                                     offset=len(data))["data"])
                if not page:
                    break  # it shrank under us: what there was
                data += page
                say("%s: %d of %d bytes" % (name, len(data), size))
            path = os.path.join(out_dir, name)
            try:
                with open(path + ".tmp", "wb") as f:  # the bytes as they are: damage too
                    f.write(data)
                os.replace(path + ".tmp", path)
            except OSError as e:
                raise click.BadParameter("cannot write %s: %s" % (path, e.strerror),
                                         param_hint="--output") from None
            click.echo("%s (%d bytes)" % (path, len(data)))
            if not leave and len(data) == size:  # saved whole: the board's room is freed
                link.command("kept", name=name, free=True)


COMMANDS = [log, export, kept]
