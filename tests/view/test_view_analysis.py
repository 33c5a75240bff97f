"""The analysis after a match in the browser: `bgboard engine --port P --view` plays a
1-point match against the virtual board's simulated hands (they play the person's side and
move the engine's checkers as the board lights them); when it ends, gnubg analyses it, the
page links to the analysis and the server serves it. The page itself opened in real
headless Chromium: both players' tables and the worst plays' pictures. Real gnubg."""

import json
import os
import re
import time
import urllib.error
import urllib.request

from simboard import SimBoard
from test_view_coach import EngineView
from viewsupport import log


def get(url):
    """(status, body text) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_page_links_to_the_analysis_of_the_match_played(bytecode, tmp_path, new_page):
    board = SimBoard(bytecode, str(tmp_path / "flash"), "--seed", "3", "--autoplay", "1",
                     "--engine-side", "1", "--speed", "0")
    folder = str(tmp_path / "matches")
    engine = EngineView(board.path, "--side", "black", "--log", folder)
    try:
        page = new_page()
        page.goto(engine.url)
        page.wait_for_selector("#coach:not([hidden])")
        # before any match has ended: a clear answer, not a crash
        status, body = get(engine.url + "analysis")
        assert status == 200 and json.loads(body) == {"analysis": None}
        status, body = get(engine.url + "analysis/match-1-000001.analysis.html")
        assert status == 404 and "no analysis named" in body
        status, body = get(engine.url + "analysis/..%2Fetc%2Fpasswd")
        assert status == 404
        # the match goes on; once it ends gnubg analyses it: asked meanwhile, "not yet"
        deadline = time.monotonic() + 600
        seen = set()
        state = None
        while time.monotonic() < deadline:
            state = json.loads(get(engine.url + "analysis")[1])["analysis"]
            if state is not None:
                seen.add(state["state"])
                if state["state"] == "running":
                    status, body = get(engine.url + "analysis/%s.analysis.html"
                                       % state["name"])
                    assert status in (503, 200), (status, body)
                    if status == 503:
                        assert "not ready yet" in body
                        seen.add("503")
                if state["state"] != "running":
                    break
            time.sleep(0.1)
        assert state is not None and state["state"] == "ready", (state, seen)
        log("analysis states seen: %s; %s" % (sorted(seen), state["text"]))
        assert {"running", "503"} <= seen  # it takes seconds: asked while gnubg was at it
        assert sorted(f for f in os.listdir(folder)) == sorted(
            state["name"] + ext for ext in (".mat", ".sgf", ".analysis.json",
                                            ".analysis.html"))
        # the page links to it, and a second page (a second client) too
        link = page.locator("#analysis a")
        link.wait_for()
        assert link.get_attribute("href") == "/analysis/%s.analysis.html" % state["name"]
        other = new_page()
        other.goto(engine.url)
        other.locator("#analysis a").wait_for()
        with page.expect_popup() as popup:
            link.click()
        shown = popup.value
        shown.wait_for_load_state()
        assert shown.title() == "Analysis of %s.mat" % state["name"]
        names = [e.inner_text() for e in shown.query_selector_all("#stats th.player")]
        assert names == ["White", "gnubg expert"]
        for who in (0, 1):
            cells = shown.query_selector_all('#stats td[data-player="%d"]' % who)
            assert len(cells) >= 15 and all(c.inner_text().strip() for c in cells)
        pictures = shown.query_selector_all(".worst svg.bgboard")
        assert pictures
        first = pictures[0]
        box = first.bounding_box()
        assert box["width"] > 300 and box["height"] > 200  # drawn, not an empty box
        assert len(first.query_selector_all("circle")) >= 30  # the checkers, at least
        pid = first.get_attribute("data-position-id")
        assert re.match(r"^[A-Za-z0-9+/]{14}$", pid)
        # nothing from outside: no src or href but the page's own anchors
        html = get(engine.url + "analysis/%s.analysis.html" % state["name"])[1]
        assert not re.search(r'(src|href)="(?!#)', html)
        status, body = get(engine.url + "analysis/%s.analysis.json" % state["name"])
        assert status == 200 and json.loads(body)["players"][0]["name"] == "White"
    finally:
        engine.stop()
        board.stop()
