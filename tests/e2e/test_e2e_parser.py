"""The board's command parser under malformed input, through the real PTY into the firmware
on the MicroPython unix port (hypothesis): random bytes, truncated JSON, unknown commands,
wrong types, missing arguments, commands the phase refuses, huge lines. Every line gets one
error reply and changes nothing (`state` before and after); the board stays up and answers
hello. Also: Ctrl-C stops it, as on a Pico; the same entry point runs on CPython."""

import json
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.transport import SerialTransport
from bgwire import MAX_LINE
from bgwire.commands import COMMANDS, check as _check
from simboard import wait_until
from wire_support import arguments

CTRL_C = b"\x03"

KINDS = {"int": st.integers(-2**40, 2**40), "str": st.text(max_size=80),
         "bool": st.booleans(), "dict": st.dictionaries(st.text(max_size=8), st.integers(),
                                                         max_size=3),
         "list": st.lists(st.integers(-10, 10), max_size=4), "none": st.none(),
         "float": st.floats(allow_nan=False, allow_infinity=False)}
ANY_VALUE = st.one_of(*KINDS.values())

SPECS = {c: arguments(c) for c in COMMANDS}  # {argument: (kind, required)}


def _line(obj):
    return json.dumps(obj).encode()


def _clean(data):
    # One line, and no Ctrl-C: the byte 0x03 interrupts the firmware on purpose (mpremote
    # relies on it), on a Pico as here.
    return data.replace(b"\n", b"").replace(CTRL_C, b"")


@st.composite
def wrong_argument(draw):
    cmd = draw(st.sampled_from(sorted(c for c in COMMANDS if SPECS[c])))
    key = draw(st.sampled_from(sorted(SPECS[cmd])))
    value = draw(ANY_VALUE)
    if _check(SPECS[cmd][key][0], value):
        value = [value, "not this"]  # a list where nothing takes a list of mixed things
    msg = {"cmd": cmd, key: value}
    for other, (kind, required) in SPECS[cmd].items():
        if required and other != key:
            msg[other] = 2 if kind in ("int", "level") else "match"
    return _line(msg)


@st.composite
def unknown_argument(draw):
    cmd = draw(st.sampled_from(sorted(COMMANDS)))
    key = draw(st.text(min_size=1, max_size=10).filter(
        lambda k: k not in SPECS[cmd] and k not in ("cmd", "id")))
    return _line({"cmd": cmd, key: draw(ANY_VALUE)})


@st.composite
def truncated(draw):
    msg = {"cmd": draw(st.sampled_from(sorted(COMMANDS))), "id": draw(st.integers(0, 999))}
    text = _line(msg)
    return text[:draw(st.integers(1, len(text) - 1))]


@st.composite
def huge(draw):
    size = draw(st.integers(MAX_LINE + 1, 40000))
    if draw(st.booleans()):  # a command that would be fine but for its length
        pad = size - len(_line({"cmd": "hello", "id": 1, "pad": ""}))
        return _line({"cmd": "hello", "id": 1, "pad": "x" * max(pad, 0)})
    return _clean(draw(st.binary(min_size=size, max_size=size)) + b"x" * size)[:size]


# Well-formed, but refused in the setup phase of a match (no dice, no cube, no resignation).
REFUSED = [_line(m) for m in (
    {"cmd": "roll"}, {"cmd": "roll", "dice": [3, 3]}, {"cmd": "double"}, {"cmd": "take"},
    {"cmd": "drop"}, {"cmd": "beaver"}, {"cmd": "resign", "level": 1}, {"cmd": "accept"},
    {"cmd": "reject"}, {"cmd": "undo"}, {"cmd": "journal", "since": 999},
    {"cmd": "journal", "since": -5}, {"cmd": "calibrate", "step": "save"},
    {"cmd": "calibrate", "step": "later"}, {"cmd": "new", "kind": "chess"},
    {"cmd": "new", "kind": "match", "length": 0},
    {"cmd": "new", "kind": "money", "options": {"wobble": True}})]

MALFORMED = st.one_of(
    st.binary(max_size=300).map(_clean),
    st.text(max_size=200).map(lambda t: _clean(t.encode())),
    truncated(),
    st.text(max_size=20).filter(lambda c: c not in COMMANDS).map(
        lambda c: _line({"cmd": c, "id": 5})),
    st.one_of(st.integers(), st.lists(st.integers()), st.none(), st.booleans(), st.text(),
              st.dictionaries(st.text(max_size=5).filter(lambda k: k != "cmd"), ANY_VALUE,
                              max_size=3)).map(_line),
    ANY_VALUE.filter(lambda v: not isinstance(v, str)).map(lambda v: _line({"cmd": v})),
    st.sampled_from(sorted(COMMANDS)).flatmap(lambda c: st.one_of(
        st.floats(), st.lists(st.integers(), max_size=2), st.booleans(), st.dictionaries(
            st.text(max_size=3), st.integers(), max_size=2), st.text(min_size=65)).map(
        lambda ident: _line({"cmd": c, "id": ident}))),
    wrong_argument(),
    unknown_argument(),
    st.sampled_from(["resign", "journal", "new"]).map(lambda c: _line({"cmd": c})),
    st.sampled_from(REFUSED),
    huge(),
)


class Raw:
    """The host side as bytes: a line out, the board's reply back (live lines and events
    skipped; there are none while nobody touches the board)."""

    def __init__(self, path):
        self.port = SerialTransport(path)
        self.others = []

    def ask(self, line, timeout=10):
        self.port.write_line(line)
        replies = []
        while not replies:
            got = self.port.read_line(timeout)
            assert got is not None, "no reply to %r" % line[:200]
            msg = json.loads(got)
            if "ok" in msg or "error" in msg:
                replies.append(msg)
            else:
                self.others.append(msg)
        return replies[0]

    def command(self, msg):
        reply = self.ask(_line(msg))
        assert reply.get("ok") is True, reply
        return reply


@pytest.fixture
def idle_board(spawn):
    board = spawn("--seed", "3")
    raw = Raw(board.path)
    raw.command({"cmd": "new", "kind": "match", "length": 5})  # a match: setup phase
    yield board, raw
    raw.port.close()


def test_malformed_input_gets_an_error_and_changes_nothing(idle_board):
    board, raw = idle_board
    before = raw.command({"cmd": "state"})
    assert before["phase"] == "setup" and before["seq"] == 1
    seen = []

    @settings(max_examples=300, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(MALFORMED)
    def one_line(line):
        reply = raw.ask(line)
        assert "error" in reply and "ok" not in reply, (line[:200], reply)
        seen.append(len(line))
        after = raw.command({"cmd": "state", "id": "s"})
        after.pop("id")
        assert after == before, line[:200]

    one_line()
    hello = raw.command({"cmd": "hello", "id": 7})
    assert hello["hello"] == "bgboard" and hello["id"] == 7 and hello["seq"] == 1
    assert board.alive() and board.stderr() == ""
    assert [m.get("seq") for m in raw.others if "ev" in m] == [1]  # only the `new` match's
    huge_lines = sum(1 for n in seen if n > MAX_LINE)
    assert len(seen) >= 250 and huge_lines >= 5, (len(seen), huge_lines)
    print("e2e: %d malformed lines (%d over %d bytes, longest %d), each refused, state "
          "unchanged" % (len(seen), huge_lines, MAX_LINE, max(seen)))


def test_ctrl_c_stops_the_firmware_as_on_a_pico(spawn):
    for stop in ("byte", "signal"):
        board = spawn("--seed", "1", name="flash-" + stop)
        raw = Raw(board.path)
        assert raw.command({"cmd": "hello"})["hello"] == "bgboard"
        if stop == "byte":
            # A PTY takes the byte in write() itself; no flush: its drain would race the
            # board closing the port as it stops (EIO on a loaded machine).
            raw.port.port.write(CTRL_C)
        else:
            board.proc.send_signal(signal.SIGINT)
        assert wait_until(lambda: not board.alive(), 5)
        assert board.proc.returncode == 130  # MicroPython's exit status for Ctrl-C
        raw.port.close()


def test_the_same_entry_point_runs_on_cpython(spawn, tmp_path):
    import sys

    board = spawn("--seed", "1", interpreter=sys.executable)
    raw = Raw(board.path)
    assert raw.command({"cmd": "hello", "id": 1})["protocol"] == 1
    assert "error" in raw.ask(b"x" * 5000)
    raw.command({"cmd": "new", "kind": "money"})
    assert raw.others[-1]["ev"] == "match" and raw.others[-1]["length"] == 0
    raw.port.close()
