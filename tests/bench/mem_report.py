# Where the firmware's RAM goes, on the MicroPython unix port (`make bench`): the bytes each
# module takes once imported (code, its constants and names), the application's objects on
# simulated hardware, what a few games add, and which modules a game loads. Figures are
# gc.mem_alloc() after gc.collect(). This port is 64-bit: objects and code take about 1.6x
# what they take on the Pico's 32-bit RP2040.
#
# Each module's figure leaves out the growth of MicroPython's table of names (qstr pools,
# which double as they fill): it is grown beforehand and reported on its own.
import gc
import sys

import micropython  # type: ignore[import-not-found]

# The order a device imports them in (each after what it imports).
CORE = ("bgcore", "bgcore.rules", "bgcore.cube", "bgcore.offers", "bgcore.game",
        "bgcore.match")
BOARD = ("board.layout", "board.tracker", "board.record", "board.controller", "board.sensing",
         "board.storage", "board.journal_codec", "board.journal", "board.leds", "board.protocol",
         "board.app")
ON_DEMAND = ("bgcore.gamedata", "bgcore.positionid", "bgcore.resign", "bgcore.beavers",
             "bgcore.moving", "bgcore.rare", "bgcore.matchid", "bgcore.plays", "bgcore.drawing",
             "bgcore.ordering", "bgcore.ledger", "bgcore.chouette", "board.calibration",
             "board.chouette_session", "board.seldom", "board.maintenance", "board.learned")
SIM = ("sim.rng", "sim.sensor_model", "sim.hw", "sim.table", "sim.world", "sim.hands",
       "sim.virtual_board", "sim.autoplay")
GAMES = 3
NAMES = 1500  # more than the firmware, the simulation and this script intern


def alloc():
    gc.collect()
    return gc.mem_alloc()


def imports(names, loaded):
    total = 0
    for name in names:
        before = alloc()
        try:
            __import__(name)
        except ImportError:
            continue
        size = alloc() - before
        loaded.append((name, size))
        total += size
    return total


def main():
    start = alloc()
    # Grow the name table first (hasattr interns the name), so that a module's figure is its
    # own and not the table's doubling that happened to fall into its import.
    for i in range(NAMES):
        hasattr(gc, "mem_report_%d" % i)
    table = alloc() - start
    loaded = []
    core = imports(CORE, loaded)
    board = imports(BOARD, loaded)
    firmware = core + board
    print("mem on %s (64-bit unix port), bytes after gc.collect():" % sys.implementation.name)
    for name, size in loaded:
        print("  %-20s %6d" % (name, size))
    print("  firmware modules    %6d (bgcore %d, board %d)" % (firmware, core, board))
    sim = []
    imports(SIM, sim)
    print("  simulation (tests only) %6d" % sum(size for _, size in sim))
    before_app = alloc()
    vb, ap, path = make_app()
    live = alloc() - before_app
    print("  App started on the virtual board: %d (its simulated sensors included)" % live)
    seen = set(sys.modules)
    most = 0
    from bgcore import Rules

    vb.board.new_match(0, Rules(jacoby=True))
    while ap.games < GAMES:
        ap.step()
        gc.collect()
        most = max(most, gc.mem_alloc())
    grown = alloc() - before_app - live
    print("  %d money games played by the simulated hands: %+d bytes live after them; "
          "the most live during them %d" % (GAMES, grown, most - before_app))
    new = sorted(m for m in sys.modules if m not in seen)
    print("  modules the games loaded: %s" % (", ".join(new) or "none"))
    rest = []
    imports(ON_DEMAND, rest)
    print("  on demand (not loaded by the games): %s"
          % ", ".join("%s %d" % r for r in rest if r[0] not in new))
    print("  the table of names, grown beforehand: %d bytes (with the %d made-up names' "
          "own text); at the end:" % (table, NAMES))
    micropython.qstr_info()
    micropython.mem_info()
    cleanup(path)


def make_app():
    import json

    from board.app import App, Hardware
    from board.storage import FlashStorage
    from sim.autoplay import Autoplay
    from sim.hw import LineLink, SimButtons, SimLeds
    from sim.virtual_board import VirtualBoard

    with open("hardware/pinmap.json") as f:
        pinmap = {"leds": json.load(f)["leds"]}
    path = "/tmp/bgboard-mem-report"
    storage = FlashStorage(path)
    for name in storage.names():
        storage.remove(name)

    class Link(LineLink):  # forgets what it sent: a host reads it
        def write(self, data):
            LineLink.write(self, data)
            self.sent.clear()
            return len(data)

    def factory(vb):
        hw = Hardware(vb.model, vb.clock, vb.dice, storage, Link(), SimLeds(
            pinmap["leds"]["count"]), SimButtons(), pinmap)
        return App(hw, vb.buf)

    vb = VirtualBoard(seed=7, app=factory)
    ap = Autoplay(vb, seed=7)
    return vb, ap, path


def cleanup(path):
    import os

    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


main()
