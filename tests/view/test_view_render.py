"""`bgboard render`: the view's drawing of a position into an SVG file, parsed as XML and
drawn by Chromium: every checker where its point is, stacks over five counted, the dice,
cube and score of a Match ID, bad IDs refused."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from bgcore import Position
from bgcore.matchid import encode

BGBOARD = os.path.join(os.path.dirname(sys.executable), "bgboard")
SVG = "{http://www.w3.org/2000/svg}"


def render(tmp_path, *args):
    out = tmp_path / "board.svg"
    run = subprocess.run([BGBOARD, "render", "-o", str(out)] + list(args),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return out


def checkers(root):
    return [c for c in root.iter(SVG + "circle") if c.get("class") == "checker"]


def test_the_starting_position_as_an_svg_file(tmp_path, new_page):
    out = render(tmp_path, "--position-id", "4HPwATDgc/ABMA")
    root = ET.parse(out).getroot()
    assert root.tag == SVG + "svg"
    found = checkers(root)
    assert len(found) == 30
    by_place = {}
    for c in found:
        key = (int(c.get("data-side")), int(c.get("data-point")))
        by_place[key] = by_place.get(key, 0) + 1
    # White (side 0) in its numbering = the board's; Black's point q is the board's 25 - q
    assert by_place == {(0, 24): 2, (0, 13): 5, (0, 8): 3, (0, 6): 5,
                        (1, 1): 2, (1, 12): 5, (1, 17): 3, (1, 19): 5}
    pips = {int(t.get("data-side")): t.text for t in root.iter(SVG + "text")
            if t.get("class") == "pips"}
    assert pips == {0: "pips 167", 1: "pips 167"}
    assert not [r for r in root.iter(SVG + "rect") if r.get("class") == "die"]

    # Chromium draws it: each checker inside the column of its point, in its half
    page = new_page()
    page.goto("file://%s" % out)
    inside = page.evaluate("""() => {
        const hits = {};
        for (const h of document.querySelectorAll('rect.hit[data-place="point"]'))
            hits[h.dataset.point] = h.getBoundingClientRect();
        const bad = [];
        let n = 0;
        for (const c of document.querySelectorAll('circle.checker')) {
            const r = c.getBoundingClientRect(), h = hits[c.dataset.point];
            n++;
            if (!(r.left >= h.left - 0.5 && r.right <= h.right + 0.5 &&
                  r.top >= h.top - 0.5 && r.bottom <= h.bottom + 0.5 && r.width > 40))
                bad.push(c.dataset.point);
        }
        return [n, bad];
    }""")
    assert inside == [30, []]
    # points 13-24 in the top half, 1-12 in the bottom, 1 at the bottom right
    boxes = page.evaluate("""() => Object.fromEntries([1, 12, 13, 24].map(p => {
        const r = document.querySelector(`rect.hit[data-point="${p}"]`)
            .getBoundingClientRect();
        return [p, [r.left, r.top]];
    }))""")
    assert boxes["13"][1] == boxes["24"][1] < boxes["12"][1] == boxes["1"][1]
    assert boxes["12"][0] == boxes["13"][0] < boxes["1"][0] == boxes["24"][0]


def test_a_match_position_with_dice_cube_score_and_a_tall_stack(tmp_path):
    white = [0] * 26
    black = [0] * 26
    white[6], white[5], white[25], white[0] = 8, 4, 1, 2  # 8 on the 6 point; 2 borne off
    black[1], black[2], black[0] = 6, 3, 6
    pid = Position(white, black).to_id()  # White on roll
    mid = encode({"cube": 4, "cube_owner": 1, "on_roll": 0, "crawford": False,
                  "game_state": "playing", "turn": 0, "double_offered": False,
                  "resignation": 0, "dice": [6, 4], "match_length": 7, "score": [3, 5],
                  "jacoby": False})
    out = render(tmp_path, "--position-id", pid, "--match-id", mid, "--white", "Ann",
                 "--black", "Bob")
    root = ET.parse(out).getroot()
    found = checkers(root)
    on_6 = [c for c in found if c.get("data-point") == "6" and c.get("data-side") == "0"]
    assert len(on_6) == 5  # five drawn ...
    counts = [t.text for t in root.iter(SVG + "text") if t.get("class") == "count"]
    assert sorted(counts) == ["6", "8"]  # ... and the count of each stack over five
    assert [c for c in found if c.get("data-bar") == "0"]
    texts = {t.get("class"): t for t in root.iter(SVG + "text") if t.get("class")}
    assert texts["status"].text == "Ann to play 6-4"
    off = sorted((t.get("data-side"), t.text) for t in root.iter(SVG + "text")
                 if t.get("class") == "tray-count")
    assert off == [("0", "2"), ("1", "6")]
    dice = [int(r.get("data-value")) for r in root.iter(SVG + "rect") if r.get("class") == "die"]
    assert dice == [6, 4]
    cube = [r for r in root.iter(SVG + "rect") if r.get("class") == "cube"][0]
    assert (cube.get("data-value"), cube.get("data-where")) == ("4", "black")
    scores = sorted(t.text for t in root.iter(SVG + "text") if t.get("class") == "score")
    assert scores == ["score 3 / 7", "score 5 / 7"]
    assert "7-point match" in texts["match"].text
    names = sorted(t.text for t in root.iter(SVG + "text") if t.get("class") == "name")
    assert names == ["Ann", "Bob"]


def test_a_dead_cube_is_allowed_with_a_warning(tmp_path):
    """"There is no limit to the number of times a double may be offered in one game."
    (rules-cube-match-chouette) The board lets a player double when a win on the present
    cube already gives them the match; the status line warns that such a double is dead."""
    def status(length, score, on_roll, cube=1, owner=None, crawford=False):
        mid = encode({"cube": cube, "cube_owner": owner, "on_roll": on_roll,
                      "crawford": crawford, "game_state": "playing", "turn": on_roll,
                      "double_offered": False, "resignation": 0, "dice": [],
                      "match_length": length, "score": list(score), "jacoby": False})
        out = render(tmp_path, "--position-id", "4HPwATDgc/ABMA", "--match-id", mid,
                     "--white", "Ann", "--black", "Bob")
        root = ET.parse(out).getroot()
        return [t.text for t in root.iter(SVG + "text") if t.get("class") == "status"][0]

    dead = "Ann to roll (dead cube: a win is the match)"
    assert status(3, (2, 0), 0) == dead  # the post-Crawford leader
    assert status(3, (2, 0), 1) == "Bob to roll"  # the trailer needs 3
    assert status(3, (2, 0), 0, crawford=True) == "Ann to roll"  # no double at all
    assert status(5, (1, 1), 0, cube=4, owner=0) == dead  # needs 4, owns a 4 cube
    assert status(5, (1, 1), 0, cube=4, owner=1) == "Ann to roll"  # Bob's cube
    assert status(5, (1, 1), 0, cube=2, owner=0) == "Ann to roll"  # needs 4, cube 2
    assert status(0, (0, 0), 0) == "Ann to roll"  # money: no match to win


def test_bad_ids_are_refused_in_one_line(tmp_path):
    for args in (["--position-id", "nonsense"],
                 ["--position-id", "4HPwATDgc/ABMA", "--match-id", "!!!!!!!!!!!!"]):
        run = subprocess.run([BGBOARD, "render", "-o", str(tmp_path / "x.svg")] + args,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2
        assert run.stderr.startswith("bgboard: ") and run.stderr.count("\n") == 1
        assert not (tmp_path / "x.svg").exists()
