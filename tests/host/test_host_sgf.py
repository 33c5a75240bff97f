"""SGF (GM[6]) from journaled events: the root properties gnubg reads, point letters in
White's numbering, cube nodes, results; and the whole corpus parsed back as SGF."""

import re

from bgboard.events import build_matches
from bgboard.sgf import point_letter, sgf_text


def J(*events):
    return [dict(e, seq=i) for i, e in enumerate(events, 1)]


def game(*events, length=7, rules=None, score=(0, 0), crawford=False, opening=(3, 1)):
    return J({"ev": "match", "length": length, "rules": rules or {"crawford": True}},
             {"ev": "game", "number": 1, "score": list(score), "crawford": crawford},
             {"ev": "opening", "dice": list(opening)}, *events)


def S(events, names=("White", "Black")):
    (m,) = build_matches(events)
    return sgf_text(m, names)


def test_point_letters_are_in_whites_numbering():
    assert point_letter(0, 1) == "a" and point_letter(0, 24) == "x"
    assert point_letter(1, 24) == "a" and point_letter(1, 1) == "x"
    assert point_letter(0, 25) == point_letter(1, 25) == "y"
    assert point_letter(0, 0) == point_letter(1, 0) == "z"


def test_root_and_moves():
    text = S(game({"ev": "play", "player": 0, "dice": [3, 1],
                   "moves": [[8, 5, False], [6, 5, False]]},
                  {"ev": "roll", "player": 1, "dice": [2, 5]},
                  {"ev": "play", "player": 1, "dice": [5, 2],
                   "moves": [[13, 11, False], [13, 8, True]]},
                  {"ev": "roll", "player": 0, "dice": [6, 6]},
                  {"ev": "play", "player": 0, "dice": [6, 6], "moves": []},
                  {"ev": "roll", "player": 1, "dice": [4, 1]},
                  {"ev": "play", "player": 1, "dice": [4, 1],
                   "moves": [[25, 21, False], [1, 0, False]]}),
          ("Ann", "Bo]b"))
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]AP[bgboard:0.1.0]"
                           "MI[length:7][game:0][ws:0][bs:0]PW[Ann]PB[Bo\\]b]RU[Crawford]")
    nodes = text.split("\n")[1:]
    assert nodes[0] == ";W[31hefe]"
    assert nodes[1] == ";B[52lnlq]"  # black 13/11 13/8: white's 12->14, 12->17
    assert nodes[2] == ";W[66]"
    assert nodes[3] == ";B[41ydxz])"  # bar->white 4, black 1 (white 24)->off
    assert "RE[" not in text  # still being played


def test_cube_nodes_results_and_resignations():
    base = [{"ev": "play", "player": 0, "dice": [3, 1],
             "moves": [[8, 5, False], [6, 5, False]]},
            {"ev": "double", "player": 1, "cube": 2}]
    dropped = S(game(*base, {"ev": "drop", "player": 0},
                     {"ev": "result", "winner": 1, "points": 1, "level": 1, "how": "dropped",
                      "score": [0, 1]}))
    assert "RE[B+1]" in dropped and dropped.rstrip().endswith(";B[double]\n;W[drop])")
    resigned = S(game(*base, {"ev": "take", "player": 0},
                      {"ev": "roll", "player": 1, "dice": [6, 4]},
                      {"ev": "resign", "player": 1, "level": 2},
                      {"ev": "accept", "player": 0},
                      {"ev": "result", "winner": 0, "points": 4, "level": 2, "how": "resigned",
                       "score": [4, 0]}))
    assert "RE[W+4R]" in resigned
    assert resigned.rstrip().endswith(";B[double]\n;W[take]\n;PL[B]DI[64])")


def test_beaver_and_raccoon_are_doubles_answered_by_a_take():
    text = S(game({"ev": "play", "player": 0, "dice": [3, 1],
                   "moves": [[8, 5, False], [6, 5, False]]},
                  {"ev": "double", "player": 1, "cube": 2},
                  {"ev": "beaver", "player": 0, "cube": 4},
                  {"ev": "raccoon", "player": 1, "cube": 8},
                  {"ev": "roll", "player": 1, "dice": [2, 1]},
                  length=0, rules={"jacoby": True, "beavers": True, "raccoons": True}))
    assert "RU[Jacoby]" in text and "RU[Crawford" not in text
    assert "\n;B[double]\n;W[double]\n;B[double]\n;W[take]" in text


def test_crawford_game_automatic_doubles_and_no_crawford():
    text = S(game(score=(6, 3), crawford=True))
    assert "MI[length:7][game:0][ws:6][bs:3]" in text and "RU[Crawford:CrawfordGame]" in text
    text = S(game(rules={"crawford": False}))
    assert "RU[" not in text
    text = S(J({"ev": "match", "length": 0, "rules": {"automatic_doubles": 2}},
               {"ev": "game", "number": 1, "score": [0, 0], "crawford": False},
               {"ev": "opening", "dice": [4, 4], "cube": 2},
               {"ev": "opening", "dice": [2, 2], "cube": 4},
               {"ev": "opening", "dice": [2, 5]}))
    assert "CV[4]" in text


PROP = re.compile(r"[A-Z]{1,2}(?:\[(?:\\.|[^\\\]])*\])+")


def test_every_file_of_the_corpus_is_well_formed_sgf(corpus):
    for case in corpus:
        (m,) = build_matches(case.events)
        text = sgf_text(m)
        trees = text.strip().split("\n(")
        assert len(trees) == len(m.games)
        for k, (tree, g) in enumerate(zip(trees, m.games)):
            tree = tree if tree.startswith("(") else "(" + tree
            assert tree.startswith("(;") and tree.endswith(")")
            nodes = tree[1:-1].split("\n")
            root = nodes[0]
            assert "".join(PROP.findall(root[1:])) == root[1:], root
            assert "GM[6]" in root and "MI[length:%d][game:%d]" % (m.length, k) in root
            r = g.result
            assert "RE[%s+%d%s]" % ("WB"[r["winner"]], r["points"],
                                    "R" if r["how"] == "resigned" else "") in root
            for node in nodes[1:]:
                assert re.fullmatch(r";(?:[WB]\[(?:[1-6][1-6](?:[a-z][a-z]){0,4}|double|take"
                                    r"|drop)\]|PL\[[WB]\]DI\[[1-6][1-6]\])", node), node
