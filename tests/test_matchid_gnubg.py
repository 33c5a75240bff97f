"""Match IDs against real GNU Backgammon (CPython only).

Each scenario is a list of actions applied both to a bgcore Match and, as commands, to
gnubg 1.07 (`gnubg -t`, both players human). The opening throw is gnubg's own (seeded):
a first run reads it ("gnubg rolls 2, root rolls 5."), and the bgcore game throws the same
dice, ties included. After the actions, the Match ID and Position ID gnubg shows must equal
bgcore's, and bgcore's decoder must read gnubg's Match ID as bgcore's fields.
"""

import os
import re
import subprocess

import pytest

from bgcore import Game, Match, Rules, decode_match_id, encode_match_id, plays_with_steps
from bgcore.position import Position

GNUBG = "/usr/games/gnubg"

# Installed by make system-deps: without it the tests fail (a missing tool is no skip).

PRELUDE = [
    "set player 0 human",
    "set player 1 human",
    "set automatic game off",
    "set automatic roll off",
]
_ROLLS = re.compile(r"^\S+ rolls (\d), \S+ rolls (\d)\.$", re.M)
_GNUBG_ERRORS = ("Illegal or unparsable move", "Unknown keyword", "You can't", "You cannot",
                 "not a legal", "No game in progress", "Invalid")


def _run_gnubg(home, lines):
    path = os.path.join(home, "cmds")
    with open(path, "w") as f:
        f.write("\n".join(PRELUDE + lines) + "\n")
    out = subprocess.run([GNUBG, "-t", "-q", "-r", "-c", path], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=30,
                         env=dict(os.environ, HOME=home)).stdout
    return out


def _last(pattern, text):
    found = re.findall(pattern, text)
    assert found, "gnubg printed no %s:\n%s" % (pattern, text[-2000:])
    return found[-1]


def _move_text(steps):
    def point(p):
        return "off" if p == 0 else "bar" if p == 25 else str(p)
    return " ".join("%s/%s" % (point(s.src), point(s.dst)) for s in steps)


def _play(match):
    """The first legal play (by Position ID) of the roll on the board: bgcore plays it, the
    gnubg command is returned."""
    game = match.game
    found = plays_with_steps(game.turn.start, game.turn.dice)
    assert found, "scenario needs a roll with a legal play"
    _, steps = found[0]
    for s in steps:
        game.move(s.src, s.dst)
    return "move " + _move_text(steps)


def _apply(match, action):
    """Apply one action to the bgcore match; returns the gnubg command(s) doing the same."""
    g = match.game
    name, args = action[0], action[1:]
    if name == "play":
        return [_play(match)]
    if name == "roll":
        g.roll(args)
        return ["set dice %d %d" % args]
    if name in ("double", "take", "drop"):
        getattr(g, name)()
        return [name]
    if name == "beaver":  # gnubg: the taker redoubles, the doubler accepts the beaver
        g.beaver()
        return ["beaver", "take"]
    if name == "resign":
        g.resign(args[0])
        return ["resign " + "sgb"[args[0] - 1]]
    if name == "accept":
        g.accept_resignation()
        return ["accept"]
    if name == "reject":
        g.reject_resignation()
        return ["reject"]
    raise AssertionError(name)


# name, gnubg commands that start it, bgcore Match factory, actions
SCENARIOS = [
    ("opening of a 7-point match", ["new match 7"], lambda: Match(7), []),
    ("1-point match", ["new match 1"], lambda: Match(1), [("play",)]),
    ("double offered, taken, next roll", ["new match 7"], lambda: Match(7),
     [("play",), ("double",), "check", ("take",), "check", ("roll", 3, 1), "check",
      ("play",)]),
    ("redoubles to 4, owned", ["new match 11"], lambda: Match(11),
     [("play",), ("double",), ("take",), ("roll", 4, 2), ("play",), ("double",), ("take",),
      ("roll", 6, 5), "check", ("play",)]),
    ("double dropped", ["new match 5"], lambda: Match(5),
     [("play",), ("double",), ("drop",)]),
    ("resignations offered, rejected, accepted", ["new match 5"], lambda: Match(5),
     [("play",), ("resign", 2), "check", ("reject",), "check", ("resign", 3), ("accept",)]),
    ("single resigned after the roll, dice shown", ["new match 5"], lambda: Match(5),
     [("resign", 1), "check", ("accept",)]),
    ("post-Crawford 8-4 in 9", ["new match 9", "set score 8 4", "set postcrawford on"],
     lambda: Match(9, score=(8, 4)), [("play",), ("roll", 4, 3), ("play",), "check",
                                      ("double",)]),
    ("Crawford game 6-3 in 7", ["new match 7", "set score 6 3", "set crawford on"],
     lambda: Match(7, score=(6, 3), crawford=True), [("play",), ("roll", 5, 5)]),
    ("Crawford game, the other side at 6", ["new match 7", "set score 2 6",
                                            "set crawford on"],
     lambda: Match(7, score=(2, 6), crawford=True), [("play",)]),
    ("scores 20-17 of 25, doubled", ["new match 25", "set score 20 17"],
     lambda: Match(25, score=(20, 17)), [("play",), ("double",), ("take",)]),
    ("money, Jacoby on, beaver", ["set jacoby on", "new session"],
     lambda: Match(0, Rules(jacoby=True, beavers=True)),
     [("play",), ("double",), ("beaver",), "check", ("roll", 2, 1), ("play",)]),
    ("money, Jacoby off, cube past 64", ["set jacoby off", "new session"],
     lambda: Match(0),
     [("play",)] + [("double",), ("take",), ("roll", 2, 1), ("play",)] * 7),
    ("gammon borne off with the cube on 2", ["new match 3"], None,
     [("play",), ("double",), ("take",), ("roll", 3, 1), ("play",), ("roll", 2, 1),
      ("play",)]),
]

def _bearoff_position():
    # The side that wins the opening has three checkers on its ace point, the other side
    # fifteen on its six point.
    return Position([0, 3] + [0] * 24, [0] * 6 + [15] + [0] * 19)


def _opening(home, start_cmds, seed):
    out = _run_gnubg(home, ["set seed %d" % seed] + start_cmds)
    rolls = [(int(a), int(b)) for a, b in _ROLLS.findall(out)]
    assert rolls, out[-2000:]
    return rolls


@pytest.mark.parametrize("index", range(len(SCENARIOS)), ids=[s[0] for s in SCENARIOS])
def test_match_ids_agree_with_gnubg(tmp_path, index):
    name, start_cmds, factory, actions = SCENARIOS[index]
    home = str(tmp_path)
    seed = 100 + index
    rolls = _opening(home, start_cmds, seed)
    cmds = ["set seed %d" % seed] + list(start_cmds)
    if factory is None:  # the bear-off game
        match = Match(3)
        first = 0 if rolls[-1][0] > rolls[-1][1] else 1
        mover = _bearoff_position()
        match.game = Game(match.rules, money=False,
                          position=mover if first == 0 else mover.swapped())
        cmds.append("set board %s" % mover.to_id())
    else:
        match = factory()
    for dice in rolls:
        match.game.roll(dice)
    checks = 0
    for action in actions + ["check"]:
        if action == "check":
            checks += 1
            _compare(home, cmds, match, "%s, check %d" % (name, checks))
            continue
        cmds.extend(_apply(match, action))


def _compare(home, cmds, match, what):
    out = _run_gnubg(home, cmds + ["show board"])
    for err in _GNUBG_ERRORS:
        assert err not in out, "%s: gnubg said %r:\n%s" % (what, err, out[-3000:])
    gnubg_id = _last(r"Match ID   : (\S{12})", out)
    gnubg_pos = _last(r"Position ID: (\S{14})", out)
    ours = match.id_fields()
    assert encode_match_id(ours) == gnubg_id, "%s: ours %s %r, gnubg %s %r" % (
        what, encode_match_id(ours), ours, gnubg_id, decode_match_id(gnubg_id))
    assert decode_match_id(gnubg_id) == ours, what
    assert match.game.position.to_id() == gnubg_pos, what


def test_crawford_game_refuses_the_double_like_gnubg(tmp_path):
    home = str(tmp_path)
    out = _run_gnubg(home, ["new match 7", "set score 6 3", "set crawford on", "double"])
    assert "forbidden by the Crawford rule" in out
    m = Match(7, score=(6, 3), crawford=True)
    m.game.roll((6, 1))
    play = plays_with_steps(m.game.turn.start, (6, 1))[0][1]
    for s in play:
        m.game.move(s.src, s.dst)
    assert not m.game.can("double") and "Crawford" in m.game.why_not_double()


def test_a_dead_cube_is_refused_like_gnubg(tmp_path):
    home = str(tmp_path)
    for score, cube, owner, dead in (("5 4", 4, 0, True), ("5 4", 2, 0, False),
                                     ("6 2", 8, 1, True), ("6 2", 4, 1, False)):
        out = _run_gnubg(home, ["new match 9", "set score " + score, "set cube value %d" % cube,
                                "set cube owner %d" % owner, "set turn %d" % owner, "double"])
        assert ("The cube is dead" in out) == dead, (score, cube, out[-500:])
        mid = encode_match_id({
            "cube": cube, "cube_owner": owner, "on_roll": owner, "crawford": False,
            "game_state": "playing", "turn": owner, "double_offered": False, "resignation": 0,
            "dice": [], "match_length": 9, "score": [int(x) for x in score.split()],
            "jacoby": False})
        m = Match.from_match_id(mid, rules=Rules(dead_cube=True))  # gnubg's rule, as an option
        assert m.game.can("double") != dead, (score, cube, m.game.why_not_double())
        # By default the cube may be turned dead too (5-4 in 9: 4 gives player 0 the match,
        # not player 1; 6-2: 8 gives both), up to the cube's last face, 64.
        assert Match.from_match_id(mid).game.can("double"), score
