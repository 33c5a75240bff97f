"""A person plays on the virtual board in the browser: `bgboard view` on the virtual board's
port, two pages (two viewers of one serial connection), a match started and the checkers
arranged from the page, the opening roll and two plays made by clicking checkers and
points. What is checked is what a person sees: the destinations the board lights, the
checkers moving on both pages, the move list in .mat notation."""

import os
import shutil
import time

from viewsupport import log

from bgboard.events import Entry
from bgboard.matfile import action_text
from bgcore import Position, Turn
from bgwire import physical

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The README's picture: written by this test when missing or when BGBOARD_SCREENSHOT=1 (a
# run otherwise leaves the committed one alone: its port name differs from run to run).
SCREENSHOT = os.path.join(ROOT, "docs", "view.png")


def caption(page):
    return page.locator("svg text.match").text_content()


def wait_caption(page, words):
    page.locator("svg text.match", has_text=words).wait_for()


def stacks(page):
    """{board point: (white, black)} as drawn: checkers shown, or a stack's count."""
    return {int(k): tuple(v) for k, v in page.evaluate("""() => {
        const out = {};
        for (let p = 1; p <= 24; p++) out[p] = [0, 0];
        for (const c of document.querySelectorAll('#board circle.checker')) {
            const p = c.dataset.point;
            if (p === undefined || p === '25') continue;
            out[p][+c.dataset.side] += 1;
        }
        for (const t of document.querySelectorAll('#board text.count')) {
            // a taller stack: five drawn, its count on the fifth
            const c = t.previousElementSibling.previousElementSibling;
            out[c.dataset.point][+c.dataset.side] = +t.textContent;
        }
        return out;
    }""").items()}


def lit_points(page, role):
    return sorted(int(e.get_attribute("data-point")) for e in
                  page.query_selector_all('#board .glow[data-place="point"][data-role="%s"]'
                                          % role))


def dice_shown(page):
    dice = page.query_selector_all("#board rect.die")
    return ([int(d.get_attribute("data-value")) for d in dice],
            {int(d.get_attribute("data-side")) for d in dice})


def play_roll(pages, position, dice, side, screenshot=None):
    """Play `dice` for `side` by clicking on pages[0]: lift a checker, check the lit
    destinations against the rules core, place it, see both pages move it. Returns the
    steps [(src, dst)] in the side's numbering and the position after."""
    page, other = pages
    turn = Turn(position, tuple(dice))
    steps = []
    while not turn.can_end():
        src = dst = None
        for p in range(24, 0, -1):
            dests = turn.destinations(p)
            singles = [p - d for d in set(turn.dice) if (p - d) in dests and p - d > 0]
            if singles:
                src, dst = p, max(singles)
                break
        assert src is not None, "no simple move found in %r" % (turn.position,)
        expected = sorted(physical(side, q) for q in turn.destinations(src))
        before = stacks(other)[physical(side, dst)]
        t0 = time.monotonic()
        page.click('#board .hit[data-point="%d"]' % physical(side, src))
        page.wait_for_function(
            "n => document.querySelectorAll('#board .glow[data-role=\"may go\"]').length >= n",
            arg=len(expected))
        lit_after = time.monotonic() - t0
        assert lit_points(page, "may go") == expected
        assert lit_points(page, "origin") == [physical(side, src)]
        assert "In hand: 1 %s" % ("white", "black")[side] in page.inner_text("#hint")
        if screenshot:
            page.screenshot(path=screenshot)
            screenshot = None
        t0 = time.monotonic()
        page.click('#board .hit[data-point="%d"]' % physical(side, dst))
        want = list(before)
        want[side] += 1
        for viewer in (page, other):
            viewer.wait_for_function(
                """([p, s, n]) => document.querySelectorAll(
                       `#board circle.checker[data-point="${p}"][data-side="${s}"]`).length
                       >= Math.min(n, 5)""",
                arg=[physical(side, dst), side, want[side]])
        seen_by_other = time.monotonic() - t0
        log("lift %d: destinations lit after %.0f ms; %d/%d placed, seen by the second "
            "page after %.0f ms" % (src, lit_after * 1000, src, dst, seen_by_other * 1000))
        turn.move(src, dst)
        steps.append((src, dst))
        # the board answered (no illegal-placement red, nothing lifted any more: the lights
        # answer a placement at once) and took the move (it commits once the placement has
        # held 150 ms; a checker lifted again before is still in the air from where it was)
        page.wait_for_function("() => !document.querySelector('#board .glow')")
        made = action_text(Entry("move", side, tuple(sorted(dice, reverse=True)),
                                 tuple((s, d, False) for s, d in steps), None, None, None,
                                 None))
        page.locator("#pending", has_text="%s %s (" % (("White", "Black")[side], made)
                     ).wait_for()
    return steps, turn.position


def test_a_match_played_by_clicking_on_two_viewers(sim_board, start_view, new_page, tmp_path):
    shot = str(tmp_path / "view.png")
    view = start_view(sim_board.path)
    a, b = new_page(), new_page()
    t0 = time.monotonic()
    a.goto(view.url)
    a.wait_for_selector("#board svg")
    log("page load: %.0f ms to the first board drawn" % ((time.monotonic() - t0) * 1000))
    b.goto(view.url)
    for page in (a, b):
        page.wait_for_selector("#controls:not([hidden])")  # the board answered a sim line
        assert "virtual board" in page.inner_text("#conn")
        assert page.get_attribute("#live", "data-state") == "live"

    # A new 3-point match: the board asks for the checkers (all in the trays) to be set up
    a.fill("#length", "3")
    a.click("#new-match")
    for page in (a, b):
        wait_caption(page, "set up the checkers")
        assert "3-point match" in caption(page)
    a.wait_for_selector('#board .glow[data-role="missing"]')
    assert lit_points(a, "missing") == [1, 6, 8, 12, 13, 17, 19, 24]
    assert sum(sum(s) for s in stacks(a).values()) == 0

    a.click("#arrange")
    for page in (a, b):
        wait_caption(page, "opening throw")
        assert page.locator("#board circle.checker").count() == 30
    assert stacks(b)[6] == (5, 0) and stacks(b)[19] == (0, 5) and stacks(b)[24] == (2, 0)

    # The opening throw, then the winner's play by clicking
    a.click('button[data-button="roll"]')
    a.wait_for_selector("#board rect.die")
    dice, (side,) = dice_shown(a)
    mover = ("White", "Black")[side]
    a.locator("svg text.status", has_text="%s to play" % mover).wait_for()
    position = Position.initial()
    steps, position = play_roll((a, b), position, dice, side)
    play = action_text(Entry("move", side, tuple(sorted(dice, reverse=True)),
                             tuple((s, d, False) for s, d in steps), None, None, None, None))
    b.locator("#pending", has_text="%s %s" % (mover, play)).wait_for()

    # The opponent rolls: the play is committed and listed, on both pages
    a.click('button[data-button="roll"]')
    for page in (a, b):
        page.locator("#moves td", has_text=play).first.wait_for()
    row = a.locator("#moves tr.row").first
    assert row.locator("td.n").text_content() == "1)"
    column = "td.left" if side == 0 else "td.right"
    assert row.locator(column).text_content() == play
    a.wait_for_function("s => { const d = document.querySelectorAll('#board rect.die');"
                        " return d.length === 2 && d[0].dataset.side == s; }", arg=1 - side)
    dice2, _ = dice_shown(a)

    # The opponent plays from the other page, in its own numbering
    position = position.swapped()
    steps2, position = play_roll((b, a), position, dice2, 1 - side, screenshot=shot)
    with open(shot, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("BGBOARD_SCREENSHOT") == "1" or not os.path.exists(SCREENSHOT):
        shutil.copyfile(shot, SCREENSHOT)
    play2 = action_text(Entry("move", 1 - side, tuple(sorted(dice2, reverse=True)),
                              tuple((s, d, False) for s, d in steps2), None, None, None,
                              None))
    b.click('button[data-button="roll"]')
    for page in (a, b):
        page.locator("#moves td", has_text=play2).first.wait_for()
    # the position drawn is the board's: both plays made
    if side == 1:  # White moved last
        white, black = position.mover, position.opponent
    else:
        white, black = position.opponent, position.mover
    drawn = stacks(a)
    for p in range(1, 25):
        assert drawn[p] == (white[p], black[25 - p]), p
    pips = [int(e.get_attribute("data-value"))
            for e in a.query_selector_all("#board text.pips")]
    assert sorted(pips) == sorted(Position(white, black).pips())
    view.stop()
