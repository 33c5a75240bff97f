"""The host's package builds without setuptools' warning boxes (they fill a newcomer's `make
sim`) and ships what the commands read at run time: the page's static files."""

import os
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_wheel_builds_without_warnings_and_ships_the_page(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), src)
    ignore = shutil.ignore_patterns("node_modules", "__pycache__", "*.mpy")
    shutil.copytree(os.path.join(ROOT, "host"), src / "host", ignore=ignore)
    for name in ("bgcore", "bgwire"):
        shutil.copytree(os.path.join(ROOT, "firmware", name), src / "firmware" / name,
                        ignore=ignore)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w",
                          str(tmp_path / "dist"), str(src)], capture_output=True, text=True,
                         env=env)
    assert run.returncode == 0, run.stderr
    assert "BuildBackendWarning" not in run.stderr + run.stdout, run.stderr
    (wheel,) = os.listdir(tmp_path / "dist")
    names = zipfile.ZipFile(tmp_path / "dist" / wheel).namelist()
    for name in ("index.html", "view.js", "view.css"):
        assert "bgboard/view/static/" + name in names
