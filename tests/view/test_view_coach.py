"""The coach on the page: `bgboard engine --port P --view` (gnubg plays one side of the
virtual board, the view serves the page). A hint asked from the page's Hint button and from
the board's Menu button: the page lists gnubg's top plays, the board lights the best one's
first checker; the person's play, made by clicking, shown rated once committed. Real gnubg,
real Chromium, the virtual board."""

import os
import re
import signal
import subprocess
import sys

from test_view_play import dice_shown, stacks
from viewsupport import log

from bgcore import Position, Turn, notation
from bgwire import physical

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


class EngineView:
    def __init__(self, port, *args):
        self.proc = subprocess.Popen([BGBOARD, "engine", "--port", port, "--view",
                                      "--http-port", "0", "--wait", "0"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("view: "):
            self.proc.kill()
            raise AssertionError("bgboard engine --view said %r; stderr: %s"
                                 % (line, self.proc.stderr.read()))
        self.url = line.split()[1]

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        out, self.err = self.proc.communicate(timeout=20)
        assert self.proc.returncode == 0, self.err
        return out


def lit(page, role):
    return sorted(int(e.get_attribute("data-point")) for e in page.query_selector_all(
        '#board .glow[data-place="point"][data-role="%s"]' % role))


def moves(words):
    """[(from, to)] of a play in gnubg's words ("24/18 13/10", "8/5(2)", "bar/22*"), each
    checker's whole way (lifted there, put down here)."""
    out = []
    for word in words.split():
        m = re.fullmatch(r"(bar|\d+)/(off|\d+)\*?(?:\((\d)\))?", word)
        assert m, words
        src = 25 if m.group(1) == "bar" else int(m.group(1))
        dst = 0 if m.group(2) == "off" else int(m.group(2))
        out += [(src, dst)] * int(m.group(3) or 1)
    return out


def click_move(page, src, dst):
    """White's checker lifted from `src` and put down on `dst` by clicking, as a person does
    on the page of the virtual board; until the page draws it there."""
    before = stacks(page)[physical(0, dst)][0]
    page.click('#board .hit[data-point="%d"]' % physical(0, src))
    page.locator("#hint", has_text="In hand: 1 white").wait_for()
    page.click('#board .hit[data-point="%d"]' % physical(0, dst))
    page.wait_for_function(
        """([p, n]) => document.querySelectorAll(
               `#board circle.checker[data-point="${p}"][data-side="0"]`).length
               >= Math.min(n, 5)""", arg=[physical(0, dst), before + 1])


def test_a_hint_from_the_page_and_from_the_menu_button(sim_board, new_page):
    # gnubg plays black; the opening throw of this seed goes to white, the person
    engine = EngineView(sim_board.path, "--side", "black")
    try:
        page = new_page()
        page.goto(engine.url)
        page.wait_for_selector("#coach:not([hidden])")
        page.click("#hint-button")  # nobody is on roll: said, nothing lit
        page.locator("#notes", has_text="hint: no game is being played").wait_for()

        page.fill("#length", "3")
        page.click("#new-match")
        page.locator("svg text.match", has_text="set up the checkers").wait_for()
        page.click("#arrange")
        page.locator("svg text.match", has_text="opening throw").wait_for()
        page.click('button[data-button="roll"]')
        page.locator("svg text.status", has_text="White to play").wait_for()

        page.click("#hint-button")
        page.wait_for_selector("#hint-plays tr.best")
        rows = [r.inner_text().split("\t") for r in page.query_selector_all("#hint-plays tr")]
        caption = page.inner_text("#hint-plays caption")
        assert caption.startswith("Hint for ") and "(worldclass)" in caption
        assert 1 <= len(rows) <= 5
        best = rows[0][1]
        # the best play's first checker: its origin lit blue, where it goes green
        src, dst = (int(x.rstrip("*")) for x in best.split()[0].split("(")[0].split("/")[:2])
        page.wait_for_function(
            "() => document.querySelector('#board .glow[data-place=\"point\"]"
            "[data-role=\"origin\"]')")
        assert lit(page, "origin") == [src], (best, lit(page, "origin"))
        log("hint for %s: %s" % (caption, "; ".join(" ".join(r) for r in rows)))

        page.evaluate("() => document.querySelector('#hint-plays').replaceChildren()")
        page.click('button[data-button="menu"]')  # the board's own way to ask
        page.wait_for_selector("#hint-plays tr.best")
        assert page.query_selector_all("#hint-plays tr")[0].inner_text().split("\t")[1] == best

        # The person makes the hint's play by clicking (the checker lifted, then where it
        # goes); once the engine throws, the play is committed and the page shows it rated.
        dice = tuple(int(d) for d in caption.split()[2].split("-"))
        turn = Turn(Position.initial(), dice)
        for src, dst in moves(best):
            click_move(page, src, dst)
            turn.move(src, dst)
        page.wait_for_selector("#ratings tr")
        (cells,) = [[c.inner_text() for c in r.query_selector_all("td")]
                    for r in page.query_selector_all("#ratings tr")]
        assert cells[0] == "%d-%d" % dice and cells[1] == notation(turn.steps), cells
        assert cells[2] in ("ok", "doubtful", "bad", "very bad"), cells
        if cells[2] == "ok":
            assert cells[3] == "", cells
        else:  # the equity lost and gnubg's play
            assert cells[3].startswith("-0.") and "(gnubg: " in cells[3], cells
        assert page.inner_text("#tally").startswith("Your plays rated: 1; ")
        log("rated: %s" % " ".join(cells))
    finally:
        out = engine.stop()
    assert "gnubg restarted 0 time(s)" in out


def test_physical_dice_entered_on_the_page_for_the_person_and_the_engine(sim_board, new_page):
    # --dice physical: the opening throw and the engine's throw are dice thrown by hand and
    # entered on the page; the engine asks for its own once it has decided on the cube, and
    # plays the dice entered (its play lit on the board).
    engine = EngineView(sim_board.path, "--side", "black", "--dice", "physical")
    try:
        page = new_page()
        page.goto(engine.url)
        page.wait_for_selector("#coach:not([hidden])")
        page.fill("#length", "1")
        page.click("#new-match")
        page.locator("svg text.match", has_text="set up the checkers").wait_for()
        page.click("#arrange")
        page.locator("svg text.match", has_text="opening throw").wait_for()
        page.fill("#dice", "9 1")  # no die has 9 pips: said on the page, nothing sent
        page.click("#enter-dice")
        page.locator("#notes", has_text="dice: two dice of 1 to 6").wait_for()
        page.fill("#dice", "3 1")  # the opening throw: white's die first
        page.click("#enter-dice")
        page.locator("svg text.status", has_text="White to play").wait_for()
        assert sorted(dice_shown(page)[0]) == [1, 3]
        for src, dst in ((8, 5), (6, 5)):
            click_move(page, src, dst)
        page.locator("#notes", has_text="gnubg's throw: throw the dice for it").wait_for()
        page.fill("#dice", "6-5")
        page.click("#enter-dice")
        page.locator("svg text.status", has_text="gnubg expert to play 6-5").wait_for()
        page.wait_for_function(  # gnubg's play for 6-5, its first checker lit
            "() => document.querySelector('#board .glow[data-role=\"origin\"]')")
    finally:
        out = engine.stop()
    assert "gnubg restarted 0 time(s)" in out
    # what the page said is said in the terminal too, as it comes (as without --view)
    assert "bgboard: gnubg (expert) plays black" in engine.err
    assert "bgboard: gnubg's throw: throw the dice for it" in engine.err


def test_one_command_plays_gnubg_on_the_virtual_board_page(tmp_path, new_page):
    # What the README tells a newcomer: `bgboard engine --sim --view` starts the virtual board
    # on its kept flash and serves the page with the coach; gnubg plays black.
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))
    proc = subprocess.Popen([BGBOARD, "engine", "--sim", "--view", "--match", "1",
                             "--http-port", "0", "--wait", "0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("view: "), (line, proc.stderr.read() if proc.poll() else "")
        page = new_page()
        page.goto(line.split()[1])
        page.wait_for_selector("#coach:not([hidden])")
        page.locator("svg text.match", has_text="1-point match").wait_for()
        page.click("#arrange")
        page.locator("svg text.match", has_text="opening throw").wait_for()
        for _ in range(5):  # a tie is thrown again
            page.click('button[data-button="roll"]')
            try:
                page.locator("svg text.status", has_text=" to play").wait_for(timeout=5000)
                break
            except Exception:
                continue
        page.locator("svg text.status", has_text=" to play").wait_for()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "the virtual board: port /dev/pts/" in err
    assert os.path.isfile(os.path.join(tmp_path, "bgboard", "sim-flash", "journal"))


def test_one_command_refuses_a_flash_another_board_runs_on(tmp_path):
    # `bgboard sim` and `bgboard engine --sim --view` share the kept flash: one board per flash
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))
    sim = subprocess.Popen([BGBOARD, "sim"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert sim.stdout.readline().startswith("port: ")
        second = subprocess.run([BGBOARD, "engine", "--sim", "--view", "--http-port", "0"],
                                env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stderr
        assert "in use by another bgboard sim" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(30)
