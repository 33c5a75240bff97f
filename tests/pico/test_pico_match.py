"""A whole match on the emulated Pico: `bgboard sim --pico --autoplay` plays it with the
simulated hands through the chip's pins, `bgboard log`'s recorder writes it, and real GNU
Backgammon imports the .mat with the board's final score. One point: a game of random plays
is about 100 plays, some minutes of emulation (the README's figures)."""

import json
import os
import shutil

from picosupport import bgboard

from bgboard.events import build_matches


def test_autoplay_on_the_pico_plays_and_logs_a_match_gnubg_imports(flashed, tmp_path):
    from test_host_gnubg import final_score, run_gnubg, troubles

    assert flashed.run.returncode == 0, flashed.run.stderr[-2000:]
    image = str(tmp_path / "flash.img")
    shutil.copy(flashed.image, image)
    log = tmp_path / "log"
    run = bgboard("sim", "--pico", "--image", image, "--autoplay", "--seed", "3", "--match",
                  "1", "--log", str(log), timeout=1500)
    assert run.returncode == 0, run.stdout[-1000:] + run.stderr[-3000:]  # stdout: figures
    assert run.stdout.startswith("port: ")
    assert "0 mismatch(es), 0 stuck" in run.stdout, run.stdout
    with open(log / "journal.jsonl") as f:
        events = [e for e in map(json.loads, f) if "ev" in e]
    (match,) = build_matches(events)
    assert match.length == 1 and match.over is not None
    (mat,) = [p for p in os.listdir(log) if p.endswith(".mat")]
    out = run_gnubg(str(tmp_path), [("m", ["import mat %s" % (log / mat), "show score"])])["m"]
    assert not troubles(out), troubles(out)
    assert final_score(out) == (len(match.games), match.over["score"])
