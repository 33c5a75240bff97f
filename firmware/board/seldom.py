"""Board actions seldom used, loaded on first use (RAM): resignations (offered, answered, the
acceptor's demand of a higher forfeit), a take-back by command, irregular throws with
physical dice (cocked dice thrown again, a play voided by the opponent), a wrong setup
corrected after the opening throw, the differences
from the expected position shown (verify). Each action is checked by bgcore, then
committed as the controller commits any event (board.controller.Controller._commit:
journaled, then sent); the controller's methods of the same names call these."""

from board.tracker import Reading


def command(board, cmd, args):
    """The host's `demand`, `rethrow`, `void` and `correct_setup` commands."""
    if cmd == "demand":
        demand(board, args["level"])
    elif cmd == "correct_setup":
        correct_setup(board)
    else:
        irregular(board, cmd, args.get("dice"))


def resign(board, level):
    game = board._game("resign")
    board.settle()
    reason = game.why_not_resign(level) or board.session.waiting()
    if reason:
        raise ValueError(reason)
    player = game.on_roll
    if player != game.player or game.play_complete():
        board._accept_play()
    board._commit({"ev": "resign", "player": player, "level": level})


def answer_resignation(board, accept):
    game = board._game("answer")
    reason = game.why_not_accept_resignation()
    res = game.resignation
    if reason or res is None:
        raise ValueError(reason or "no resignation to answer")
    board._commit({"ev": "accept" if accept else "reject",
                   "player": res[0] if len(res) > 2 else game.decider})
    if game.is_over():
        board._result()


def undo(board):
    game = board._game("undo")
    reason = game.why_not_undo()
    turn = game.turn
    if reason or turn is None:
        raise ValueError(reason or "no throw to take a checker back from")
    steps = turn.undo()
    if board.tracker is not None:
        # Not to be read again from the board until the checker is back.
        board.tracker.hold = (steps[0].src, steps[-1].dst)
    board._update()


def demand(board, level):
    """The resigner's opponent requires a higher forfeit (the resigner then accepts or
    rejects)."""
    game = board._game("demand")
    _refuse(game.why_not_demand(level))
    board._commit({"ev": "demand", "player": game.decider, "level": level})


def irregular(board, kind, dice=None):
    """"rethrow": the thrower's dice came to rest cocked, `dice` are the throw again; "void":
    the opponent voids the play of the roll (the dice were picked up before it was finished):
    the checkers go back, the same player throws again (bgcore.irregular)."""
    from bgcore import irregular as rules

    game = board._game(kind)
    board.settle()
    if kind == "rethrow":
        ev = {"ev": kind, "player": game.player, "dice": [dice[0], dice[1]]}  # type: ignore
        _refuse(rules.why_not_rethrow(game, game.player))
    else:
        ev = {"ev": kind, "player": 1 - game.player}
        _refuse(rules.why_not_void(game, 1 - game.player))
    board._commit(ev)
    board._follow_turn()
    if kind == "void":
        board._update()  # the checkers moved are shown to go back


def correct_setup(board):
    """A wrong setup found after the opening throw, before the next throw ("either player
    may require its correction before a subsequent throw of the dice"; a checker on a slot
    the board cannot see escapes the set-up's check): the opening play is taken back, the
    board shows where the checkers of the right setup go (verify), and the same player
    plays the opening numbers again (bgcore.irregular.correct_setup)."""
    from bgcore import irregular as rules

    game = board._game("correct_setup")
    board.settle()
    _refuse(rules.why_not_correct_setup(game))
    board._commit({"ev": "correct_setup", "player": game.player})
    board._follow_turn()


def _refuse(reason):
    if reason:
        raise ValueError(reason)


def verify(board):
    """Every difference between the sensed board and the expected position."""
    expected = board.expected()
    r = Reading()
    if expected is not None and board.sensed is not None:
        side, position = expected
        if board.tracker is not None:
            position = board.tracker.turn.position
        board._differences(side, position, r)
        if board.renderer is not None:
            board.renderer.clear()
            board.renderer.differences(r.missing, r.extra)
            board.renderer.show()
    return r.missing, r.extra
