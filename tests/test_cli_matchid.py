"""`bgboard rules matchid`: decode a gnubg Match ID to JSON, --encode it back; bad input is
one line on stderr and exit status 2."""

import json
import os
import subprocess
import sys

import pytest

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")

KEYS = ["cube", "cube_owner", "on_roll", "crawford", "game_state", "turn", "double_offered",
        "resignation", "dice", "match_length", "score", "jacoby"]


def run(*args, stdin=""):
    return subprocess.run([BGBOARD, "rules", "matchid", *args], input=stdin,
                          capture_output=True, text=True, timeout=30)


def test_decode_prints_one_json_object_with_the_documented_keys():
    r = run("kUngADAAMAAE")  # gnubg: 7 points, 3-6, Crawford, cube 2 owned by player 1,
    assert r.returncode == 0, r.stderr  # a gammon resignation offered by player 0
    assert r.stdout.count("\n") == 1 and r.stderr == ""
    out = json.loads(r.stdout)
    assert list(out) == KEYS
    assert out == {"cube": 2, "cube_owner": 1, "on_roll": 0, "crawford": True,
                   "game_state": "playing", "turn": 1, "double_offered": False,
                   "resignation": 2, "dice": [], "match_length": 7, "score": [3, 6],
                   "jacoby": False}


def test_decode_centred_cube_dice_and_money_jacoby():
    out = json.loads(run("MAEHAAAAAAAA").stdout)
    assert out["cube_owner"] is None and out["dice"] == [6, 1]
    assert out["match_length"] == 0 and out["jacoby"] is True


@pytest.mark.parametrize("mid", ["cInqAAAAAAAE", "cASgAAAACAAE", "MGugAAAAGAAE",
                                 "AgJgAAAAQAAE", "SAkAAAAAAAAA"])
def test_encode_reads_the_decoded_object_back(mid):
    decoded = run(mid).stdout
    r = run("--encode", stdin=decoded)
    assert r.returncode == 0, r.stderr
    assert r.stdout == mid + "\n"


def test_encode_a_hand_written_state():
    fields = {"cube": 4, "cube_owner": 0, "on_roll": 1, "crawford": False,
              "game_state": "playing", "turn": 1, "double_offered": False, "resignation": 0,
              "dice": [3, 5], "match_length": 11, "score": [2, 9], "jacoby": False}
    r = run("--encode", stdin=json.dumps(fields))
    assert r.returncode == 0, r.stderr
    back = json.loads(run(r.stdout.strip()).stdout)
    assert back == dict(fields, dice=[5, 3])


@pytest.mark.parametrize("args,stdin,words", [
    (["cInqAAAA"], "", "12 characters"),
    (["cInqAAAAAA!E"], "", "base64"),
    (["MAcAAAAAAAAA"], "", "game state"),
    ([], "", "give a Match ID"),
    (["--encode"], "not json", "JSON"),
    (["--encode"], "[1, 2]", "object"),
    (["--encode"], '{"cube": 1}', "missing"),
    (["--encode", "cInqAAAAAAAE"], "{}", "give no Match ID"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(args, stdin, words):
    r = run(*args, stdin=stdin)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("bgboard: ")
    assert words in r.stderr


def test_bad_fields_name_the_rule():
    fields = json.loads(run("cInqAAAAAAAE").stdout)
    fields["score"] = [7, 0]  # past the 7-point match while playing
    r = run("--encode", stdin=json.dumps(fields))
    assert r.returncode == 2 and "past the 7-point match" in r.stderr
    fields["score"] = [0, 0]
    fields["cube"] = 3
    r = run("--encode", stdin=json.dumps(fields))
    assert r.returncode == 2 and "power of two" in r.stderr
