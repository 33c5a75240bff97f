"""What damage to the journal costs: events lost per damaged spot, over a real journal.

    python tests/bench/bench_damage.py [FLASH] [--flips N] [--bytes K] [--seed S]

FLASH: a virtual board's flash folder (`bgboard sim --autoplay --match 1 --flash FLASH`);
without it one is made so. N spots of the journal file (spread evenly over it) are each
damaged in a copy of the folder (one bit flipped, or K bytes overwritten with --bytes), the
firmware's Journal and Archive open the copy as App does (CPython, the same code), and the
events the board still serves (archive then journal, from its oldest) are compared with
the undamaged board's: lost = the events no longer served as they were. Also what hello
says (`lost`) and whether the journal id changed. Prints min/median/max of both.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "firmware"))

from board.app import ARCHIVE_BYTES, JOURNAL_BYTES  # noqa: E402
from board.archive import Archive  # noqa: E402
from board.journal import Journal  # noqa: E402
from board.storage import FlashStorage  # noqa: E402


def served(flash):
    """(journal id, hello's lost, {seq: event} the board serves) of a flash folder."""
    journal = Journal(FlashStorage(flash), max_bytes=JOURNAL_BYTES)
    Archive(journal, ARCHIVE_BYTES)
    events = {}
    for ev in journal.since(journal.first_seq - 1):
        if "seq" in ev:
            events[ev["seq"]] = ev
    return journal.id, journal.lost, events


def make_flash(folder, seed):
    bgboard = os.path.join(os.path.dirname(sys.executable), "bgboard")
    run = subprocess.run([bgboard, "sim", "--autoplay", "--seed", str(seed), "--match", "1",
                          "--flash", folder], capture_output=True, text=True, timeout=900)
    if run.returncode:
        raise SystemExit("bgboard sim failed: %s" % run.stderr[-2000:])


def main(argv):
    flips, width, seed, flash = 60, 0, 3, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--flips":
            flips = int(args.pop(0))
        elif a == "--bytes":
            width = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        else:
            flash = a
    work = tempfile.mkdtemp(prefix="bench-damage-")
    try:
        if flash is None:
            flash = os.path.join(work, "flash")
            make_flash(flash, seed)
        old_id, _, before = served(flash)
        with open(os.path.join(flash, "journal"), "rb") as f:
            whole = f.read()
        losses, said, new_ids = [], [], 0
        for k in range(flips):
            at = 1 + k * (len(whole) - 2) // flips
            copy = os.path.join(work, "copy")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(flash, copy)
            if width:
                damaged = whole[:at] + b"#" * width + whole[at + width:]
            else:
                damaged = whole[:at] + bytes([whole[at] ^ (1 << (k % 8))]) + whole[at + 1:]
            with open(os.path.join(copy, "journal"), "wb") as f:
                f.write(damaged)
            new_id, lost, after = served(copy)
            losses.append(sum(1 for s, ev in before.items() if after.get(s) != ev))
            said.append(lost[1] - lost[0] + 1 if lost else 0)
            new_ids += new_id != old_id
        print("journal %d bytes, %d events served undamaged; %d spots damaged (%s)"
              % (len(whole), len(before), flips,
                 "%d bytes overwritten" % width if width else "one bit flipped"))
        for name, xs in (("events lost", losses), ("hello's lost", said)):
            print("%-13s min %d median %g max %d" % (name, min(xs), statistics.median(xs),
                                                      max(xs)))
        print("journal id changed: %d of %d" % (new_ids, flips))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
