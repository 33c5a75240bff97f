"""The raw sensor view: a page's toggle shows the 128 slots' readings (the board's `dump`)
as a heat map over the board, on that page only; on the virtual board, the slots under
the checkers read their colour (White positive, Black negative) and empty slots zero."""

import time

from viewsupport import log


def heat_codes(page):
    return {int(c.get_attribute("data-slot")): int(c.get_attribute("data-code"))
            for c in page.query_selector_all("#board rect.heat-cell")}


def test_the_raw_sensor_view_shows_each_slot(sim_board, start_view, new_page):
    view = start_view(sim_board.path)
    a, b = new_page(), new_page()
    for page in (a, b):
        page.goto(view.url)
        page.wait_for_selector("#controls:not([hidden])")
    a.click("#new-match")
    a.locator("svg text.match", has_text="set up the checkers").wait_for()
    a.click("#arrange")
    a.locator("svg text.match", has_text="opening throw").wait_for()

    assert a.locator("#board rect.heat-cell").count() == 0  # nobody asked for it yet
    assert not a.locator("#raw-legend").is_visible()
    t0 = time.monotonic()
    a.check("#raw")
    a.wait_for_selector("#board rect.heat-cell")
    log("raw sensor view: first heat map after %.0f ms" % ((time.monotonic() - t0) * 1000))
    assert a.locator("#board rect.heat-cell").count() == 128
    assert a.locator("#board rect.heat-cell").first.is_visible()
    legend = a.inner_text("#raw-legend")  # what the squares, numbers and digits mean
    for words in ("orange: a field of White's polarity", "blue: Black's", "+1 a White checker",
                  "-1 a Black one", "0 empty", "x a faulty sensor", "0 (about to change) to 9"):
        assert words in legend, words
    codes = heat_codes(a)
    # board/layout.py: point p's slots are (p - 1) * 5 + k, k = 0 at the edge; the bar 120..
    assert [codes[(6 - 1) * 5 + k] for k in range(5)] == [1] * 5  # White's five on 6
    assert [codes[(19 - 1) * 5 + k] for k in range(5)] == [-1] * 5  # Black's five on its 6
    assert [codes[(24 - 1) * 5 + k] for k in range(5)] == [1, 1, 0, 0, 0]  # White's two
    assert all(codes[(3 - 1) * 5 + k] == 0 for k in range(5))
    assert all(codes[s] == 0 for s in range(120, 128))
    assert sum(1 for c in codes.values() if c) == 30

    # the other page has not asked: it shows none (the same drawing, the layer hidden)
    b.wait_for_selector("#board rect.heat-cell", state="attached")
    assert not b.locator("#board rect.heat-cell").first.is_visible()

    # a checker lifted: its slot reads empty at the next reading
    a.click('#board .hit[data-point="24"]')
    a.wait_for_function("() => { const c = document.querySelector("
                        "'#board rect.heat-cell[data-slot=\"116\"]');"
                        " return c && c.dataset.code === '0'; }")
    a.uncheck("#raw")
    assert not a.locator("#board rect.heat-cell").first.is_visible()
    assert not a.locator("#raw-legend").is_visible()
    view.stop()
