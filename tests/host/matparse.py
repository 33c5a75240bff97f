"""A small reader of .mat text for the tests, written apart from bgboard.matfile (it finds
actions by their text and columns, not by the writer's rules), and a replay of what it reads
through bgcore: every play legal for its dice.
"""

import re

from bgcore import Position, legal_plays

ACTION = re.compile(
    r"(?P<move>(?P<dice>[1-6][1-6]):(?P<steps>(?: \d+/\d+\*?)*))"
    r"|(?P<cube>(?:Doubles|Beavers|Raccoons) => (?P<value>\d+))"
    r"|(?P<answer>Takes|Drops)"
    r"|(?P<wins>Wins (?P<points>\d+) points?)")

RIGHT_COLUMN = 33


class MatGame:
    def __init__(self, number, names, score):
        self.number = number
        self.names = names
        self.score = score
        self.actions = []  # (player, kind, data)


def parse(text):
    """(length, [MatGame]) from .mat text; raises AssertionError on anything unexpected."""
    length = None
    games = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.startswith(";"):
            continue
        m = re.fullmatch(r" (\d+) point match", line)
        if m:
            assert length is None, "two match headers"
            length = int(m.group(1))
            continue
        m = re.fullmatch(r" Game (\d+)", line)
        if m:
            head = lines[i]
            i += 1
            h = re.fullmatch(r" (.+?) : (\d+) +(.+?) : (\d+)", head)
            assert h, "bad names line %r" % head
            assert head.index(h.group(3)) >= 32, "right name before column 32: %r" % head
            games.append(MatGame(int(m.group(1)), (h.group(1), h.group(3)),
                                 [int(h.group(2)), int(h.group(4))]))
            continue
        assert games, "a line before the first game: %r" % line
        _row(games[-1], line)
    assert length is not None, "no ' N point match' line"
    return length, games


def _row(game, line):
    m = re.match(r"( *\d+\) )", line)
    if m:
        assert len(m.group(1)) == 5, "row number not %%3d): %r" % line
        start = 5
    else:
        assert line.startswith("     "), "unnumbered line not indented: %r" % line
        start = 0
    found = list(ACTION.finditer(line, start))
    covered = "".join(line[a.start():a.end()] for a in found)
    assert covered.replace(" ", "") == line[start:].replace(" ", ""), \
        "text that is no action in %r" % line
    assert len(found) in (1, 2), "not one or two actions: %r" % line
    for k, a in enumerate(found):
        at = a.start()
        if k == 0 and at <= 6 and start == 5 or (start == 0 and at < RIGHT_COLUMN):
            player = 0
            if start == 5:
                assert at == (5 if a.group("move") else 6), "left action misplaced: %r" % line
        else:
            player = 1
            if k == 0:
                assert at == RIGHT_COLUMN + (0 if a.group("move") else 1), \
                    "right action not at column %d: %r" % (RIGHT_COLUMN, line)
            else:
                before = line[:at]
                assert at >= RIGHT_COLUMN and before.endswith(" "), \
                    "right action not separated: %r" % line
                if len(before.rstrip()) <= RIGHT_COLUMN - 1:
                    assert at == RIGHT_COLUMN + (0 if a.group("move") else 1), \
                        "right action not at column %d: %r" % (RIGHT_COLUMN, line)
        if k == 1:
            assert found[0].end() < at, line
        if a.group("move"):
            dice = (int(a.group("dice")[0]), int(a.group("dice")[1]))
            steps = []
            for s in a.group("steps").split():
                hit = s.endswith("*")
                src, dst = s.rstrip("*").split("/")
                steps.append((int(src), int(dst), hit))
            game.actions.append((player, "move", (dice, steps)))
        elif a.group("cube"):
            word = a.group("cube").split()[0].lower()
            game.actions.append((player, word, int(a.group("value"))))
        elif a.group("answer"):
            game.actions.append((player, a.group("answer").lower(), None))
        else:
            game.actions.append((player, "wins", int(a.group("points"))))


def _assign_dice(steps, dice):
    """True when each step can use its own die of the roll (a bear-off may use a higher die
    than its distance)."""
    pool = list(dice) * (2 if dice[0] == dice[1] else 1)

    def go(k, left):
        if k == len(steps):
            return True
        src, dst, _ = steps[k]
        dist = src - dst
        for j, d in enumerate(left):
            if d == dist or (dst == 0 and d > dist):
                if go(k + 1, left[:j] + left[j + 1:]):
                    return True
        return False

    return go(0, pool)


def replay(game):
    """Replay a MatGame through bgcore: each play legal for its dice (a play that is one of
    legal_plays' results, each step on a die of the roll, hits where marked), dice alone only
    for a roll with no legal play or one the player resigned after; players alternate.
    Returns (winner, points) or None while the game goes on, and the number of plays."""
    sides = [list(Position.initial().mover), list(Position.initial().mover)]
    last_mover = None
    plays = 0
    actions = game.actions
    for k, (player, kind, data) in enumerate(actions):
        if kind != "move":
            if kind == "wins":
                assert k == len(actions) - 1, "actions after Wins in game %d" % game.number
                return (player, data), plays
            continue
        dice, steps = data
        if last_mover is not None:
            assert player != last_mover, "player %d moves twice in game %d" % (player,
                                                                              game.number)
        last_mover = player
        me, opp = sides[player], sides[1 - player]
        start = Position(me, opp)
        results = legal_plays(start, dice)
        if not steps:
            nxt = actions[k + 1] if k + 1 < len(actions) else None
            resigned = nxt is not None and nxt[1] == "wins" and nxt[0] != player
            assert not results or resigned, \
                "game %d: %d%d shown alone though it has legal plays" % ((game.number,) + dice)
            continue
        plays += 1
        assert _assign_dice(steps, dice), "game %d: %s do not fit the dice %d%d" % (
            (game.number, steps) + dice)
        for src, dst, hit in steps:
            assert me[src] > 0, "game %d: no checker on %d" % (game.number, src)
            if dst:
                there = opp[25 - dst]
                assert there <= 1, "game %d: %d is blocked" % (game.number, dst)
                assert hit == (there == 1), "game %d: hit mark wrong at %d" % (game.number, dst)
            else:
                assert not hit
            me[src] -= 1
            me[dst] += 1
            if hit:
                opp[25 - dst] -= 1
                opp[25] += 1
        end = Position(me, opp)
        assert end in results, "game %d: %d%d %s is not a legal play" % (
            (game.number,) + dice + (steps,))
    return None, plays
