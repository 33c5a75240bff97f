"""The Jellyfish ".mat" text that GNU Backgammon imports, from the board's events.

Layout (as gnubg 1.07's importer and exporter read and write it):

- Player 0 (white) is the left column, player 1 (black) the right one; names default to
  "White" and "Black".
- ` N point match` (` 0 point match` for a money session), then per game ` Game K`, the
  names and scores line (`" %-31s"` of `"Name : score"`, then the right name and score), and
  one numbered row per move pair: `"%3d) "`, the left action padded to 28 characters (at
  least one space follows it), the right action. A row whose left player did not act (the
  right player won the opening, or answers in a row of its own) has an empty left column.
- A play is the dice, high first, and one `from/to` per die (`*` for a hit, 25 the bar, 0
  off); a roll with no legal play is the dice alone (`62:`), as is a roll the player resigned
  after. Cube actions: ` Doubles => N`, ` Takes`, ` Drops`; a beaver is ` Beavers => N` in the
  taker's column, taken implicitly by the doubler's next roll (as gnubg 1.07 exports it), a
  raccoon ` Raccoons => N` in the doubler's column with an explicit ` Takes` (see
  mat_entries for the exception).
- `Wins N point(s)` in the winner's column: on the row of the Drops when the left player
  drops a right-hand double (as gnubg exports it; formats.md: a separate line there makes
  gnubg 1.07 see an extra game), on the row of the dice when the right player wins by the
  left player's resignation after rolling, else on a line of its own.
- Rejected resignations and opening ties are not in the format. A roll its player resigned
  after is left out when it had exactly one legal play (gnubg's importer would play it).
- What .mat cannot say: automatic doubles (money), a match played without the Crawford rule
  (gnubg assumes the rule and infers the Crawford game from the scores, which is what the
  rule gives), whether a money session used the Jacoby rule (gnubg applies its own setting).
  Header comments (`; [Crawford "Off"]`, `; [Jacoby "On"]`, `; [AutoDoubles "2"]`) say so
  for the reader; the SGF file carries all of it. gnubg also stops doubling at 4096.
- The formats.md example row has the right column one character earlier (27); its rule
  text (28, column 34) is what gnubg's exporter writes, and what this writes.
- A chouette: gnubg has no format for one. Each game is written as a money game between the
  box (left) and the team (right), headed with the names of the box and the game's first
  captain; the score lines total the games as the game's cube scores them (boxes' points,
  teams' points). With a single cube the file has the team's cube actions (the team takes
  when any member took); with multiple cubes, none (each member's cube is their own). Who
  owes whom is in the journal's results. gnubg shows one pair of names for a whole file:
  the last game's.
"""

from bgboard import __version__
from bgboard.events import build_matches

DEFAULT_NAMES = ("White", "Black")
LEFT_WIDTH = 27  # "%-27s " : the right column starts at character 33 (0-based)


def clean_name(name, default):
    """A player name the format can carry: no colon (it separates name and score), no line
    breaks, at most 31 characters; empty gives the default."""
    text = " ".join(str(name or "").replace(":", " ").split())
    return text[:31] or default


def action_text(e):
    """The .mat text of one Entry (see bgboard.events)."""
    if e.kind in ("move", "roll"):
        dice = "%d%d:" % e.dice
        if not e.steps:
            return dice
        return dice + " " + " ".join("%d/%d%s" % (s, d, "*" if hit else "")
                                     for s, d, hit in e.steps)
    if e.kind == "double":
        return " Doubles => %d" % e.cube
    if e.kind == "beaver":
        return " Beavers => %d" % e.cube
    if e.kind == "raccoon":
        return " Raccoons => %d" % e.cube
    if e.kind == "take":
        return " Takes"
    if e.kind == "drop":
        return " Drops"
    if e.kind == "wins":
        return " Wins %d point%s" % (e.points, "" if e.points == 1 else "s")
    raise ValueError("no .mat text for %r" % (e.kind,))


def mat_entries(entries):
    """The entries as the .mat shows them. gnubg writes a beaver as `Beavers => N` and takes
    it implicitly when the doubler's dice follow; a raccoon (`Raccoons => N`) is taken
    explicitly. When something else follows a beaver (the doubler resigns), the beaver is a
    plain redouble with its take: gnubg's importer would otherwise carry the pending
    implicit take over to the next game's first roll. A roll its player resigned after is
    left out when it had exactly one legal play: gnubg plays that play for dice shown
    alone."""
    out = []
    n = len(entries)
    for i, e in enumerate(entries):
        if e.kind == "roll" and e.how == "forced":
            continue  # gnubg would play the only play of dice shown alone: leave them out
        if e.kind == "take" and e.how == "implied":
            prev = entries[i - 1] if i else None
            nxt = entries[i + 1] if i + 1 < n else None
            if (prev is not None and prev.kind == "beaver" and nxt is not None
                    and nxt.kind in ("move", "roll") and nxt.player == e.player):
                continue  # taken implicitly by the doubler's roll
            out.append(e._replace(how=None))
            continue
        if e.kind == "beaver":
            nxt = entries[i + 1] if i + 1 < n else None
            after = entries[i + 2] if i + 2 < n else None
            if (nxt is not None and nxt.kind == "take"
                    and not (after is not None and after.kind in ("move", "roll")
                             and after.player == nxt.player)):
                out.append(e._replace(kind="double"))
                continue
        out.append(e)
    return out


def layout(entries):
    """Rows [number or None, left text or None, right text or None] in the order played."""
    rows = []
    number = 0
    for e in mat_entries(entries):
        text = action_text(e)
        last = rows[-1] if rows else None
        if e.kind == "wins":
            if e.player == 1 and last is not None and last[2] is None and last[1] is not None:
                last[2] = text  # the row of the Drops, or of the resigner's dice
            elif e.player == 1:
                rows.append([None, None, text])
            else:
                rows.append([None, text, None])
            continue
        if e.player == 1 and last is not None and last[0] is not None and last[2] is None:
            last[2] = text
            continue
        number += 1
        rows.append([number, text, None] if e.player == 0 else [number, None, text])
    return rows


def render_row(row):
    number, left, right = row
    head = "%3d) " % number if number is not None else "     "
    if right is None:
        return (head + (left or "")).rstrip()
    return head + "%-*s " % (LEFT_WIDTH, left or "") + right


def game_lines(game, names):
    if game.names is not None:  # a chouette's game: its box and captain
        names = (clean_name(game.names[0], names[0]), clean_name(game.names[1], names[1]))
    left = "%s : %d" % (names[0], game.score[0])
    head = " %-31s" % left
    if not head.endswith(" "):
        head += " "
    lines = [" Game %d" % game.number, head + "%s : %d" % (names[1], game.score[1])]
    lines += [render_row(r) for r in layout(game.entries)]
    return lines


def header_lines(match, event=None, date=None):
    out = []
    if event:
        out.append('; [Event "%s"]' % " ".join(str(event).split()).replace('"', "'"))
    if date:
        out.append('; [EventDate "%s"]' % date)
    out.append('; [Transcriber "bgboard %s"]' % __version__)
    out.append('; [Variation "Backgammon"]')
    if match.length is None:
        out.append("; The journal begins inside this match: its length is unknown (written "
                   "as 0) and the games before are missing.")
    elif match.length:
        out.append('; [Crawford "%s"]' % ("On" if match.rule("crawford", True) else "Off"))
    else:
        if match.chouette:
            out.append("; A chouette of %s: each game is the box (left) against the team "
                       "(right, named by its captain)." % ", ".join(
                           clean_name(p, "?") for p in match.players))
            out.append("; %s. Who owes whom is in the journal (bgboard monitor shows it)."
                       % ("The members' own cubes are not in this file" if
                          match.multiple_cubes else "The team takes when any member took"))
        if match.limit:
            out.append("; A match over %d games, decided by the total points (gnubg reads it "
                       "as a money session)." % match.limit)
        out.append('; [Jacoby "%s"]' % ("On" if match.rule("jacoby") else "Off"))
        out.append('; [Beaver "%s"]' % ("On" if match.rule("beavers") else "Off"))
        if match.rule("automatic_doubles", 0):
            out.append('; [AutoDoubles "%d"]' % match.rule("automatic_doubles", 0))
    if match.rule("shut_out_pass"):
        out.append("; A shut-out player passed without a throw (rule option shut_out_pass): "
                   "such a pass is written as 11: (no dice enter a closed board).")
    cap = match.rule("cube_cap", None)
    if cap:
        out.append('; [CubeLimit "%d"]' % cap)
    return out


def mat_text(match, names=DEFAULT_NAMES, event=None, date=None):
    """The .mat text of a MatchLog (bgboard.events.build_matches). Games in progress are
    written as far as they have been played."""
    names = (clean_name(names[0], DEFAULT_NAMES[0]), clean_name(names[1], DEFAULT_NAMES[1]))
    length = match.length or 0
    lines = header_lines(match, event, date)
    lines += ["", " %d point match" % length, ""]
    for game in match.games:
        lines += game_lines(game, names)
        lines.append("")
    return "\n".join(lines) + "\n"


def mat_files(events, names=DEFAULT_NAMES, problems=None):
    """[(MatchLog, .mat text)] for every match or session in `events`."""
    return [(m, mat_text(m, names)) for m in build_matches(events, problems)]
