# The engine's play guided on the board (board/guide.py, the `guide` command): the LEDs show
# one checker at a time, hits and their bar included; a checker moved otherwise is shown as
# wrong and no other play is committed. Perfect sensing; real LED frames.
import json

from board.controller import Controller
from bgwire import ROLL
from board.guide import command
from board.leds import LedMap, Renderer
from bgwire import HIT, ORIGIN, TARGET, WRONG
from bgwire.commands import CommandError, parse
from board_support import BLACK, WHITE, Dice, Eyes
from sim.hw import SimLeds
from support import raises


class Clock:
    # Time stands still here (board.hw.Clock; sim.sensor_model's costs RAM this test lacks).
    def ticks_ms(self):
        return 0

    def ticks_diff(self, a, b):
        return a - b


def rig(*throws):
    with open("hardware/pinmap.json") as f:
        ledmap = LedMap(json.load(f)["leds"])
    out = Renderer(SimLeds(ledmap.count), ledmap, 255, 100000)
    events = []
    board = Controller(Clock(), Dice(*throws), None, out, events.append)
    board.new_match(3)
    eyes = Eyes(board)
    eyes.start()
    board.roll()
    return board, eyes, events, out


def lit(out, rgb):
    # Places lit in this colour: white's point numbers 1..24, "bar0"/"bar1" for the bars.
    m = out.map
    found = []
    for p in range(1, 25):
        i = m.points[p - 1][0]
        if tuple(out.frame[3 * i:3 * i + 3]) == rgb:
            found.append(p)
    for side in (0, 1):
        i = m.bar[side][0]
        if tuple(out.frame[3 * i:3 * i + 3]) == rgb:
            found.append("bar%d" % side)
    return found


def plays(events):
    return [e for e in events if e.get("ev") == "play"]


def guide(board, moves):
    return command(board, {"moves": moves, "start": board.match.game.turn.start.to_id()})


def test_the_play_is_lit_a_checker_at_a_time_and_only_it_commits():
    board, eyes, events, out = rig((3, 1), (6, 5))
    info = command(board, {})
    assert info["player"] == WHITE and info["dice"] == [3, 1] and info["moves"] is None
    info = guide(board, "8/5 6/5")
    assert info["moves"] == "8/5 6/5"
    assert lit(out, ORIGIN) == [8] and lit(out, TARGET) == [5]
    eyes.lift(WHITE, 8)  # the right checker: only its destination, not every legal one
    assert lit(out, ORIGIN) == [8] and lit(out, TARGET) == [5]
    eyes.put(WHITE, 7)  # legal, but not the engine's move: shown wrong, back to 8
    assert lit(out, WRONG) == [7] and lit(out, ORIGIN) == [8]
    eyes.carry(WHITE, 6, 3)  # a whole play, another one
    assert board.match.game.turn.can_end()
    board.on_buttons(ROLL)
    assert events[-1]["live"] == "refused" and "8/5 6/5" in events[-1]["reason"]
    assert plays(events) == [] and board.match.game.player == WHITE
    eyes.carry(WHITE, 3, 6)  # taken back, a checker at a time
    eyes.carry(WHITE, 7, 8)
    assert board.match.game.turn.moves == []
    assert lit(out, ORIGIN) == [8] and lit(out, TARGET) == [5] and lit(out, WRONG) == []
    eyes.carry(WHITE, 8, 5)
    assert lit(out, ORIGIN) == [6] and lit(out, TARGET) == [5]  # the next checker
    eyes.carry(WHITE, 6, 5)
    assert lit(out, ORIGIN) == [] and lit(out, TARGET) == []
    board.on_buttons(ROLL)
    (play,) = plays(events)
    assert play["player"] == WHITE and play["moves"] == [[8, 5, 0], [6, 5, 0]]


def test_a_hit_shows_the_blot_and_the_bar_it_goes_to():
    board, eyes, events, out = rig((6, 4), (6, 2), (1, 1))
    eyes.carry(WHITE, 24, 18)  # white leaves blots on its 18 and 9
    eyes.carry(WHITE, 13, 9)
    board.roll()  # black 6-2: gnubg's 13/7*/5 hits white's 18 (black's 7) on the way
    guide(board, "13/7 7/5")
    # black's 13, 7 and 5 are white's 12, 18 and 20
    assert lit(out, ORIGIN) == [12] and lit(out, TARGET) == [20]
    assert lit(out, HIT) == [18, "bar0"]
    eyes.carry(BLACK, 13, 7)  # a die at a time: the first lands on the blot
    assert lit(out, HIT) == [18, "bar0"]  # the hit checker must go to its bar
    eyes.carry(WHITE, 18, 25)
    assert lit(out, ORIGIN) == [18] and lit(out, TARGET) == [20]  # and on to 5
    eyes.carry(BLACK, 7, 5)
    board.roll()
    assert plays(events)[-1]["moves"] == [[13, 7, 1], [7, 5, 0]]


def test_a_guide_must_be_a_whole_legal_play_of_the_turn_being_played():
    board, eyes, events, out = rig((3, 1))
    start = board.match.game.turn.start.to_id()
    raises(ValueError, command, board, {"moves": "8/5", "start": start})  # half a play
    e = raises(ValueError, command, board, {"moves": "8/4 6/5", "start": start})
    assert "8/4 6/5 is not a whole play of 3-1" in str(e)
    e = raises(ValueError, command, board, {"moves": "8/5 6/5", "start": "AAAAAAAAAAAAAA"})
    assert "starts at" in str(e)  # another turn's (stale)
    e = raises(ValueError, command, board, {"moves": "8/26 6/5", "start": start})
    assert "not a step" in str(e)
    raises(ValueError, command, board, {"moves": "8/5 6/5 1/0 2/0 3/0", "start": start})
    assert getattr(board, "guide", None) is None
    assert parse(b'{"cmd": "guide", "moves": "8/5 6/5", "start": "x"}')[0] == "guide"
    raises(CommandError, parse, b'{"cmd": "guide", "moves": [[8, 5]]}')

def test_a_new_turn_leaves_the_guide_behind():
    board, eyes, events, out = rig((3, 1), (3, 1), (2, 1))
    guide(board, "8/5 6/5")
    eyes.carry(WHITE, 8, 5)
    eyes.carry(WHITE, 6, 5)
    board.roll()  # black's 3-1: any play of it commits
    assert command(board, {})["moves"] is None
    eyes.carry(BLACK, 24, 21)
    eyes.carry(BLACK, 6, 5)
    board.roll()
    assert plays(events)[-1]["moves"] == [[24, 21, 0], [6, 5, 0]]


def test_a_hint_is_lit_the_same_way_but_any_play_commits():
    board, eyes, events, out = rig((3, 1), (2, 1))
    command(board, {"moves": "8/5 6/5", "start": board.match.game.turn.start.to_id(),
                    "hint": True})
    assert lit(out, ORIGIN) == [8] and lit(out, TARGET) == [5]
    eyes.carry(WHITE, 8, 5)
    assert lit(out, ORIGIN) == [6] and lit(out, TARGET) == [5]  # the next checker
    eyes.lift(WHITE, 24)  # the person's choice: where it may go, nothing wrong
    assert lit(out, WRONG) == [] and lit(out, TARGET) == [23] and lit(out, ORIGIN) == [24]
    eyes.put(WHITE, 23)
    assert lit(out, WRONG) == [] and lit(out, ORIGIN) == [] and lit(out, TARGET) == []
    board.on_buttons(ROLL)  # committed: not the hint's play
    (play,) = plays(events)
    assert play["moves"] == [[8, 5, 0], [24, 23, 0]]


def test_a_hint_asked_after_moving_otherwise_shows_the_way_back_first():
    board, eyes, events, out = rig((3, 1))
    eyes.carry(WHITE, 8, 7)
    command(board, {"moves": "8/5 6/5", "start": board.match.game.turn.start.to_id(),
                    "hint": True})
    assert lit(out, WRONG) == [7] and lit(out, ORIGIN) == [8]
    eyes.carry(WHITE, 7, 8)
    assert lit(out, ORIGIN) == [8] and lit(out, TARGET) == [5]


def test_the_menu_button_in_a_game_asks_the_host_for_a_hint():
    from board.controller import MENU

    board, eyes, events, out = rig((3, 1))
    board.on_buttons(MENU)
    assert events[-1] == {"live": "hint"}


def test_a_flash_shows_the_refusal_sign_for_a_while_and_changes_nothing():
    from board.controller import REFUSED_MS

    board, eyes, events, out = rig((3, 1))
    position = board.match.game.position
    assert command(board, {"flash": True}) == {"flash": True}
    assert board.refused_until is not None
    assert [e for e in events if e.get("live") == "refused"] == []  # nothing refused
    board.clock.ticks_ms = lambda: REFUSED_MS
    board.tick()
    assert board.refused_until is None and board.match.game.position == position
    assert plays(events) == []
