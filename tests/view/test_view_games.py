"""A match over a number of games, as the host shows it: started on the virtual board with
`bgboard send new money --games 3`, then `bgboard monitor --once` and the browser view say
what it is (not a money session) and which of its games is being played."""

import os
import subprocess
import sys

from viewsupport import log

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


def bgboard(*args):
    r = subprocess.run([BGBOARD] + list(args), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_match_over_three_games_is_named_so_by_the_monitor_and_the_page(
        sim_board, start_view, new_page):
    """"backgammon can be played as a series, or match, with the winner of the match
    determined by a tally of total points (based on the number of games won and lost) after
    the final game in an agreed-upon number of games." (rules-instructions-match-play)"""
    bgboard("send", "new", "money", "--games", "3", "--port", sim_board.path)
    out = bgboard("monitor", "--once", "--port", sim_board.path)
    assert "new: a match over 3 games, decided by the total" in out, out
    assert "money session" not in out, out

    view = start_view(sim_board.path)
    page = new_page()
    page.goto(view.url)
    page.wait_for_selector("#controls:not([hidden])")
    page.locator("svg text.match", has_text="match over 3 games").wait_for()
    page.click("#arrange")
    page.locator("svg text.match", has_text="opening throw").wait_for()
    page.click('button[data-button="roll"]')
    page.wait_for_selector("#board rect.die")
    caption = page.locator("svg text.match", has_text="game 1 of 3")
    caption.wait_for()
    words = caption.text_content()
    assert "money session" not in words
    view.stop()

    out = bgboard("monitor", "--once", "--port", sim_board.path)
    assert "match over 3 games, game 1" in out, out
    log("the page says %r" % words)
