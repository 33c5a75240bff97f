# Board actions seldom used, loaded on first use (RAM): the acceptor's demand of a higher
# forfeit, irregular throws with physical dice (cocked dice thrown again, a play voided
# by the opponent), and the sensors' dump. Each is checked by bgcore, then committed as the controller commits any
# event (board.controller.Controller._commit: journaled, then sent).


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


def dump(app):
    """The host's dump: the sensors as they read (app: board.app.App)."""
    # Lists made at their full size at once (grown item by item they would leave holes in
    # the heap); per slot, how far its reading is inside the window that keeps its code: a
    # digit per 8 counts (the hysteresis), '-' an ignored sensor.
    s = app.sensor_loop.sensing
    raw = app.raw
    n = len(raw)
    out = [0] * n
    codes = [0] * n
    offsets = [0] * n
    conf = bytearray(n)
    for i in range(n):
        r = out[i] = raw[i]
        codes[i] = s.frame[i]
        offsets[i] = s.offset(i)
        m = s.margin(i, r) >> 3
        conf[i] = 45 if s.disabled[i] else 48 + (m if m < 9 else 9)
    return {"raw": out, "codes": codes, "offsets": offsets, "faulty": s.blind(),
            "confidence": conf.decode(), "learned": s.learned()}
