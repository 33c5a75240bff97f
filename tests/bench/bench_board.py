# Board figures on the MicroPython unix port (make bench): from a lifted checker to the LED
# frame being ready (the board's answer to a hand), and a placement committed and redrawn.
# A Pico is about 100x slower: budget 20 ms there, so 0.2 ms here.
import json
import sys
import time

from bgcore import Position
from board.controller import Controller
from board.leds import LedMap, Renderer
from board.tracker import Sensed
from sim.rng import Rng
from sim.sensor_model import SimClock

MICRO = sys.implementation.name == "micropython"


def now_us():
    return time.ticks_us() if MICRO else time.perf_counter_ns() // 1000  # type: ignore[attr-defined]


def since_us(t0):
    return time.ticks_diff(time.ticks_us(), t0) if MICRO else now_us() - t0  # type: ignore[attr-defined]


class Ready:
    """The LED driver's side: the frame is ready when it is handed over."""

    def show(self, rgb, scale=256):
        pass


def timed(board, sensed, undo):
    # Best of three (the first may meet a garbage collection, which is real, but also the
    # machine's other work, which is not); `undo` puts the board back between tries.
    best = 1 << 30
    for _ in range(3):
        t0 = now_us()
        board.on_sensed(sensed)
        best = min(best, since_us(t0))
        undo()
    return best


def main():
    with open("hardware/pinmap.json") as f:
        leds = json.load(f)["leds"]
    ledmap = LedMap(leds)
    renderer = Renderer(Ready(), ledmap, 64, 300)
    worst_lift = worst_place = total = n = 0
    rng = Rng(3)
    for trial in range(200):
        board = Controller(SimClock(), rng, None, renderer, lambda m: None)
        board.new_match(5)
        sensed = Sensed()
        sensed.set_position(0, Position.initial())
        board.on_sensed(sensed)  # set up: the game starts
        board.roll((rng.randint(2, 6), 1))
        turn = board.match.game.turn
        srcs = [p for p in range(25, 0, -1) if turn.destinations(p)]
        src = srcs[trial % len(srcs)]
        dst = turn.destinations(src)[0]
        side = board.match.game.player
        sensed.count[side][src] -= 1
        # lift: destinations drawn, LED frame handed over (the same reading each try)
        lift = timed(board, sensed, lambda: None)
        sensed.count[side][dst] += 1
        t0 = now_us()
        board.on_sensed(sensed)  # placed: move committed, LEDs redrawn (once: it commits)
        place = since_us(t0)
        worst_lift = max(worst_lift, lift)
        worst_place = max(worst_place, place)
        total += lift
        n += 1
    print("board on %s: lift -> LED frame sent: worst %d us, mean %d us (budget 200 us); "
          "placement -> move committed and redrawn: worst %d us"
          % (sys.implementation.name, worst_lift, total // n, worst_place))


def best_of(n, f):
    best = 1 << 30
    for _ in range(n):
        t0 = now_us()
        f()
        best = min(best, since_us(t0))
    return best


def engine_commands():
    """What a board does for `bgboard engine` while gnubg thinks on the host: nothing (it
    scans on; the host asks gnubg in its own process). Its share is the commands the engine
    sends, each handled between two scans: `state` (asked at least once a second and after
    each event), `guide` without moves (what the turn is) and `guide` with gnubg's play (the
    Guide built and drawn). How long each holds the scan loop, on random openings' rolls."""
    from bgcore.plays import plays_with_steps
    from board.guide import command

    with open("hardware/pinmap.json") as f:
        leds = json.load(f)["leds"]
    renderer = Renderer(Ready(), LedMap(leds), 64, 300)
    rng = Rng(5)
    times = {"state": [], "info": [], "guide": []}
    for trial in range(100):
        board = Board(SimClock(), rng, None, renderer, lambda m: None)
        board.new_match(5)
        sensed = Sensed()
        sensed.set_position(0, Position.initial())
        board.on_sensed(sensed)
        board.roll((rng.randint(1, 6), rng.randint(1, 6)))
        turn = board.match.game.turn
        if turn is None:
            continue  # an opening tie: thrown again
        plays = plays_with_steps(turn.start, turn.dice)
        steps = plays[trial % len(plays)][1]
        words = " ".join("%d/%d" % (st.src, st.dst) for st in steps)
        info = command(board, {})
        guided = {"moves": words, "start": info["start"]}
        # Best of three, as timed() (this machine's other work is not the board's); the
        # guide given again replaces itself.
        times["state"].append(best_of(3, board.state))
        times["info"].append(best_of(3, lambda: command(board, {})))
        times["guide"].append(best_of(3, lambda: command(board, guided)))
    parts = []
    for key, words in (("state", "state"), ("info", "guide (the turn)"),
                       ("guide", "guide with gnubg's play (built, drawn)")):
        t = sorted(times[key])
        parts.append("%s: median %d us, worst %d us" % (words, t[len(t) // 2], t[-1]))
    print("board on %s, the engine's commands (each between two scans; gnubg thinks on the "
          "host): %s" % (sys.implementation.name, "; ".join(parts)))


main()
engine_commands()
