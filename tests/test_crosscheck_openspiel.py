# Cross-check of bgcore's legal-play generator against an independent implementation:
# OpenSpiel's backgammon (PyPI open-spiel, `import pyspiel`). CPython only.
#
# Random games are played in OpenSpiel (seeded). At every roll the whole tree of the mover's
# OpenSpiel decisions is explored to collect the distinct positions the roll can lead to;
# bgcore.legal_plays must give exactly the same set. Positions where some roll can only be
# played in part (where the higher-die rule lives) are rare in the games' own rolls, so for
# some of those all 21 rolls are compared too. A sample of the rolls also checks that
# bgcore.Turn, driven only through destinations / paths / move / undo as the board drives
# it, reaches exactly the positions legal_plays lists.
#
# OpenSpiel's conventions (read from open_spiel/games/backgammon/backgammon.cc, 2.0.2):
# - board(player, i), i = 0..23, counts `player`'s checkers on absolute point i; board(player,
#   100) is that player's bar. Player 0 (x) moves from 0 towards 23, so its point p is index
#   24 - p; player 1 (o) moves from 23 towards 0, so its point p is index p - 1. Borne-off
#   counts ("scores") are only in the observation tensor (see _off).
# - An action is two checker moves (either may be a pass: pos -1); a roll with no play is a
#   single all-pass action.
# - Doubles are two half-turns: the mover plays two dice, and if both were used plays two
#   more (no chance node in between; current_player() stays the mover).
# - Several actions may reach the same position (orders of the same moves): results are
#   deduplicated by position.
# - Each half-turn enforces "use as many dice as possible" on its own, so for a double
#   OpenSpiel would accept a first half after which fewer dice can be played in the second
#   half than after another first half, if such a position exists. The rules (and bgcore)
#   count all four dice together, so of OpenSpiel's results only those reached by a play
#   using the most dice are compared; the coverage test prints how often that dropped any
#   (never, in these games).

import random
import time

import pyspiel

from bgcore import Position, Turn, legal_plays, notation, plays_with_steps

SEED = 20260611
GAME_ROLLS = 2000  # rolls played in the games, each compared with OpenSpiel
# Before a position where some roll plays only one die, compare all 21 rolls this often:
ALL_ROLLS_RATE = 1 / 2
TURN_SAMPLE = 500  # of which this many also drive bgcore.Turn through every play

OS_BAR = 100  # OpenSpiel's index of the bar in board(player, index)
OS_PASS = -1  # a CheckerMove.pos that moves nothing
# ObservationTensor(0) layout: 4 * 24 features for player 0, 4 * 24 for player 1, then
# bar, borne off, on-roll flag for player 0, the same for player 1, then the two dice.
_TENSOR_OFF = {0: 193, 1: 196}
_TENSOR_DICE = (198, 199)

GAME = pyspiel.load_game("backgammon")


# --- OpenSpiel -> bgcore ----------------------------------------------------------------------


def _os_index(player, p):
    """OpenSpiel's board index of `player`'s own point p (1..24)."""
    return 24 - p if player == 0 else p - 1


def _off(state, player):
    return int(state.observation_tensor(0)[_TENSOR_OFF[player]])


def _side(state, player):
    counts = [0] * 26
    for p in range(1, 25):
        counts[p] = state.board(player, _os_index(player, p))
    counts[25] = state.board(player, OS_BAR)
    off = _off(state, player)
    assert sum(counts) + off == 15, (
        "conversion error: player %d has %d checkers on board/bar and %d off\n%s"
        % (player, sum(counts), off, state)
    )
    counts[0] = off
    return counts


def to_position(state, mover):
    """The OpenSpiel state as a bgcore Position with `mover` in the mover half."""
    return Position(_side(state, mover), _side(state, 1 - mover))


def os_dice(state):
    t = state.observation_tensor(0)
    return (int(t[_TENSOR_DICE[0]]), int(t[_TENSOR_DICE[1]]))


def _dice_used(state, player, action):
    return sum(1 for m in state.spiel_move_to_checker_moves(player, action) if m.pos != OS_PASS)


def openspiel_plays(state):
    """Explore every OpenSpiel decision of the mover for the roll at `state` (a decision node
    at the start of a turn) until the turn passes.

    Returns (kept, dropped, most): kept maps each end Position reached by a play that uses
    the most dice to one such play (a tuple of OpenSpiel action strings); dropped holds the
    end positions OpenSpiel offers only through plays using fewer dice; most is that number
    of dice (0 when the only action is OpenSpiel's pass).
    """
    mover = state.current_player()
    ends = {}  # Position -> {dice used: action strings of one play}
    seen = set()

    def walk(s, used, path):
        if s.is_terminal() or s.is_chance_node() or s.current_player() != mover:
            ends.setdefault(to_position(s, mover), {}).setdefault(used, path)
            return
        key = (str(s), used)
        if key in seen:
            return
        seen.add(key)
        for action in s.legal_actions():
            walk(
                s.child(action),
                used + _dice_used(s, mover, action),
                path + (s.action_to_string(mover, action),),
            )

    walk(state, 0, ())
    most = max(u for by_used in ends.values() for u in by_used)
    kept = {pos: by_used[most] for pos, by_used in ends.items() if most in by_used}
    dropped = {pos for pos in ends if pos not in kept}
    return kept, dropped, most


def _state_after(state, mover, actions_by_string):
    """Replay one play (OpenSpiel action strings) from `state`."""
    s = state.clone()
    for text in actions_by_string:
        match = [a for a in s.legal_actions() if s.action_to_string(mover, a) == text]
        s.apply_action(match[0])
    return s


# --- collecting situations -------------------------------------------------------------------


class Situation:
    __slots__ = ("index", "state", "position", "dice", "openspiel", "dropped", "most", "group")

    def __init__(self, index, state, position, dice, openspiel, dropped, most, group):
        self.index = index
        self.state = state  # the OpenSpiel state at the start of the roll
        self.position = position
        self.dice = dice
        self.openspiel = openspiel  # Position -> OpenSpiel action strings of one play
        self.dropped = dropped
        self.most = most
        self.group = group  # None for a game's own roll, else the all-rolls group number

    def expected(self):
        """OpenSpiel's result set in legal_plays' terms: no legal play is an empty list,
        where OpenSpiel's pass leaves the position unchanged."""
        if self.most == 0:
            assert set(self.openspiel) == {self.position}
            return set()
        return set(self.openspiel)

    def describe(self):
        return "situation #%d: Position ID %s, dice %d-%d" % (
            self.index, self.position.to_id(), self.dice[0], self.dice[1])


def _situation(out, state, group):
    mover = state.current_player()
    kept, dropped, most = openspiel_plays(state)
    sit = Situation(len(out), state.clone(), to_position(state, mover), os_dice(state), kept,
                    dropped, most, group)
    out.append(sit)
    return sit


def _worth_all_rolls(chance_state):
    # Positions where the rules bite: some non-double can be played only in part (OpenSpiel
    # offers an action that moves one checker and passes). There the higher-die rule and
    # partly played doubles occur; such positions are rare in the games' own rolls.
    for outcome, _ in chance_state.chance_outcomes():
        state = chance_state.child(outcome)
        a, b = os_dice(state)
        if a == b:
            continue
        mover = state.current_player()
        for action in state.legal_actions():
            moves = state.spiel_move_to_checker_moves(mover, action)
            if sum(1 for m in moves if m.pos == OS_PASS) == 1:
                return True
    return False


_CACHE = {}


def situations():
    """GAME_ROLLS rolls from seeded random OpenSpiel games (each player picks a uniformly
    random distinct result) and, for some positions met on the way, all 21 rolls; computed
    once per test session."""
    if "all" in _CACHE:
        return _CACHE["all"]
    rng = random.Random(SEED)
    out = []
    games = 0
    groups = 0
    game_rolls = 0
    started = time.perf_counter()
    while game_rolls < GAME_ROLLS:
        games += 1
        state = GAME.new_initial_state()
        while not state.is_terminal() and game_rolls < GAME_ROLLS:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = outcomes[rng.randrange(len(outcomes))][0]
                if (state.history() and rng.random() < ALL_ROLLS_RATE
                        and _worth_all_rolls(state)):
                    rolled = set()
                    for outcome, _ in outcomes:
                        child = state.child(outcome)
                        dice = tuple(sorted(os_dice(child)))
                        if dice not in rolled:
                            rolled.add(dice)
                            _situation(out, child, groups)
                    groups += 1
                state.apply_action(pick)
                continue
            mover = state.current_player()
            sit = _situation(out, state, None)
            game_rolls += 1
            choices = sorted(sit.openspiel, key=Position.to_id)
            play = sit.openspiel[choices[rng.randrange(len(choices))]]
            state = _state_after(state, mover, play)
    _CACHE["all"] = out
    _CACHE["games"] = games
    _CACHE["groups"] = groups
    _CACHE["collect_seconds"] = time.perf_counter() - started
    return out


# --- coverage ------------------------------------------------------------------------------


def _categories(sit, most_by_group):
    start = sit.position
    ends = sit.openspiel
    high, low = max(sit.dice), min(sit.dice)
    full = 4 if high == low else 2
    cats = set()
    if high == low:
        cats.add("doubles")
    if start.mover[25]:
        cats.add("bar entry")
    if start.mover[25] > 1:
        cats.add("two or more on the bar")
    if any(e.opponent[25] > start.opponent[25] for e in ends):
        cats.add("hits")
    if any(e.mover[0] > start.mover[0] for e in ends):
        cats.add("bear-offs")
    if sit.most == 0:
        cats.add("no legal play")
    elif sit.most < full:
        cats.add("only part of the roll playable")
    if sit.group is not None and high != low and sit.most == 1:
        # Each die can be played alone (its double plays at least one step) but not both:
        # the rules demand the higher one.
        if most_by_group[sit.group, high] and most_by_group[sit.group, low]:
            cats.add("either die alone, not both")
    if sit.dropped:
        cats.add("OpenSpiel half-turn extras dropped")
    return cats


def _all_categories(sits):
    most_by_group = {}
    for sit in sits:
        if sit.group is not None and sit.dice[0] == sit.dice[1]:
            most_by_group[sit.group, sit.dice[0]] = sit.most
    return [_categories(sit, most_by_group) for sit in sits]


def _coverage(sits):
    counts = {}
    for cats in _all_categories(sits):
        for c in cats:
            counts[c] = counts.get(c, 0) + 1
    return counts


# Each kind of situation must occur at least this often among the compared rolls.
MIN_COVERAGE = {
    "doubles": 300,
    "bar entry": 300,
    "two or more on the bar": 50,
    "hits": 500,
    "bear-offs": 150,
    "no legal play": 50,
    "only part of the roll playable": 30,
    "either die alone, not both": 40,
}


def test_conversion_of_the_starting_position():
    # Whoever starts, OpenSpiel's opening position is bgcore's initial one, and every one
    # of the 30 opening rolls is a non-double that OpenSpiel and bgcore read alike.
    for outcome, _ in GAME.new_initial_state().chance_outcomes():
        state = GAME.new_initial_state()
        state.apply_action(outcome)
        mover = state.current_player()
        assert to_position(state, mover) == Position.initial()
        assert to_position(state, 1 - mover) == Position.initial()
        a, b = os_dice(state)
        assert a != b and 1 <= a <= 6 and 1 <= b <= 6


def _apply_os_moves(position, mover, checker_moves):
    """bgcore's view of OpenSpiel CheckerMoves (absolute index, die) played by `mover`:
    each moves one mover checker from its point (bar 25) die pips down, to 0 when borne off,
    and sends a lone opposing checker on the landing point to the bar."""
    me = list(position.mover)
    opp = list(position.opponent)
    for m in checker_moves:
        if m.pos == OS_PASS:
            continue
        src = 25 if m.pos == OS_BAR else (24 - m.pos if mover == 0 else m.pos + 1)
        dst = max(src - m.num, 0)
        assert me[src] > 0, "OpenSpiel moves from point %d where the mover has none" % src
        me[src] -= 1
        me[dst] += 1
        if dst and opp[25 - dst] == 1:
            opp[25 - dst] = 0
            opp[25] += 1
    return Position(me, opp)


def test_conversion_follows_openspiel_checker_moves():
    # Every OpenSpiel action of the first few hundred rolls, applied by OpenSpiel and
    # converted, equals its two checker moves (absolute indices) applied to the converted
    # start position with the orientation above: this pins both players' point numbering,
    # the bar, hits and bearing off.
    checked = 0
    for sit in situations()[:300]:
        state = sit.state
        mover = state.current_player()
        for action in state.legal_actions():
            got = to_position(state.child(action), mover)
            want = _apply_os_moves(
                sit.position, mover, state.spiel_move_to_checker_moves(mover, action))
            assert got == want, "%s: OpenSpiel action %r gives %s, expected %s" % (
                sit.describe(), state.action_to_string(mover, action), got.to_id(),
                want.to_id())
            checked += 1
    assert checked >= 1000, checked


def test_situations_cover_the_hard_cases():
    sits = situations()
    counts = _coverage(sits)
    print("\nOpenSpiel cross-check: %d rolls (%d in %d games, %d positions with all 21 rolls), "
          "collected in %.1f s: %s" % (
        len(sits), sum(1 for s in sits if s.group is None), _CACHE["games"], _CACHE["groups"],
        _CACHE["collect_seconds"],
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print("OpenSpiel half-turn results dropped (fewer dice than the most): %d rolls" % sum(
        1 for s in sits if s.dropped))
    short = {k: (counts.get(k, 0), n) for k, n in MIN_COVERAGE.items() if counts.get(k, 0) < n}
    assert not short, "too few situations of these kinds (found, wanted): %r" % short


def _diff_report(sit, got):
    want = sit.expected()
    only_os = sorted(want - got, key=Position.to_id)
    only_bg = sorted(got - want, key=Position.to_id)
    bg_steps = {p: steps for p, steps in plays_with_steps(sit.position, sit.dice)}
    lines = [
        sit.describe(),
        str(sit.position),
        "OpenSpiel %d results, bgcore %d" % (len(want), len(got)),
    ]
    for p in only_os[:10]:
        lines.append("  only OpenSpiel: %s  via %s" % (p.to_id(), " | ".join(sit.openspiel[p])))
    if len(only_os) > 10:
        lines.append("  ... %d more only in OpenSpiel" % (len(only_os) - 10))
    for p in only_bg[:10]:
        lines.append("  only bgcore:    %s  via %s" % (p.to_id(), notation(bg_steps[p])))
    if len(only_bg) > 10:
        lines.append("  ... %d more only in bgcore" % (len(only_bg) - 10))
    return "\n".join(lines)


def test_legal_plays_match_openspiel():
    sits = situations()
    started = time.perf_counter()
    failures = []
    compared = 0
    for sit in sits:
        got = legal_plays(sit.position, sit.dice)
        assert len(set(got)) == len(got), "%s: legal_plays lists a position twice" % (
            sit.describe())
        compared += len(got)
        if set(got) != sit.expected():
            failures.append(_diff_report(sit, set(got)))
    print("\nlegal_plays: %d rolls, %d resulting positions compared in %.1f s" % (
        len(sits), compared, time.perf_counter() - started))
    assert not failures, "%d of %d rolls differ from OpenSpiel; first ones:\n\n%s" % (
        len(failures), len(sits), "\n\n".join(failures[:5]))


# --- bgcore.Turn against legal_plays -------------------------------------------------------


def _hits_on_way(route):
    return tuple(sorted(s.dst for s in route[:-1] if s.hit))


def turn_end_positions(position, dice):
    """Every position bgcore.Turn can finish a turn in, found by trying every lift
    (destinations), every way there (paths, told apart by the hits on the way) and every
    placement (move), with undo to go back."""
    turn = Turn(position, dice)
    ends = set()
    seen = set()

    def walk():
        key = (turn.position, turn.remaining)
        if key in seen:
            return
        seen.add(key)
        if turn.can_end():
            assert not turn.remaining
            for src in range(25, 0, -1):
                assert turn.destinations(src) == (), "destinations after the play is complete"
            ends.add(turn.position)
            return
        moved = False
        for src in range(25, 0, -1):
            for dst in turn.destinations(src):
                routes = turn.paths(src, dst)
                assert routes, "destinations(%d) offers %d but paths() has none" % (src, dst)
                for hits in sorted({_hits_on_way(r) for r in routes}):
                    before = turn.position
                    done = turn.move(src, dst, hits=list(hits))
                    assert (done[0].src, done[-1].dst, _hits_on_way(done)) == (src, dst, hits)
                    moved = True
                    walk()
                    turn.undo()
                    assert turn.position == before, "undo did not restore the position"
        assert moved, "Turn is stuck: dice %r left but no checker has a destination at %s" % (
            turn.remaining, turn.position.to_id())

    walk()
    return ends


def _turn_sample(sits):
    """TURN_SAMPLE situations, every hard kind represented, the rest spread evenly."""
    rng = random.Random(SEED + 1)
    chosen = set()
    by_kind = {}
    for sit, cats in zip(sits, _all_categories(sits)):
        for c in cats:
            by_kind.setdefault(c, []).append(sit.index)
    for kind in sorted(by_kind):
        pool = by_kind[kind]
        chosen.update(rng.sample(pool, min(25, len(pool))))
    rest = [i for i in range(len(sits)) if i not in chosen]
    chosen.update(rng.sample(rest, max(0, TURN_SAMPLE - len(chosen))))
    return [sits[i] for i in sorted(chosen)]


def test_turn_reaches_exactly_the_legal_plays():
    sample = _turn_sample(situations())
    started = time.perf_counter()
    failures = []
    for sit in sample:
        plays = set(legal_plays(sit.position, sit.dice)) or {sit.position}
        # legal_plays got OpenSpiel's dice order (low first); Turn gets them high first.
        try:
            ends = turn_end_positions(sit.position, (sit.dice[1], sit.dice[0]))
        except AssertionError as e:
            raise AssertionError("%s: %s" % (sit.describe(), e)) from e
        if ends != plays:
            failures.append("%s: Turn only %s; legal_plays only %s" % (
                sit.describe(),
                sorted(p.to_id() for p in ends - plays),
                sorted(p.to_id() for p in plays - ends)))
    print("\nTurn: %d rolls explored in %.1f s" % (len(sample), time.perf_counter() - started))
    assert not failures, "%d of %d rolls: Turn and legal_plays disagree:\n%s" % (
        len(failures), len(sample), "\n".join(failures[:10]))
