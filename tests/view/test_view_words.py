"""What the board does by itself, and what it refuses or asks for, said in words on the page
(real headless Chromium on `bgboard view` of the virtual board): `bgboard sim`'s default
seed (1) throws a tied opening first, which changes nothing on the board; a lift of the
side not on roll and a checker put where it may not go are answered by LEDs only on a real
board, and in words here, with the places to put them."""

import pytest

from simboard import SimBoard


@pytest.fixture
def default_seed_board(bytecode, tmp_path):
    """The virtual board as `bgboard sim` starts it: seed 1, real time."""
    board = SimBoard(bytecode, str(tmp_path / "flash"), "--speed", "1", "--seed", "1")
    yield board
    board.stop()


def notes(page):
    return page.inner_text("#notes")


def wait_note(page, words):
    page.locator("#notes p", has_text=words).first.wait_for()


def test_the_tie_and_the_boards_requests_are_said_on_the_page(default_seed_board,
                                                              start_view, new_page):
    view = start_view(default_seed_board.path)
    page = new_page()
    page.goto(view.url)
    page.wait_for_selector("#controls:not([hidden])")
    # the move list's numbering is said (the board is labelled in White's)
    assert "Black's point q is the board's 25 \u2212 q" in page.inner_text("#numbering")
    page.fill("#length", "3")
    page.click("#new-match")
    page.locator("svg text.match", has_text="set up the checkers").wait_for()
    page.click("#arrange")
    page.locator("svg text.match", has_text="opening throw").wait_for()
    assert not page.query_selector("#board rect.die")  # nothing thrown yet
    # nor a placeholder: the board's LED dice are drawn only while lit
    assert page.locator("#board rect.led-die").count() == 0

    # Roll: a 1-1 tie. The board looks the same as before; the page says why.
    page.click('button[data-button="roll"]')
    wait_note(page, "opening throw: White 1, Black 1 (a tie: both throw again)")
    assert page.locator("svg text.match", has_text="opening throw").count() == 1
    assert not page.query_selector("#board rect.die")

    # Roll again: 6-4, White to play.
    page.click('button[data-button="roll"]')
    wait_note(page, "opening throw: White 6, Black 4")
    page.locator("svg text.status", has_text="White to play 6-4").wait_for()
    page.wait_for_selector('#board circle.led[data-role="dice"]')
    assert page.locator("#board rect.led-die").count() == 2
    assert page.locator("#board circle.led[data-role=\"dice\"]").count() == 10  # 6 + 4 pips

    # Black (not on roll) lifts a checker from its 6 point (the board's 19): put it back.
    page.click('#board .hit[data-point="19"]')
    wait_note(page, "checkers out of place (only the side on roll moves): "
                    "put back a checker on point 19")
    page.click('#board .hit[data-point="19"]')  # put down where it came from
    page.wait_for_function("() => !document.querySelector('#board .glow')")

    # White plays 13 to 12, a point no die reaches: it must go back to 13.
    page.click('#board .hit[data-point="13"]')
    page.wait_for_selector('#board .glow[data-role="may go"]')
    page.click('#board .hit[data-point="12"]')
    wait_note(page, "not a legal place: the checker on point 12 must go back to point 13")
    view.stop()
