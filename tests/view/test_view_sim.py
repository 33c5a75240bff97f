"""`bgboard sim --view`: the virtual board and its browser view in one command, as a person
starts it; the page plays on it (the board's buttons) and Ctrl-C stops both."""

import os
import signal
import subprocess
import sys

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


def test_sim_view_serves_the_virtual_board(tmp_path, new_page):
    sim = subprocess.Popen([BGBOARD, "sim", "--view", "--http-port", "0", "--flash",
                            str(tmp_path / "flash")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert sim.stdout.readline().startswith("port: /dev/pts/")
        line = sim.stdout.readline()
        assert line.startswith("view: http://127.0.0.1:"), line
        page = new_page()
        page.goto(line.split()[1])
        page.wait_for_selector("#controls:not([hidden])")
        page.click("#new-money")
        page.locator("svg text.match", has_text="money session").wait_for()
        page.locator("svg text.match", has_text="set up the checkers").wait_for()
        page.click('button[data-button="roll"]')  # refused: the checkers are not set up
        page.locator("#notes", has_text="refused").wait_for()
    finally:
        sim.send_signal(signal.SIGINT)
        assert sim.wait(30) == 0, sim.stderr.read()
