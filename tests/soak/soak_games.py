# The whole board in simulation on MicroPython's unix port with a Pico's heap: complete
# games played by clumsy simulated hands over noisy sensors. Every play the board commits must
# equal what the hands did; no crash, no MemoryError.
#
# The heap is the Makefile's APP_HEAP, with the simulated sensors, hands and players in it
# besides the firmware, and code taking about twice the RAM on this 64-bit port that it takes
# on the 32-bit RP2040. What limits it is the start: a heap fragmented by the imports, where the
# sensing tables must find room (tests/bench/mem_report.py shows where the bytes go).
import gc

from bgcore import Rules

from sim.autoplay import Autoplay
from sim.virtual_board import VirtualBoard
from sim.world import World


def check_autoplay(ap, what):
    """The board committed exactly the plays the simulated hands made (sim.autoplay); here,
    not from board_support, whose other helpers would take this soak's heap."""
    assert not ap.mismatches, "%s: board committed other plays: %r" % (what, ap.mismatches[:3])
    assert ap.stuck == 0, "%s: board disagreed with the hands %d times" % (what, ap.stuck)


MATCH_SEEDS = range(1, 56)  # 55 seven-point matches: about 150 games
MONEY_GAMES = 40


def test_hundreds_of_games_with_noisy_sensors_and_clumsy_hands():
    # One physical board (sensors, checkers, factory calibration), as a player has one,
    # powered up afresh for each match with other dice and other hands.
    world = World(1)
    games = plays = 0
    for seed in MATCH_SEEDS:
        world.table.clear()
        vb = VirtualBoard(seed=seed, clumsy=25, world=world)
        ap = Autoplay(vb, seed=seed)
        assert ap.play_match(7), "match %d did not finish" % seed
        check_autoplay(ap, "match %d" % seed)
        games += ap.games
        plays += ap.plays
        vb = ap = None
        gc.collect()
    assert games >= 130 and plays > 6000, (games, plays)
    print("soak: %d games, %d plays, every one as the hands made it" % (games, plays))


def test_heap_does_not_grow_from_game_to_game():
    vb = VirtualBoard(seed=7)
    ap = Autoplay(vb, seed=7)
    heap = [0] * MONEY_GAMES  # filled in place: a growing list would be growth measured
    vb.board.new_match(0, Rules(jacoby=True))
    while ap.games < MONEY_GAMES:
        before = ap.games
        ap.step()
        if ap.games != before:
            gc.collect()
            heap[before] = gc.mem_alloc()
    check_autoplay(ap, "money session")
    # The lowest reading of the last ten games against that of games 5..14 (a game that has
    # just ended holds its last objects for a moment: single readings vary by about 1 KB).
    # Anything kept per game would add up over 25 games.
    assert min(heap[-10:]) - min(heap[5:15]) < 256, heap
    print("heap after each of %d games: %d..%d bytes" % (len(heap), min(heap), max(heap)))


