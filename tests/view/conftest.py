"""Browser tests of `bgboard view`: real headless Chromium (Debian's chromium package,
driven by Playwright's Python package; no browser download), the view server as the
`bgboard view` command, and the virtual board (the firmware on the MicroPython unix port
behind a PTY, tests/e2e/simboard.py) or a scripted real board (tests/host/fakeboard.py)."""

import os
import signal
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
for path in (HERE, os.path.join(TESTS, "e2e"), os.path.join(TESTS, "host")):
    if path not in sys.path:
        sys.path.insert(0, path)

from simboard import SimBoard, bytecode  # noqa: E402,F401  (bytecode: a fixture)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")


# Per module: Playwright's sync API keeps an asyncio loop running in this thread while it is
# open, which would break tests elsewhere that run a loop of their own.
@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):  # a missing tool fails the run
        pytest.fail("Chromium is not installed (make system-deps)")
    from playwright import sync_api
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """new_page(): a page in a fresh browser context (a viewer of its own)."""
    contexts = []

    def make(width=1400, height=900):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(20000)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def sim_board(bytecode, tmp_path):
    """The virtual board in real time (seed 3) on a flash folder of its own."""
    board = SimBoard(bytecode, str(tmp_path / "flash"), "--speed", "1", "--seed", "3")
    yield board
    board.stop()
    err = board.stderr()
    if err.strip():
        print("board stderr:\n%s" % err[-3000:])


class Viewer:
    """`bgboard view` running: `url` once it printed `view: URL`."""

    def __init__(self, port, http_port=0):
        self.proc = subprocess.Popen([BGBOARD, "view", "--port", port, "--http-port",
                                      str(http_port)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("view: "):
            self.proc.kill()
            raise AssertionError("bgboard view said %r; stderr: %s"
                                 % (line, self.proc.stderr.read()))
        self.url = line.split()[1]

    def stop(self):
        """Ctrl-C: it stops cleanly (exit 0); returns its stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
                raise AssertionError("bgboard view did not stop on Ctrl-C")
        err = self.proc.stderr.read()
        assert self.proc.returncode == 0, err
        return err


@pytest.fixture
def start_view():
    viewers = []

    def start(port, http_port=0):
        v = Viewer(port, http_port)
        viewers.append(v)
        return v

    yield start
    for v in viewers:
        if v.proc.poll() is None:
            v.proc.kill()
            v.proc.wait(5)
