"""The engine's cube on the real virtual board (the firmware on the MicroPython unix port,
behind a PTY), with real gnubg: a double the engine beavers, because gnubg itself says
"beaver" for that position, and the board's own state afterwards. The test is the person: it
sets up the checkers, throws, moves the engine's checkers as the board guides them and
doubles, with `sim` lines and commands on the same link as the engine's driver."""

import os
import signal
import time

from bgboard.cli_common import open_link
from bgboard.engine import Context, Engine, position_of
from bgboard.engine_driver import EngineDriver
from bgboard.view.drawing import sides_of
from bgboard.view.model import arrangement
from bgcore import Position
from bgcore.matchid import encode

ENGINE = 1  # black


def _table(link):
    got = []
    prev = link.on_live

    def on_live(msg):
        if msg.get("live") == "sim" and "table" in msg:
            got.append(msg)
        if prev is not None:
            prev(msg)

    link.on_live = on_live
    try:
        link.send({"sim": "look"})
        deadline = time.monotonic() + 10
        while not got and time.monotonic() < deadline:
            link.poll(0.05)
    finally:
        link.on_live = prev
    assert got, "the virtual board did not answer a sim line"
    return got[-1]["table"], got[-1].get("hand", [0, 0])


def _arrange(link, target):
    table, hand = _table(link)
    for line in arrangement(table, hand, target):
        link.send(line)
        link.poll(0.05)


def _until(link, driver, check, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        link.poll(0.05)
        if driver is not None:
            driver.step()
        st = link.command("state")
        if check(st):
            return st
    raise AssertionError("timed out; the board's state: %s" % link.command("state"))


def _gnubg_says(tmp_path, position_id, player):
    """gnubg's own cube analysis (its `hint` before the roll, in a gnubg of its own with
    beavers allowed) for the player on roll in that position (player 0's view)."""
    from test_host_gnubg import run_gnubg

    mover = position_of(position_id, player)
    mid = encode({"cube": 1, "cube_owner": None, "on_roll": player, "crawford": False,
                  "game_state": "playing", "turn": player, "double_offered": False,
                  "resignation": 0, "dice": [], "match_length": 0, "score": [0, 0],
                  "jacoby": False})
    out = run_gnubg(str(tmp_path), [("h", ["set player 0 human", "set player 1 human",
                                           "set beavers 3", "set jacoby off", "new session",
                                           "set matchid %s" % mid, "set turn %d" % player,
                                           "set board %s" % mover.to_id(), "hint"])])["h"]
    for line in out.splitlines():
        if line.startswith("Proper cube action:"):
            return line
    raise AssertionError(out[-1500:])


def test_the_engine_beavers_the_persons_double_and_the_board_has_the_cube_at_4(board,
                                                                               tmp_path):
    engine = Engine("expert")
    link = open_link(board.port, sync=False)
    events = []
    link.on_event = events.append
    try:
        link.connect(wait=True)
        link.command("new", kind="money", options={"beavers": True, "raccoons": True})
        _arrange(link, list(sides_of(Position.initial(), 0)))
        _until(link, None, lambda st: st.get("phase") not in ("idle", "setup"))
        driver = EngineDriver(engine, ENGINE, link)
        link.on_event = lambda ev: (events.append(ev), driver.event(ev))
        link.command("roll", dice=[1, 3])  # the opening throw: black's 3 to white's 1
        # the engine plays its 3-1 on the board's guide; the person moves its checkers so
        _until(link, driver, lambda st: driver._guided is not None)
        target = driver._guided[2]  # the position gnubg's play leaves (bgcore's)
        _arrange(link, list(sides_of(target, ENGINE)))
        # gnubg killed before the person's double: the engine's process is started again
        # for the decision. The person (white) doubles before throwing (the double commits
        # the engine's play).
        os.kill(engine.pid, signal.SIGKILL)
        engine.proc.wait(10)
        _until(link, driver, lambda st: "double" in st["game"]["allowed"] and
               st["game"]["player"] == 0)
        link.command("double")
        st = link.command("state")
        says = _gnubg_says(tmp_path, st["game"]["position_id"], 0)
        assert "No double, beaver" in says, says
        st = _until(link, driver, lambda st: st["game"]["cube"] != 1)
        g = st["game"]
        assert g["cube"] == 4 and g["cube_owner"] == ENGINE, g  # beavered: 4, the engine's
        assert driver.beavers == 1 and driver.takes == 0 and engine.restarts == 1
        assert [e["ev"] for e in events if e["ev"] in ("double", "beaver")] == [
            "double", "beaver"]
        beaver = [e for e in events if e["ev"] == "beaver"][0]
        assert beaver["player"] == ENGINE and beaver["cube"] == 4
        # the doubler may raccoon now (the person's choice), then throws
        assert "raccoon" in g["allowed"] and g["player"] == 0
        assert engine.cube(position_of(g["position_id"], 0),
                           Context(beavers=True)).beaver  # the engine's own view, again
    finally:
        link.close()
        engine.close()
