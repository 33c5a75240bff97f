# The serial protocol's command checking: every bad line gets an error, none reaches the
# handler. (Property-based fuzzing over a real serial port belongs to the host tests.)
import json

from board.protocol import Protocol
from bgwire import MAX_LINE, PROTOCOL
from bgwire.commands import COMMANDS, CommandError, parse
from sim.hw import LineLink
from wire_support import arguments
from support import raises


class Link(LineLink):
    def __init__(self, lines):
        super().__init__()
        for line in lines:
            self.feed(line)


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, cmd, args):
        self.calls.append((cmd, args))
        if cmd == "double":
            raise ValueError("the cube is not yours to turn")
        if cmd == "state":
            return {"phase": "setup"}
        if cmd == "dump":
            raise KeyError("bug")
        return {}


def run(lines):
    handler = Recorder()
    link = Link(lines)
    proto = Protocol(link, handler, "0.1.0")
    assert proto.poll() == len(lines)
    replies = [json.loads(b.decode()) for b in link.sent]
    return replies, handler.calls


def test_good_commands_reach_the_handler_with_their_id():
    replies, calls = run([b'{"cmd": "roll", "dice": [5, 2], "id": 7}', b'{"cmd":"state"}\r'])
    assert calls == [("roll", {"dice": [5, 2]}), ("state", {})]
    assert replies[0] == {"ok": True, "id": 7}
    assert replies[1] == {"ok": True, "phase": "setup"}


def test_hello_names_protocol_and_firmware():
    replies, calls = run([b'{"cmd": "hello"}'])
    assert calls == []
    assert replies[0]["protocol"] == PROTOCOL and replies[0]["firmware"] == "0.1.0"


def test_malformed_lines_are_refused_before_the_handler():
    bad = [
        b"",
        b"\xff\xfe garbage",
        b'{"cmd": "roll", "dice": [5, 2]',  # truncated
        b"[1, 2]",
        b'"roll"',
        b'{"dice": [1, 2]}',
        b'{"cmd": 5}',
        b'{"cmd": "fly"}',
        b'{"cmd": "roll", "dice": [7, 2]}',
        b'{"cmd": "roll", "dice": [1]}',
        b'{"cmd": "roll", "dice": "52"}',
        b'{"cmd": "roll", "dice": [true, 2]}',
        b'{"cmd": "resign", "level": 4}',
        b'{"cmd": "resign"}',
        b'{"cmd": "journal", "since": "3"}',
        b'{"cmd": "undo", "extra": 1}',
        b'{"cmd": "state", "id": [1]}',
        b'{"cmd": "new", "kind": "match", "length": 5.5}',
        b"{" * 300,
        b'{"cmd": "state", "pad": "' + b"x" * MAX_LINE + b'"}',
    ]
    replies, calls = run(bad)
    assert calls == []
    for line, reply in zip(bad, replies):
        assert list(reply) == ["error"] and reply["error"], (line, reply)


def test_a_refused_line_whose_id_could_be_read_is_answered_with_it():
    # The host waits for its reply by id: a refusal without it left a host with two
    # commands out waiting for its timeout.
    lines = [
        b'{"cmd": "undo", "extra": 1, "id": 9}',
        b'{"id": "x", "cmd": "fly"}',
        b'{"cmd": "roll", "dice": [7, 2], "id": 3}',
        b'{"cmd": "journal", "id": 4}',
        b'{"id": 5}',
        b'{"cmd": "state", "id": [1]}',  # an id it cannot echo
    ]
    replies, calls = run(lines)
    assert calls == []
    assert [r.get("id") for r in replies] == [9, "x", 3, 4, 5, None]
    assert all(r["error"] for r in replies)
    assert "takes no argument" in replies[0]["error"]


def test_refusals_and_faults_in_the_handler_become_error_replies():
    replies, calls = run([b'{"cmd": "double", "id": "a"}', b'{"cmd": "dump"}', b'{"cmd":"take"}'])
    assert replies[0] == {"error": "the cube is not yours to turn", "id": "a"}
    assert replies[1]["error"].startswith("internal error: KeyError")
    assert replies[2] == {"ok": True}  # still answering


def test_errors_say_what_is_wrong():
    e = raises(CommandError, parse, b'{"cmd": "roll", "dice": [9, 9]}')
    assert "two dice" in str(e)
    e = raises(CommandError, parse, b'{"cmd": "journal"}')
    assert "needs since" in str(e)
    e = raises(CommandError, parse, b'{"cmd": "fly"}')
    assert "unknown command" in str(e)


def test_every_command_has_a_valid_form():
    for cmd in COMMANDS:
        spec = arguments(cmd)
        msg = {"cmd": cmd}
        for key in spec:
            if spec[key][1]:
                msg[key] = {"level": 1, "int": 0, "str": "match", "dice": [5, 2]}[spec[key][0]]
        assert parse(json.dumps(msg).encode())[0] == cmd


def test_chouette_players_are_names_and_members_are_named():
    cmd, args, _ = parse(b'{"cmd": "new", "kind": "chouette", "players": ["Ann", "Bob", "Cy"]}')
    assert args["players"] == ["Ann", "Bob", "Cy"]
    assert parse(b'{"cmd": "take", "member": "Cy"}')[1] == {"member": "Cy"}
    assert parse(b'{"cmd": "partner", "member": "Cy"}')[0] == "partner"
    for bad in (b'{"cmd": "new", "kind": "chouette", "players": [1, 2, 3]}',
                b'{"cmd": "new", "kind": "chouette", "players": []}',
                b'{"cmd": "new", "kind": "chouette", "players": ["", "Bob", "Cy"]}',
                b'{"cmd": "new", "kind": "chouette", "players": ["' + b"x" * 32 + b'", "B"]}',
                b'{"cmd": "double", "member": 3}', b'{"cmd": "partner"}'):
        raises(CommandError, parse, bad)
