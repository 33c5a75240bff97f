"""The analysis of a match played against `bgboard engine` (a part of
bgboard.engine_driver.EngineDriver, and `analyse_logged` for --autoplay): on a board, the
match the engine played is written (.mat, .sgf) when it ends and gnubg analyses it in a
process and a thread of their own (bgboard.analysis) while the engine's gnubg goes on
answering; the page shows how far it got and links to it."""

import os

import click

from bgboard.cli_common import say

# On a board, each match played against the engine is written here when it ends (its .mat,
# .sgf and gnubg's analysis of it), unless --log names another folder.
MATCHES_DIR = os.path.join(os.path.expanduser("~"), ".local", "state", "bgboard", "matches")


class MatchAnalysis:
    """The analysis part of the engine's driver: it uses the driver's `link` (its journal
    id names the files), `say` and `_changed()` (the coach's page)."""

    def _init_analysis(self, analysis_dir=None, names=None):
        # A match played here that ends: its .mat and .sgf are written into analysis_dir
        # and gnubg analyses it there (in a gnubg and a thread of their own: the engine's
        # process goes on answering). `analysis` is what the page shows of it.
        self.analysis_dir = analysis_dir
        self.names = names
        self.analysis = None  # {"state": "running"/"ready"/"failed", "name", "text", ...}
        self._match_events = []  # of the match in progress, from its `match` event
        self._played_here = False  # the engine acted in it (not a match replayed at connect)
        self._analysis_news = False  # the analysis thread changed `analysis`
        self._analyser = None

    def _analysis_step(self):
        """From the driver's step(): say what the analysis thread finished."""
        if self._analysis_news:
            self._analysis_news = False
            a = self.analysis
            if a is not None and a["state"] != "running":
                self.say("analysis of %s: %s" % (a["mat"], a["text"]))
            self._changed()

    def _keep(self, ev):
        kind = ev["ev"]
        if kind == "match":
            self._match_events = [ev]
            self._played_here = False
            return
        if not self._match_events:
            return
        self._match_events.append(ev)
        if kind == "match_over" and self._played_here:
            events, self._match_events = self._match_events, []
            self._analyse(events)

    def _analyse(self, events):
        """Write the finished match's .mat and .sgf and start gnubg's analysis of it."""
        import threading

        from bgboard.events import build_matches
        from bgboard.matfile import DEFAULT_NAMES, mat_text
        from bgboard.recorder import write_atomic
        from bgboard.sgf import sgf_text

        names = self.names or DEFAULT_NAMES
        matches = build_matches(events)
        if not matches:
            return
        match = matches[-1]
        kind = "money" if match.length == 0 else "match"
        journal = getattr(self.link, "journal", None) or "0"
        base = "%s-%s-%06d" % (kind, journal, match.first_seq)
        try:
            os.makedirs(self.analysis_dir, exist_ok=True)
            path = os.path.join(self.analysis_dir, base + ".mat")
            write_atomic(path, mat_text(match, names))
            write_atomic(os.path.join(self.analysis_dir, base + ".sgf"),
                         sgf_text(match, names))
        except OSError as e:
            self.say("analysis: cannot write the match into %s: %s" % (self.analysis_dir, e))
            return
        self.analysis = {"state": "running", "name": base, "mat": base + ".mat",
                         "text": "gnubg is analysing the match"}
        self._changed()
        self._analyser = threading.Thread(target=self._run_analysis, args=(path, base),
                                          name="bgboard-analysis", daemon=True)
        self._analyser.start()

    def _run_analysis(self, path, base):
        # The analysis thread: `analysis` is replaced whole, step() tells the page.
        from bgboard.analysis import analyse_file

        def progress(game, games, plays):
            self.analysis = dict(self.analysis, game=game, games=games,
                                 text="gnubg is analysing game %d of %d" % (game, games))
            self._analysis_news = True

        try:
            summary, _, html_path = analyse_file(path, self.analysis_dir, progress)
        except Exception as e:  # noqa: B902 - said; the match's files are written already
            self.analysis = {"state": "failed", "name": base, "mat": base + ".mat",
                             "text": "the analysis failed: %s" % e}
        else:
            self.analysis = {"state": "ready", "name": base, "mat": base + ".mat",
                             "html": os.path.basename(html_path),
                             "json": base + ".analysis.json",
                             "text": "; ".join(
                                 "%s %.1f mEMG (%s)" % (p["name"], p["overall"]["error_rate_memg"],
                                                       p["overall"]["rating"])
                                 for p in summary["players"])}
        self._analysis_news = True

    def analysis_view(self):
        return dict(self.analysis) if self.analysis is not None else None


def analyse_logged(path):
    """gnubg's analysis of a logged match, after the logs are closed: its progress and its
    result said; a failure is said in one line and changes nothing else (the logs never
    need it)."""
    from bgboard.analyse_cmd import progress_printer, summary_lines
    from bgboard.analysis import analyse_file

    try:
        summary, json_path, html_path = analyse_file(path, on_progress=progress_printer())
    except Exception as e:  # noqa: B902 - the match is played and logged all the same
        say("warning: no analysis of %s: %s" % (os.path.basename(path), e))
        return False
    for line in summary_lines(summary):
        click.echo(line)
    click.echo("analysis: %s, %s" % (json_path, html_path))
    return True
