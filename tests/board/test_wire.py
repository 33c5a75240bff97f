# The wire contract (bgwire) on both interpreters: the line reader against hostile input,
# the sim lines' checks, the LED roles read back exactly, the point numbering.
import json

from bgwire import MAX_LINE
from bgwire.commands import CommandError, parse
from bgwire.lines import LineReader
from board.leds import LedMap, Renderer
from bgwire import DICE, DOUBLE, ORIGIN, TAKE, TARGET, physical
from bgwire.roles import ROLES, dimmed, role_at
from bgwire.sim import PRESS, VERBS, button_bits, check, is_sim
from support import raises


def feed(reader, data):
    """The lines (bytes) the reader hands on for data."""
    out = []
    for c in data:
        line = reader.take(c)
        if line is not None:
            out.append(line)
    return out


def test_a_line_split_over_many_reads_comes_whole():
    r = LineReader()
    text = b'{"cmd": "roll", "dice": [5, 2], "id": 7}'
    got = []
    for i in range(0, len(text), 3):  # three bytes a read
        got += feed(r, text[i:i + 3])
        assert got == [] and r.pending() == min(i + 3, len(text))
    got = feed(r, b"\n")
    assert got == [text] and r.pending() == 0
    assert parse(got[0]) == ("roll", {"dice": [5, 2]}, 7)


def test_an_overlong_hostile_line_is_cut_refused_and_the_next_line_is_clean():
    r = LineReader()
    hostile = b'{"cmd": "state", "pad": "' + b"x" * (4 * MAX_LINE) + b'"}\n'
    lines = feed(r, hostile + b'{"cmd": "state"}\n')
    assert len(lines) == 2 and r.overlong == 1
    assert len(lines[0]) == MAX_LINE + 1  # cut one byte past the limit: too long to pass
    e = raises(CommandError, parse, lines[0])
    assert "too long" in str(e)
    assert parse(lines[1]) == ("state", {}, None)


def test_a_line_of_exactly_the_limit_passes_whole():
    r = LineReader()
    msg = b'{"cmd": "state", "id": "'
    line = msg + b"y" * (MAX_LINE - len(msg) - 2) + b'"}'
    assert len(line) == MAX_LINE
    assert feed(r, line + b"\n") == [line] and r.overlong == 0
    e = raises(CommandError, parse, line)  # the id is too long a string, but not the line
    assert "id" in str(e)


def test_control_bytes_and_nul_are_dropped():
    r = LineReader()
    assert feed(r, b'{"cmd":\x00 "state"\x02}\r\n') == [b'{"cmd": "state"}']


def test_invalid_utf8_is_handed_on_and_refused_by_the_parser():
    r = LineReader()
    lines = feed(r, b'{"cmd": "st\xffate"}\n{"cmd": "\xc3"}\n{"cmd": "hello"}\n')
    assert lines[0] == b'{"cmd": "st\xffate"}' and len(lines) == 3
    for bad in lines[:2]:
        e = raises(CommandError, parse, bad)
        assert "JSON" in str(e)
    assert parse(lines[2])[0] == "hello"


def test_sim_lines_are_checked_by_the_contract():
    assert check({"sim": "lift", "side": 1, "at": 25, "x": 1}) == {"sim": "lift", "side": 1,
                                                                  "at": 25}
    assert check({"sim": "press", "button": "beaver"}) == {"sim": "press", "button": "beaver"}
    for bad in ({"sim": "lift", "side": 2, "at": 3}, {"sim": "place", "side": 0, "at": 26},
                {"sim": "place", "side": True, "at": 3}, {"sim": "press", "button": "x"},
                {"sim": "press", "button": 1}, {"sim": "explode"}, [1], None):
        raises(ValueError, check, bad)
    assert [v for v in VERBS if v != "look"] == ["lift", "place", "press"]
    assert button_bits("beaver") == DOUBLE | TAKE and button_bits("nope") == 0
    assert len(set(bits for _, bits in PRESS)) == len(PRESS)  # no two names share bits
    assert is_sim(json.dumps({"sim": "look"}).encode())
    assert not is_sim(json.dumps({"cmd": "state", "id": "sim"}).encode())


def test_led_colours_map_back_to_their_roles_exactly():
    for brightness in (255, 64, 20):
        for name, colour in ROLES:
            if colour == (255, 0, 0) and name != "wrong":
                continue
            assert role_at(dimmed(colour, brightness), brightness) == name
    assert role_at(dimmed(ORIGIN, 64), 63) is None  # another brightness: no guessing
    assert role_at((1, 2, 3), 64) is None
    assert dimmed(TARGET, 64) == (0, 64, 10) and dimmed(DICE, 255) == DICE
    names = [n for n, _ in ROLES]
    assert len(set(names)) == len(names)


def test_each_side_counts_its_own_points_the_board_counts_whites():
    assert physical(0, 1) == 1 and physical(0, 24) == 24
    assert physical(1, 1) == 24 and physical(1, 24) == 1
    assert all(physical(1, physical(1, p)) == p for p in range(1, 25))


def test_the_host_reads_colours_as_the_board_draws_them():
    with open("hardware/pinmap.json") as f:
        ledmap = LedMap(json.load(f)["leds"])
    for brightness in (255, 64, 7):
        r = Renderer(None, ledmap, brightness=brightness)
        for name, colour in ROLES:
            assert tuple(r.colour(colour)) == dimmed(colour, brightness), (name, brightness)
