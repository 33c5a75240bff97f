"""Power cuts on the emulated Pico: the emulator is stopped dead at random moments while the
simulated players play, and started again on the same flash image. Every restart must come
back at the last committed event: the board's journal holds every event the line carried
before the cut, unchanged, and its hello names it."""

import random
import threading

from picosupport import hello

from bgboard.pico import PowerCut
from bgboard.pico.players import Players

CUTS = 3


def test_every_restart_resumes_at_the_last_committed_event(pico):
    assert hello(pico)
    players = Players(pico, seed=11, double_pct=0)
    seen = {}  # seq -> event, as the line carried them

    def on_line(line):
        ev = players.on_line(line)
        if ev is not None:
            seen[ev["seq"]] = ev

    pico.on_line = on_line
    pico.command({"cmd": "new", "kind": "money"})
    rng = random.Random(7)
    stop = threading.Event()
    failures = []

    def play():
        # A cut under a command raises PowerCut: the players ask again, once the board is
        # back, and play on from what it says.
        while not stop.is_set():
            try:
                players.step()
            except PowerCut:
                pass
            except Exception as e:  # a test failure, not a thread's silent death
                failures.append(repr(e))
                return

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    resumed = []
    unsent = set()  # stored just before a cut, never on the line: the journal has them
    try:
        for _ in range(CUTS):
            # Some plays, then the power goes at an arbitrary moment (mid-hand, mid-line).
            target = len(seen) + rng.randint(1, 3)
            while len(seen) < target and thread.is_alive():
                stop.wait(0.2)
            stop.wait(rng.uniform(0, 3))
            before = max(seen)
            pico.power_cut()
            back = hello(pico)
            assert back, pico.device_text[-2000:]
            resumed.append((before, back["seq"]))
            # The board may have stored an event it had no time to send: never fewer.
            assert back["seq"] >= before, resumed
            unsent.update(range(before + 1, back["seq"] + 1))
            since = max(0, before - 5)
            kept = _journal(pico, since)
            for seq in range(since + 1, before + 1):
                if seq in unsent and seq not in seen:
                    assert seq in kept, (seq, resumed)
                    continue
                assert kept[seq] == seen[seq], (seq, kept.get(seq), seen.get(seq), resumed)
        # Play goes on after the last restart.
        target = max(seen) + 2
        while max(seen) < target and thread.is_alive():
            stop.wait(0.2)
        assert thread.is_alive(), failures
    finally:
        stop.set()
        thread.join(120)
    assert not failures, failures
    assert players.mismatches == [], players.mismatches
    assert len(pico.boots) == CUTS + 1


def _journal(pico, since):
    events = {}
    while True:
        page = pico.command({"cmd": "journal", "since": since})
        assert "events" in page, page
        for ev in page["events"]:
            events[ev["seq"]] = ev
            since = ev["seq"]
        if not page.get("more"):
            return events
