"""SGF for backgammon (GM[6]), as GNU Backgammon saves and loads it (`load match FILE`).

One game tree per game, as gnubg writes a match:

    (;FF[4]GM[6]CA[UTF-8]AP[bgboard:0.1.0]MI[length:7][game:0][ws:0][bs:0]PW[White]PB[Black]
    RU[Crawford]RE[W+2]
    ;W[31hefe]
    ;B[double]
    ...)

- PW is player 0 (white), PB player 1 (black). MI gives the match length (0: a money
  session), the game's index from 0 (gnubg counts from 0) and the scores before it.
- RU[Crawford] in a match played with the Crawford rule (RU[Crawford:CrawfordGame] for the
  Crawford game itself), RU[Jacoby] in a money session played with it. CV[n]: the cube after
  automatic doubles. RE[W+n] / RE[B+n], with a trailing R when the loser resigned; absent
  while the game is being played.
- A move node is the dice (high first) and a letter pair per die moved, the points in
  White's numbering: a is White's 1-point ... x White's 24-point, y the bar, z off. A roll
  with no legal play is the dice alone (B[66]); a roll its player resigned after, without
  playing, is `PL[W]DI[52]`. Cube nodes: W[double], B[take], B[drop]; a beaver is a double
  by the taker taken by the doubler, a raccoon a further double taken by the beaverer (as
  gnubg's cube model has it).
- A chouette's game is the box (PW) against the team (PB, named by its first captain), as
  in the .mat (bgboard.matfile says what is left out); a game that ended when every
  member's stake was settled (multiple cubes) has no drop of its own: its RE has the R.
- gnubg 1.07 reads these with `load match FILE` (it has no `import sgf`). It may drop the
  first game of a file when that game was resigned after at most one checker play (its own
  saved files too); the .mat file has no such trouble.
"""

from bgboard import __version__
from bgboard.events import build_matches
from bgboard.matfile import DEFAULT_NAMES, clean_name

COLOURS = "WB"


def point_letter(player, p):
    """The SGF letter of point p (0 off, 25 the bar) in `player`'s own numbering."""
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    white_point = p if player == 0 else 25 - p
    return chr(ord("a") + white_point - 1)


def escape(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def node(e):
    c = COLOURS[e.player]
    if e.kind == "move":
        return ";%s[%d%d%s]" % (c, e.dice[0], e.dice[1], "".join(
            point_letter(e.player, s) + point_letter(e.player, d) for s, d, _ in e.steps))
    if e.kind == "roll":
        return ";PL[%s]DI[%d%d]" % (c, e.dice[0], e.dice[1])
    if e.kind in ("double", "beaver", "raccoon"):
        return ";%s[double]" % c
    if e.kind in ("take", "drop"):
        return ";%s[%s]" % (c, e.kind)
    return None  # wins: the root's RE says it


def game_tree(match, game, names):
    if game.names is not None:  # a chouette's game: the box (white) and the captain
        names = (clean_name(game.names[0], names[0]), clean_name(game.names[1], names[1]))
    length = match.length or 0
    props = [
        "FF[4]GM[6]CA[UTF-8]AP[bgboard:%s]" % __version__,
        "MI[length:%d][game:%d][ws:%d][bs:%d]" % (length, game.number - 1, game.score[0],
                                                  game.score[1]),
        "PW[%s]PB[%s]" % (escape(names[0]), escape(names[1])),
    ]
    if length:
        if match.rule("crawford", True):
            props.append("RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]")
    elif match.rule("jacoby"):
        props.append("RU[Jacoby]")
    if game.cube_start > 1:
        props.append("CV[%d]" % game.cube_start)
    r = game.result
    if r is not None:
        # A chouette's game with multiple cubes ends "dropped" when every member's stake is
        # settled, with no drop of the game's own: gnubg counts it only as a resignation.
        gave_up = r["how"] == "resigned" or (r["how"] == "dropped" and not any(
            e.kind == "drop" for e in game.entries))
        props.append("RE[%s+%d%s]" % (COLOURS[r["winner"]], r["points"],
                                      "R" if gave_up else ""))
    nodes = [n for n in (node(e) for e in game.entries) if n]
    return "(;" + "".join(props) + "".join("\n" + n for n in nodes) + ")\n"


def sgf_text(match, names=DEFAULT_NAMES):
    """The SGF collection of a MatchLog (bgboard.events.build_matches)."""
    names = (clean_name(names[0], DEFAULT_NAMES[0]), clean_name(names[1], DEFAULT_NAMES[1]))
    return "".join(game_tree(match, g, names) for g in match.games)


def sgf_files(events, names=DEFAULT_NAMES, problems=None):
    return [(m, sgf_text(m, names)) for m in build_matches(events, problems)]
