"""The view of a real board (a scripted one behind a TCP port, tests/host/fakeboard.py: it
answers sim lines with an error, as the firmware does): what the board's state says is
drawn, its LED lines light the places pinmap.json gives, events fill the move list, and
the page follows the serial link and the view server going away and coming back."""

import time

from viewsupport import log
from fakeboard import FakeBoard, SocketBoard

from bgcore import Position
from bgcore.matchid import encode

# Black on roll with 5-2, White owning the cube at 2, 1-2 in a 5-point match; White has
# hit a Black checker (on the bar) and split its back checkers.
WHITE = [0] * 26
BLACK = [0] * 26
for p, n in ((6, 5), (8, 3), (13, 4), (18, 1), (24, 1), (4, 1)):
    WHITE[p] = n
for p, n in ((6, 5), (8, 3), (13, 5), (24, 1), (25, 1)):
    BLACK[p] = n
PID = Position(WHITE, BLACK).to_id()
MID = encode({"cube": 2, "cube_owner": 0, "on_roll": 1, "crawford": False,
              "game_state": "playing", "turn": 1, "double_offered": False, "resignation": 0,
              "dice": [5, 2], "match_length": 5, "score": [1, 2], "jacoby": False})
STATE = {"ok": True, "phase": "playing", "seq": 0,
         "match": {"length": 5, "score": [1, 2], "games": 3, "crawford": False},
         "game": {"player": 1, "dice": [5, 2], "cube": 2, "cube_owner": 0, "position_id": PID,
                  "match_id": MID, "allowed": ["move", "resign"], "moves": []}}


def handler(cmd, args):
    if cmd == "state":
        return dict(STATE)
    if cmd == "dump":
        return {"ok": True, "raw": [2048] * 128, "codes": [0] * 128, "offsets": [2048] * 128,
                "faulty": []}
    return {"ok": True}


def conn_state(page):
    return page.get_attribute("#conn", "data-state")


def test_a_real_board_is_shown_as_its_state_and_leds_say(start_view, new_page):
    board = FakeBoard(handler=handler)
    runner = SocketBoard(board).start()
    try:
        view = start_view(runner.url)
        page = new_page()
        page.goto(view.url)
        page.wait_for_function("() => document.querySelector('#conn').dataset.state"
                               " === 'connected' && document.querySelector('#board rect.die')")
        assert page.is_hidden("#controls")  # no mouse play on a real board
        assert "virtual" not in page.inner_text("#conn")

        # the board's position, turn, dice, cube and score
        for p in range(1, 25):
            w = page.locator('#board circle.checker[data-point="%d"][data-side="0"]' % p)
            b = page.locator('#board circle.checker[data-point="%d"][data-side="1"]' % p)
            assert (w.count(), b.count()) == (min(WHITE[p], 5), min(BLACK[25 - p], 5)), p
        assert page.locator('#board circle.checker[data-bar="1"]').count() == 1
        assert page.locator("svg text.status").text_content() == "Black to play 5-2"
        assert [int(d.get_attribute("data-value"))
                for d in page.query_selector_all("#board rect.die")] == [5, 2]
        cube = page.locator("#board rect.cube")
        assert (cube.get_attribute("data-value"), cube.get_attribute("data-where")) == \
            ("2", "white")
        scores = page.locator("#board text.score").all_text_contents()
        assert sorted(scores) == ["score 1 / 5", "score 2 / 5"]
        pips = {int(e.get_attribute("data-side")): int(e.get_attribute("data-value"))
                for e in page.query_selector_all("#board text.pips")}
        assert (pips[0], pips[1]) == Position(WHITE, BLACK).pips()

        # LEDs: the firmware's grouped form, and [index, r, g, b] entries
        t0 = time.monotonic()
        runner.push({"live": "leds", "lit": {"00400a": [15, 16, 17, 18, 19]}})
        page.wait_for_selector('#board .glow[data-role="may go"][data-point="4"]')
        log("a live leds line from the board to the page's drawing: %.0f ms"
            % ((time.monotonic() - t0) * 1000))
        assert page.locator("#board circle.led").count() == 5
        runner.push({"live": "leds", "on": [[i, 0, 15, 64] for i in (64, 65, 66, 67, 68)]
                     + [[97, 64, 0, 0]]})
        page.wait_for_selector('#board .glow[data-role="origin"][data-point="13"]')
        assert page.locator('#board .glow[data-role="may go"]').count() == 0
        assert page.locator('#board .glow[data-place="bar"][data-side="0"]').get_attribute(
            "data-role") == "wrong"
        runner.push({"live": "leds", "lit": {}})
        page.wait_for_function("() => !document.querySelector('#board circle.led')")

        # events: the move list in .mat notation
        runner.commit({"ev": "match", "length": 5, "rules": {}})
        runner.commit({"ev": "game", "number": 1, "score": [0, 0], "crawford": False})
        runner.commit({"ev": "opening", "dice": [3, 1]})
        runner.commit({"ev": "play", "player": 0, "dice": [3, 1],
                       "moves": [[8, 5, False], [6, 5, False]]})
        page.locator("#moves td.left", has_text="31: 8/5 6/5").wait_for()

        # the serial link goes away: the page says so, and comes back with it
        board.silent = True
        runner.disconnect()
        t0 = time.monotonic()
        page.wait_for_function("() => document.querySelector('#conn').dataset.state"
                               " !== 'connected'")
        log("board lost: the page says %r after %.0f ms"
            % (page.inner_text("#conn"), (time.monotonic() - t0) * 1000))
        board.silent = False
        t0 = time.monotonic()
        page.wait_for_function("() => document.querySelector('#conn').dataset.state"
                               " === 'connected'", timeout=30000)
        log("board back: connected again after %.0f ms" % ((time.monotonic() - t0) * 1000))
        assert page.locator("#moves td.left", has_text="31: 8/5 6/5").count() == 1

        # the view server restarts on its port: the page reconnects by itself
        port = int(view.url.rsplit(":", 1)[1].strip("/"))
        view.stop()
        page.wait_for_function("() => document.querySelector('#live').dataset.state"
                               " !== 'live'")
        t0 = time.monotonic()
        start_view(runner.url, http_port=port)
        page.wait_for_function("() => document.querySelector('#live').dataset.state"
                               " === 'live' && document.querySelector('#conn').dataset.state"
                               " === 'connected'", timeout=30000)
        log("view server restarted: the page is live again after %.0f ms"
            % ((time.monotonic() - t0) * 1000))
        assert page.locator("svg text.status").text_content() == "Black to play 5-2"
    finally:
        runner.stop()
