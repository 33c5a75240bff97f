# A journal that will not replay never stops the board (issue #15, item 1): its checksums
# are good but an event no longer applies (a firmware update changed a rule, or an event
# was stored that does not follow). The board keeps it aside, starts clean, says so in its
# hello, and goes on journaling; the next power-up resumes the new journal.
import json
import os
from array import array

from board.app import App, Hardware
from board.journal import Journal
from board.storage import FlashStorage
from board_support import rmtree, tmpdir
from faulty_storage import FullFlash
from sim.hw import LineLink, SimButtons, SimLeds
from sim.rng import Rng
from sim.sensor_model import SensorModel, SimClock


def _power_up(path, leds, storage=None):
    clock = SimClock()
    link = LineLink()
    hw = Hardware(SensorModel(clock, seed=3), clock, Rng(5), storage or FlashStorage(path), link,
                  SimLeds(leds["count"]), SimButtons(), {"leds": leds})
    app = App(hw, array("H", bytes(256)))
    app.start()
    return app, link, json.loads(link.sent.pop(0).decode())


def _leds():
    with open("hardware/pinmap.json") as f:
        return json.load(f)["leds"]


def _raw(path, name):
    with open(path + "/" + name, "rb") as f:
        return f.read()


def test_a_journal_that_will_not_replay_is_kept_aside_and_the_board_starts_clean():
    leds = _leds()
    path = tmpdir("bgboard-boot")
    try:
        j = Journal(FlashStorage(path))
        old_id = j.id
        j.append({"ev": "match", "length": 5, "rules": {}})
        j.append({"ev": "play", "player": 0, "dice": [3, 1], "moves": [[8, 5, False]]})
        stored = _raw(path, "journal")

        app, link, hello = _power_up(path, leds)
        assert hello["hello"] == "bgboard" and hello["seq"] == 0
        assert hello["kept"] == "journal.bad" and hello["journal"] != old_id
        assert "before" in hello["kept_why"] or "Error" in hello["kept_why"], hello
        assert _raw(path, "journal.bad") == stored  # kept as it was, never deleted
        sign = json.loads(link.sent[0].decode())  # and the LEDs show the error sign
        assert sign["live"] == "refused" and "journal.bad" in sign["reason"]
        assert app.board.refused_until is not None
        assert app.board.state()["phase"] == "idle"

        # The board goes on: a new match is journaled in the new journal.
        link.feed(json.dumps({"cmd": "new", "kind": "money", "id": 1}).encode())
        app.step()
        replies = [json.loads(b.decode()) for b in link.sent]
        assert {"id": 1, "ok": True} in [{k: r[k] for k in ("id", "ok") if k in r}
                                         for r in replies]
        del app, link

        # Power again: the new journal resumes, the kept file stays, nothing new is kept.
        app, link, hello = _power_up(path, leds)
        assert hello["seq"] == 1 and "kept" not in hello
        assert app.board.state()["phase"] != "idle"
        assert _raw(path, "journal.bad") == stored
    finally:
        rmtree(path)


def test_a_damaged_calibration_never_stops_the_board_from_booting():
    # calibration.json as a worn flash or a half-written tool might leave it: the board
    # boots uncalibrated, says so once (a fault "calibration"), and plays on; a good file
    # still loads.
    leds = _leds()
    good = {"offsets": [2048] * 128, "faulty": [5], "gains": None, "dead": [7]}
    damaged = [b"{not json", b"[1, 2]", b'{"offsets": null, "faulty": []}']
    for key, bad in (("offsets", [2048] * 127), ("offsets", ["2048"] * 128),
                     ("offsets", [2048] * 127 + [True]), ("offsets", [2048] * 127 + [9999]),
                     ("faulty", [200]), ("faulty", "5"), ("gains", [4096] * 12),
                     ("gains", [4096.0] * 128), ("dead", ["x"])):
        broken = dict(good)
        broken[key] = bad
        damaged.append(json.dumps(broken).encode())
    # ...and what another tool may leave under its name: a file of 1 MB (a Pico has 0.25 MB
    # of RAM: it must not be read), a folder.
    damaged += [b"<1 MB>", b"<folder>"]
    for data in damaged + [json.dumps(good).encode()]:
        path = tmpdir("bgboard-boot")
        try:
            if data == b"<folder>":
                os.mkdir(path + "/calibration.json")
            elif data == b"<1 MB>":  # written a KB at a time: the test's heap is a Pico's
                with open(path + "/calibration.json", "wb") as f:
                    for _ in range(1024):
                        f.write(b" " * 1024)
            else:
                FlashStorage(path).write("calibration.json", data)
            app, link, hello = _power_up(path, leds)
            assert hello["hello"] == "bgboard", data
            faults = [json.loads(b.decode()) for b in link.sent]
            faults = [f for f in faults if f.get("live") == "fault"]
            if data in damaged:
                assert app.offsets is None and app.faulty == [] and app.dead == [], data
                assert [f["task"] for f in faults] == ["calibration"], (data, faults)
            else:
                assert app.offsets == good["offsets"] and app.faulty == [5], data
                assert app.sensor_loop.sensing.blind() == [5, 7] and not faults, faults
            # It plays on: a new session is taken.
            link.sent = []
            link.feed(json.dumps({"cmd": "new", "kind": "money", "id": 2}).encode())
            app.step()
            replies = [json.loads(b.decode()) for b in link.sent]
            assert any(r.get("id") == 2 and r.get("ok") for r in replies), (data, replies)
            del app, link
        finally:
            rmtree(path)


def test_a_damaged_journal_on_a_full_flash_still_boots_and_says_so():
    # Issue 29: App() raised OSError 28 in the repair and the board sat at the REPL, each
    # boot leaving another empty journal.bad-N. Now it boots on the intact events, says the
    # flash is full (hello's "unkept", the LEDs' error sign), commits nothing, keeps no
    # part of a copy, and goes on once room is made.
    leds = _leds()
    path = tmpdir("bgboard-boot")
    try:
        j = Journal(FlashStorage(path))
        old_id = j.id
        j.append({"ev": "match", "length": 5, "rules": {}})
        for i in range(3):
            j.append({"ev": "note", "n": i})
        whole = _raw(path, "journal")
        at = whole.index(b" e2 {") + 8
        with open(path + "/journal", "wb") as f:
            f.write(whole[:at] + b"###" + whole[at + 3:])  # one flipped bit is corrected
        for _ in range(2):
            app, link, hello = _power_up(path, leds, FullFlash(path))
            assert hello["journal"] == old_id and hello["seq"] == 1, hello
            assert "flash is full" in hello["unkept"], hello
            assert [n for n in os.listdir(path) if ".bad" in n] == []
            sign = json.loads(link.sent[0].decode())
            assert sign["live"] == "refused" and "flash is full" in sign["reason"]
            assert app.board.state()["phase"] != "idle"  # the match resumed
            del app, link
        flash = FullFlash(path)
        app, link, hello = _power_up(path, leds, flash)
        flash.make_room(8192)
        link.sent = []
        link.feed(json.dumps({"cmd": "new", "kind": "money", "id": 3}).encode())
        app.step()
        replies = [json.loads(b.decode()) for b in link.sent]
        assert any(r.get("id") == 3 and r.get("ok") for r in replies), replies
        assert app.journal.unkept is None or "full" not in app.journal.unkept
        assert app.journal.kept == "journal.bad"
    finally:
        rmtree(path)
