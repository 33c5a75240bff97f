"""A damaged journal on the virtual board (the same firmware a Pico runs): the board goes on
with the same journal, says what it lost and what it kept in its hello, and `bgboard kept`
downloads the kept file byte for byte, which `bgboard export` reads. (Damage here is three
bytes: one flipped bit is corrected, test_journal_damage.)"""

import json
import os
import signal
import subprocess
import sys

from bgboard.events import read_journal

BIN = os.path.dirname(sys.executable)


def _bgboard(*args, timeout=300):
    return subprocess.run([os.path.join(BIN, "bgboard")] + list(args), capture_output=True,
                          text=True, timeout=timeout)


def test_a_damaged_journal_is_kept_named_in_hello_and_downloaded_whole(tmp_path):
    flash = tmp_path / "flash"
    run = _bgboard("sim", "--autoplay", "--seed", "3", "--match", "1", "--flash", str(flash))
    assert run.returncode == 0, run.stderr[-2000:]
    journal = flash / "journal"
    lines = journal.read_bytes().split(b"\n")
    events = [i for i, line in enumerate(lines) if line[9:10] == b"e"]
    hit = events[len(events) // 2]
    seq = int(lines[hit][10:lines[hit].index(b" ", 10)])
    lines[hit] = lines[hit][:20] + b"###" + lines[hit][23:]
    damaged = b"\n".join(lines)
    journal.write_bytes(damaged)
    last = int(lines[events[-1]][10:lines[events[-1]].index(b" ", 10)])

    sim = subprocess.Popen([os.path.join(BIN, "bgboard"), "sim", "--flash", str(flash)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = sim.stdout.readline().split()[1]
        hello = json.loads(_bgboard("send", "hello", "--port", port).stdout)
        assert hello["kept"] == "journal.bad" and hello["lost"] == [seq, last], hello
        assert hello["undone"] is True  # no restart point after it: back to before it
        assert hello["seq"] == last  # the next event follows the gap
        refused = subprocess.run([os.path.join(BIN, "bgboard"), "kept", "--port", port,
                                  "-o", "/proc/nope"], capture_output=True, text=True,
                                 timeout=120)
        assert refused.returncode == 2 and "/proc/nope" in refused.stderr
        assert (flash / "journal.bad").read_bytes() == damaged  # nothing freed then
        out = tmp_path / "out"
        got = _bgboard("kept", "--port", port, "-o", str(out))
        assert got.returncode == 0, got.stderr
        assert (out / "journal.bad").read_bytes() == damaged
        # Every intact event is in it; the damaged one fails its check and is skipped.
        with open(out / "journal.bad", encoding="utf-8", errors="replace") as f:
            seqs = [e["seq"] for e in read_journal(f)]
        assert seqs == [s for s in range(1, last + 1) if s != seq]
        # Saved whole, it is freed on the board: its budget's room is the next one's.
        assert not (flash / "journal.bad").exists()
        again = _bgboard("kept", "--port", port, "-o", str(tmp_path / "again"))
        assert "keeps no journal aside" in again.stdout, again.stdout
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(20)


def _state(flash):
    sim = subprocess.Popen([os.path.join(BIN, "bgboard"), "sim", "--flash", str(flash)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = sim.stdout.readline().split()[1]
        hello = json.loads(_bgboard("send", "hello", "--port", port).stdout)
        state = json.loads(_bgboard("send", "state", "--port", port).stdout)
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(20)
    return hello, state


def test_a_damaged_line_costs_the_board_the_game_it_lies_in_not_the_games_after_it(tmp_path):
    flash = tmp_path / "flash"
    # Seed 4 plays three games in its 3-point match, all in the journal (none compacted).
    run = _bgboard("sim", "--autoplay", "--seed", "4", "--match", "3", "--flash", str(flash))
    assert run.returncode == 0, run.stderr[-2000:]
    before_hello, before = _state(flash)
    journal = flash / "journal"
    lines = journal.read_bytes().split(b"\n")
    base = json.loads(lines[0][11:])["base"]

    def seq(line):
        return int(line[10:line.index(b" ", 10)])

    points = [i for i, line in enumerate(lines) if line[9:10] == b"s"]
    assert points, "no restart point: the board writes one as each game begins"
    # An event of a game that is not the last, after the snapshot (the header's base).
    hit = next(i for i in range(points[-1] - 3, 0, -1)
               if lines[i][9:10] == b"e" and seq(lines[i]) > base)
    lost = (seq(lines[hit]), seq(lines[next(i for i in points if i > hit)]))
    lines[hit] = lines[hit][:20] + b"###" + lines[hit][23:]
    journal.write_bytes(b"\n".join(lines))

    hello, after = _state(flash)
    assert hello["lost"] == list(lost) and hello["kept"] == "journal.bad", hello
    assert hello["journal"] == before_hello["journal"] and "undone" not in hello
    assert hello["seq"] == before_hello["seq"]  # the games after it are all there
    for key in ("phase", "game", "match", "settings"):
        assert after[key] == before[key], key  # and the board stands where it stood
