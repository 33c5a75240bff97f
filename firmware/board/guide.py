"""A play the host expects for the turn (GNU Backgammon's, `guide` in docs/protocol.md): the
LEDs show it one checker at a time (which to lift, where it goes, the blots it hits and
their bar), a checker moved otherwise is shown as wrong, and the board commits no other
play. A hint (`"hint": true`) is shown the same way but commits any play: a checker the
person moves otherwise after asking puts the board's own drawing back. Loaded on the first
`guide` command only, which hooks it onto that board (hook()): the controller carries no
code for it (RAM: the soak's 160K has no room to spare)."""

from bgcore import Turn
from board.leds import HIT, ORIGIN, TARGET, WRONG
from board.tracker import LIFTED, STEADY


class Guide:
    """The play `steps` ([src, dst] per die, the mover's numbering) for `turn` (the
    bgcore.Turn being played): checked here (ValueError if it is not a whole legal play).
    hint: None for a play to make, else the number of checkers moved when it was asked."""

    def __init__(self, turn, player, steps, hint=None):
        plan = Turn(turn.start, turn.dice)
        if not _make(plan, steps, 0) or not plan.can_end():
            raise ValueError("guide: %s is not a whole play of %d-%d here"
                             % (" ".join("%d/%d" % (s[0], s[1]) for s in steps) or "no move",
                                turn.dice[0], turn.dice[1]))
        self.turn = turn
        self.player = player
        self.hint = hint
        self.steps = [[s.src, s.dst] for s in plan.steps]
        self.target = plan.position
        # One entry per checker: a die's step that starts where the last one ended is the
        # same checker going on.
        moves = []
        for s in plan.steps:
            if moves and moves[-1][-1].dst == s.src:
                moves[-1] = moves[-1] + (s,)
            else:
                moves.append((s,))
        self.moves = moves

    def current(self, game):
        """The guide belongs to the turn being played (a new turn, or the board put back to
        its journal, leaves it behind)."""
        return game.turn is self.turn and game.player == self.player

    def left(self, turn):
        """(the guide's moves still to make, None) if the moves made so far are part of the
        guide's play, else (None, the first move that is not)."""
        rest = list(self.moves)
        for m in turn.moves:
            dst = m[-1].dst
            hits = [s.dst for s in m if s.hit]
            found = False
            for i in range(len(rest)):
                g = rest[i]
                if g[0].src != m[0].src:
                    continue
                for k in range(len(g)):  # the whole move, or its first k + 1 dice
                    if g[k].dst == dst and [s.dst for s in g[:k + 1] if s.hit] == hits:
                        if k + 1 == len(g):
                            rest.pop(i)
                        else:
                            rest[i] = g[k + 1:]
                        found = True
                        break
                if found:
                    break
            if not found:
                return None, m
        return rest, None

    def draw(self, out, side, r):
        """Light the next step of the play for the mover `side` (board.leds.Renderer `out`,
        the tracker's reading `r`). False when the tracker's own drawing says more (a
        placement to finish or correct)."""
        if r.state != STEADY and r.state != LIFTED:
            return False
        rest, wrong = self.left(self.turn)
        if wrong is not None:  # not the engine's move: back where it came from
            if self.hint is not None and len(self.turn.moves) > self.hint:
                return False  # moved otherwise after the hint: the person's choice
            out.point(side, wrong[-1].dst, WRONG)
            out.point(side, wrong[0].src, ORIGIN)
            return True
        if not rest:
            return r.state == STEADY  # the whole play stands
        move = rest[0]
        if r.state == LIFTED:
            for g in rest:
                if g[0].src == r.origin:
                    move = g
                    break
            else:
                if self.hint is not None:
                    return False  # the person's choice: where it may go
                out.point(side, r.origin, WRONG)  # not a checker the engine moves
            if move[-1].dst == 0 and len(rest) > 1:
                # Borne off, perhaps: the sensors cannot tell the tray from a hand, so the
                # next checker is shown as well.
                _show(out, side, move)
                move = rest[1] if rest[0] is move else rest[0]
        _show(out, side, move)
        return True


def _show(out, side, move):
    # Which checker (its origin), where it goes, the blots it hits on the way and their bar.
    out.point(side, move[0].src, ORIGIN)
    out.point(side, move[-1].dst, TARGET)
    hit = False
    for s in move:
        if s.hit:
            hit = True
            if s.dst != move[-1].dst:
                out.point(side, s.dst, HIT)
    if hit:
        out.point(1 - side, 25, HIT)  # where the hit blot goes


def _make(turn, steps, i):
    # One die a step; a bear-off may take either of two dice: the way that plays them all.
    if i == len(steps):
        return True
    src, dst = steps[i]
    dice = []
    for r in turn.paths(src, dst):
        if len(r) == 1 and r[0].die not in dice:
            dice.append(r[0].die)
    for die in dice:
        turn.move(src, dst, None, die)
        if _make(turn, steps, i + 1):
            return True
        turn.undo()
    return False


def parse_steps(text):
    """[[src, dst], ...] from "8/5 6/5" (one step a die; 25 the bar, 0 off); ValueError."""
    steps = []
    for word in text.split():
        a, _, b = word.partition("/")
        try:
            step = [int(a), int(b)]
        except ValueError:
            step = None
        if step is None or not (0 <= step[0] <= 25 and 0 <= step[1] <= 25):
            raise ValueError("guide: %r is not a step like 8/5 (25 the bar, 0 off)" % word)
        steps.append(step)
    if len(steps) > 4:
        raise ValueError("guide: a roll plays at most 4 steps")
    return steps


def command(board, args):
    """`guide` (firmware/board/app.py): without `moves`, what the turn is; with them (and
    `start`, the turn's Position ID as the host saw it), the play to guide and commit (with
    `hint`: to show only). `flash`: the LEDs flash as for a refusal (a blunder)."""
    m = board.match
    if args.get("flash"):  # a blunder (the coach's): the refusal's sign, nothing else
        board.refused_until = board.clock.ticks_ms()
        board.draw()
        return {"flash": True}
    if m is None:
        raise ValueError("guide: no roll is being played")
    game = m.game
    turn = game.turn
    if turn is None or game.is_over() or board.tracker is None:
        raise ValueError("guide: no roll is being played")
    start = turn.start.to_id()
    if "moves" in args:
        steps = parse_steps(args["moves"])
        if args.get("start") != start:
            raise ValueError("guide: the turn being played starts at %s" % start)
        g = Guide(turn, game.player, steps, len(turn.moves) if args.get("hint") else None)
        hook(board)
        board.guide = g
        board.draw()
    g = getattr(board, "guide", None)
    return {"player": game.player, "dice": list(turn.dice), "start": start,
            "moves": _words(g.steps) if g is not None and g.current(game) else None}


def _words(steps):
    return " ".join("%d/%d" % (s[0], s[1]) for s in steps)


def hook(board):
    """Make `board` (board.controller.Controller) follow its guide: its play is committed only
    if it is the guide's (the opponent's throw, double or resignation is refused before),
    and its renderer draws the guide in place of the tracker's reading. Once a board."""
    if getattr(board, "guide", None) is not None:
        return  # hooked already
    accept = board._accept_play

    def accept_guided():
        m = board.match
        g = board.guide
        if m is not None and g is not None and g.hint is None and g.current(m.game):
            turn = m.game.turn
            if turn.can_end() and turn.position != g.target:
                raise ValueError("the play to make is %s: move the checkers as the LEDs "
                                 "show" % _words(g.steps))
        accept()

    board._accept_play = accept_guided
    out = board.renderer
    if out is None:
        return
    if getattr(out, "board", None) is None:  # the renderer outlives a board (App's)
        reading = out.reading

        def reading_guided(side, r):
            b = out.board
            g = b.guide
            m = b.match
            if g is None or m is None or not g.current(m.game) or not g.draw(out, side, r):
                reading(side, r)

        out.reading = reading_guided
    out.board = board
