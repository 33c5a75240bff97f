"""A beaver after a take, from the page: the virtual board's buttons as a person presses them
(Double, Take, then Beaver: Double and Take together on the board), in a money session the
page started with beavers and raccoons. Checked as a person sees it: the cube drawn where
the board has it, a refused press in the notes, the move list in .mat notation."""

from test_view_play import dice_shown, play_roll
from viewsupport import log

from bgcore import Position

NAMES = ("White", "Black")


def cube(page, value, where):
    page.wait_for_selector('#board rect.cube[data-value="%d"][data-where="%s"]'
                           % (value, where))


def press(page, button):
    page.click('button[data-button="%s"]' % button)


def press_refused(page, button, words):
    """The board refuses the press: a new note, the newest, says so and why."""
    before = page.inner_text("#notes")
    press(page, button)
    page.wait_for_function(
        """([before, words]) => {
            const first = document.querySelector('#notes p');
            return document.querySelector('#notes').innerText !== before && first &&
                first.textContent.startsWith('refused: ') && first.textContent.includes(words);
        }""", arg=[before, words])


def test_take_then_beaver_then_raccoon_from_the_pages_buttons(sim_board, start_view,
                                                                new_page):
    """"If one player thinks he is the favorite after accepting a double, he may immediately
    turn the cube to 4 without forfeiting his option to double again later." and "if the
    opponent still believes he is the favorite after the first player's beaver, he may
    immediately turn the cube another notch to 8" (rules-cube-match-chouette)."""
    view = start_view(sim_board.path)
    page = new_page()
    page.goto(view.url)
    page.wait_for_selector("#controls:not([hidden])")
    page.check("#opt-beavers")
    page.check("#opt-raccoons")
    page.click("#new-money")
    page.locator("svg text.match", has_text="set up the checkers").wait_for()
    page.click("#arrange")
    page.locator("svg text.match", has_text="opening throw").wait_for()
    press(page, "roll")
    page.wait_for_selector("#board rect.die")
    dice, (side,) = dice_shown(page)
    play_roll((page, page), Position.initial(), dice, side)
    doubler, taker = NAMES[1 - side], NAMES[side]
    page.locator("svg text.status", has_text="%s to roll" % doubler).wait_for()
    cube(page, 1, "centre")

    # Nothing to beaver yet: the board refuses the press
    press_refused(page, "beaver", "no double has been offered")
    press(page, "double")
    page.locator("svg text.status",
                 has_text="%s doubles to 2: %s to take or drop" % (doubler, taker)).wait_for()
    press(page, "take")
    cube(page, 2, taker.lower())
    # at once after the take, before the doubler throws: the taker's beaver
    press(page, "beaver")
    cube(page, 4, taker.lower())
    # the doubler answers at once with a raccoon; the beaverer keeps the cube
    press(page, "beaver")
    cube(page, 8, taker.lower())
    press_refused(page, "beaver", "no double has been offered")  # nothing more to answer
    cube(page, 8, taker.lower())
    # the doubler throws: the cube actions stand and are listed as gnubg reads them
    press(page, "roll")
    for words in (" Doubles => 2", " Beavers => 4", " Raccoons => 8"):
        page.locator("#moves td", has_text=words.strip()).first.wait_for()
    text = page.inner_text("#moves")
    assert text.index("Doubles => 2") < text.index("Beavers => 4") < text.index(
        "Raccoons => 8"), text
    press_refused(page, "beaver", "no double has been offered")  # thrown: too late
    cube(page, 8, taker.lower())
    log("from the page: Double, Take, Beaver (4), Beaver as the raccoon (8)")
    view.stop()
