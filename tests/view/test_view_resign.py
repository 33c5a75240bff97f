"""Resigning from the page: a board has no button for it, so the page's Resign, Accept,
Reject and Demand send the board's own commands. Checked as a person sees it: the buttons the rules
allow, the offer in the status line, a refusal in the notes, the point scored."""

from viewsupport import log

NAMES = ("White", "Black")


def status(page, words):
    page.locator("svg text.status", has_text=words).wait_for()


def allowed(page):
    return sorted(b.get_attribute("id") for b in
                  page.query_selector_all("#resignation button.allowed"))


def test_resign_rejected_then_accepted_from_the_page(sim_board, start_view, new_page):
    view = start_view(sim_board.path)
    page = new_page()
    page.goto(view.url)
    page.wait_for_selector("#controls:not([hidden])")
    page.fill("#length", "3")
    page.click("#new-match")
    page.locator("svg text.match", has_text="set up the checkers").wait_for()
    page.click("#arrange")
    page.locator("svg text.match", has_text="opening throw").wait_for()
    page.click('button[data-button="roll"]')
    page.wait_for_selector("#board rect.die")
    page.locator("svg text.status", has_text="to play").wait_for()
    mover = page.locator("svg text.status").text_content().split()[0]
    other = NAMES[1 - NAMES.index(mover)]
    page.wait_for_function("() => document.querySelector('#resign.allowed')")
    assert allowed(page) == ["resign"]

    # Nothing to answer yet: the board refuses, and says why
    page.click("#accept")
    page.locator("#notes", has_text="refused").wait_for()

    # A gammon offered, rejected: the game goes on, the mover still to play
    page.select_option("#resign-level", "2")
    page.click("#resign")
    status(page, "%s offers to resign: %s to accept or reject" % (mover, other))
    page.wait_for_function("() => document.querySelector('#accept.allowed')")
    assert allowed(page) == ["accept", "demand", "reject"]
    page.click("#reject")
    status(page, "%s to play" % mover)

    # A single offered; the other side requires a gammon (PC-Gammon: "the player accepting
    # the forfeit must decide whether to accept the forfeit as a single loss or to require
    # the opponent to forfeit to a gammon"); the resigner refuses and plays on
    page.select_option("#resign-level", "1")
    page.click("#resign")
    status(page, "offers to resign")
    page.wait_for_function("() => document.querySelector('#demand.allowed')")
    page.select_option("#resign-level", "2")
    page.click("#demand")
    status(page, "%s demands a gammon: %s to agree or play on" % (other, mover))
    page.wait_for_function("() => !document.querySelector('#demand.allowed')")
    assert allowed(page) == ["accept", "reject"]
    page.click("#reject")
    status(page, "%s to play" % mover)

    # A single game offered and accepted: the other side scores the point
    page.select_option("#resign-level", "1")
    page.click("#resign")
    status(page, "offers to resign")
    page.click("#accept")
    side = NAMES.index(other)
    page.wait_for_selector('#board text.score[data-side="%d"][data-value="1"]' % side)
    assert page.get_attribute('#board text.score[data-side="%d"]' % (1 - side),
                              "data-value") == "0"
    log("resigned from the page: rejected, then accepted; %s scores 1 of 3" % other)
    view.stop()
