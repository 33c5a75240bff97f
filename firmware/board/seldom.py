# Board actions seldom used, loaded on first use (RAM): the acceptor's demand of a higher
# forfeit, and irregular throws with physical dice (cocked dice thrown again, a play voided
# by the opponent). Each is checked by bgcore, then committed as the controller commits any
# event (board.controller.Board._commit: journaled, then sent).


def command(board, cmd, args):
    """The host's `demand`, `rethrow` and `void` commands."""
    if cmd == "demand":
        demand(board, args["level"])
    else:
        irregular(board, cmd, args.get("dice"))


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


def _refuse(reason):
    if reason:
        raise ValueError(reason)
