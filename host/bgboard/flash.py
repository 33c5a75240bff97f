"""Deploy the firmware to a board over its raw REPL, with mpremote's transport.

    report = flash("/dev/ttyACM0", firmware.build(), say=print)

One listing of the board (SHA-256 of what is there, in one exec), then only the files
whose hash differs are written; files an earlier flash wrote (the manifest) or that sit in
the firmware's packages and no longer belong are removed; the manifest goes last, so an
interrupted flash is simply finished by the next. Then a soft reset from the friendly REPL,
which runs the new main.py. Nothing else on the board (journal, calibration) is touched.
"""

import ast
import time

from bgboard.firmware import MANIFEST, PACKAGES, manifest, sha256

CHUNK = 1024  # bytes per write on the board: a 4 KB line of code at most
READ_TIMEOUT_S = 10  # an answer from the board, at most (mpremote waits forever)

# Runs on the board: {path: sha256 hex} of the manifest's files, main.py, the config and
# everything in the firmware's packages.
_LISTING = """
import os, hashlib, binascii
def _h(p):
    d = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            d.update(b)
    return binascii.hexlify(d.digest()).decode()
_r = {}
_names = ['main.py', 'pinmap.json', 'field.json', '%(manifest)s']
try:
    with open('%(manifest)s') as f:
        _names += [n.strip() for n in f if n.strip()]
except OSError:
    pass
for _d in %(packages)r:
    try:
        _names += ['%%s/%%s' %% (_d, e[0]) for e in os.ilistdir(_d) if e[1] & 0x8000]
    except OSError:
        pass
for _n in _names:
    try:
        _r[_n] = _h(_n)
    except OSError:
        pass
import sys
print(repr((_r, tuple(sys.implementation.version[:2]))))
""" % {"manifest": MANIFEST, "packages": PACKAGES}


class FlashError(Exception):
    pass


class Report:
    def __init__(self):
        self.written = []
        self.unchanged = []
        self.removed = []
        self.bytes = 0
        self.seconds = 0.0

    def summary(self):
        return ("%d file(s) written (%d bytes), %d unchanged, %d removed, in %.1f s"
                % (len(self.written), self.bytes, len(self.unchanged), len(self.removed),
                   self.seconds))


def open_board(port):
    """mpremote's serial transport on `port`, in raw REPL (the firmware interrupted)."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    try:
        # Reads never hang, yet give a slow flash (littlefs compacting) time to answer.
        transport = SerialTransport(port, baudrate=115200, timeout=READ_TIMEOUT_S)
    except TransportError as e:
        text = str(e)
        if "failed to access" in text:
            raise FlashError("cannot open %s: it is missing or busy (is `bgboard log`, "
                             "`monitor` or `view` connected to it?)" % port) from None
        raise FlashError("cannot open %s: %s" % (port, text)) from None
    try:
        transport.enter_raw_repl(soft_reset=False, timeout_overall=3)
    except TransportError:
        transport.close()
        raise FlashError("the board at %s does not answer the raw REPL: is MicroPython "
                         "installed on it (hold BOOTSEL, plug in, copy the .uf2)?" % port) \
            from None
    return transport


def _exec(transport, code):
    from mpremote.transport import TransportError

    try:
        return transport.exec(code)
    except TransportError as e:
        raise FlashError("the board failed: %s" % str(e).strip().splitlines()[-1]) from None


def flash(port, files, say=lambda text: None, reset=True, micropython_min=None):
    """Bring the board's firmware to `files` ({path: bytes}). Returns a Report.
    micropython_min: (major, minor) the firmware needs; an older board is refused before
    anything is written."""
    t0 = time.monotonic()
    report = Report()
    transport = open_board(port)
    try:
        there, version = ast.literal_eval(_exec(transport, _LISTING).decode().strip())
        check_version(version, micropython_min)
        dirs = set()
        report.unchanged = [p for p in sorted(files) if there.get(p) == sha256(files[p])]
        todo = [p for p in sorted(files) if p not in report.unchanged]
        total = sum(len(files[p]) for p in todo)
        started = time.monotonic()
        for n, path in enumerate(todo, 1):
            data = files[path]
            folder = path.rpartition("/")[0]
            if folder and folder not in dirs:
                _exec(transport, "import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass"
                      % folder)
                dirs.add(folder)
            say("file %d of %d: writing %s (%d bytes)%s"
                % (n, len(todo), path, len(data),
                   _time_left(report.bytes, total, time.monotonic() - started)))
            _write(transport, path, data)
            report.written.append(path)
            report.bytes += len(data)
        for path in sorted(set(there) - set(files) - {MANIFEST}):
            say("removing %s" % path)
            _exec(transport, "import os\nos.remove(%r)" % path)
            report.removed.append(path)
        listed = manifest(files)
        if report.written or report.removed or there.get(MANIFEST) != sha256(listed):
            _write(transport, MANIFEST, listed)
        if reset:
            say("soft reset: the new firmware starts")
            soft_reset(transport)
    finally:
        transport.close()
    report.seconds = time.monotonic() - t0
    return report


def _time_left(done, total, seconds):
    # At the pace of the bytes written so far (each write's round trips dominate).
    if done == 0 or seconds < 1:
        return ""
    left = (total - done) * seconds / done
    return ", about %d min %02d s left" % divmod(int(left + 0.5), 60) if left >= 60 \
        else ", about %d s left" % max(1, int(left + 0.5))


def check_version(have, need):
    """Refuse a board whose MicroPython (major, minor) is older than `need` (None: any)."""
    if need is not None and tuple(have) < tuple(need):
        raise FlashError("the board runs MicroPython %d.%d; the firmware needs %d.%d or "
                         "later: put a newer MicroPython on it first (hold BOOTSEL, plug in, "
                         "copy the .uf2)" % (tuple(have) + tuple(need)))


def _write(transport, path, data):
    # To a temporary name, then renamed: a board unplugged mid-write keeps the old file.
    tmp = path + ".new"
    _exec(transport, "f=open(%r,'wb')\nw=f.write" % tmp)
    for i in range(0, len(data), CHUNK):
        _exec(transport, "w(%r)" % data[i:i + CHUNK])
    _exec(transport, "f.close()\nimport os\nos.rename(%r,%r)" % (tmp, path))


def soft_reset(transport):
    """Ctrl-D at the friendly REPL: a soft reboot that runs main.py."""
    transport.exit_raw_repl()
    time.sleep(0.05)
    transport.serial.reset_input_buffer()
    transport.serial.write(b"\x04")
    data = transport.read_until(1, b"soft reboot\r\n", timeout=5)
    if not data.endswith(b"soft reboot\r\n"):
        raise FlashError("the board did not reboot after the flash: %r" % data[-80:])
