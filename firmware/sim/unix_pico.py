"""A Pico's life on the MicroPython unix port, for the virtual board (bgboard sim):

  micropython unix_pico.py FLASH HW [--raw] [-- options for the virtual board]

FLASH (a folder) becomes the board's flash, mounted at "/"; HW (a folder holding the
simulated hardware, the `sim` package) is mounted at /.sim and searched after the flash.
At power-up, where a Pico runs /main.py (the Pico's entry: its drivers), the device runs
the firmware on the flash with simulated hardware in their place (sim.main_unix), if
the flash has a main.py. stdin/stdout are the board's USB serial. What a host sends there:

- While the firmware runs: its protocol lines. Ctrl-C (0x03) interrupts it (the firmware's link
  raises KeyboardInterrupt, as MicroPython's USB stack does) and the REPL takes over.
- At the REPL, what mpremote needs (see ../../docs/protocol.md, "The REPL"): Ctrl-A raw
  mode, raw-paste mode (Ctrl-E A Ctrl-A), Ctrl-B the friendly REPL, Ctrl-D soft reset.
  Code runs in one session (its globals persist) with the flash as its file system.

A soft reset ends this process with SOFT_RESET (or SOFT_RESET_RAW, from raw mode: the
contract's bgwire.sim.RESET and RESET_RAW, read once the flash is mounted) after
saying "MPY: soft reboot": whoever runs the device (bgboard.sim) starts it again on the
same serial line with a fresh heap, as a soft reset gives one; from raw mode it comes
back in raw mode (--raw) without starting the firmware, as a Pico does."""

import sys

import vfs  # type: ignore[import-not-found]

SOFT_RESET = SOFT_RESET_RAW = None  # bgwire.sim's codes: mount() reads them
WINDOW = 128  # raw-paste flow control: bytes the host may send before waiting for 0x01
BANNER = "MicroPython %s on virtual bgboard; linux (unix port)\r\nType \"help()\" for more " \
         "information.\r\n"
RAW_BANNER = "raw REPL; CTRL-B to exit\r\n"

_stdin = sys.stdin.buffer  # type: ignore[attr-defined]
_stdout = sys.stdout.buffer  # type: ignore[attr-defined]


def out(text):
    _stdout.write(text.encode() if isinstance(text, str) else text)


def getc():
    c = _stdin.read(1)
    if not c:
        raise SystemExit(0)  # the line is gone for good: nobody will ever talk to us
    return c[0]


def _version():
    v = sys.implementation.version  # type: ignore[attr-defined]
    return "v%d.%d.%d" % (v[0], v[1], v[2])


def _execute(code, session):
    """Run code in the session; output, 0x04, error text, 0x04 (as raw mode answers)."""
    try:
        exec(code, session)
    except SystemExit as e:
        if e.args and e.args[0] == SOFT_RESET:  # machine.reset() (sim/unix_machine.py)
            raise
    except BaseException as e:  # noqa: B902 - whatever it raised, the host gets its text
        out("\x04")
        sys.print_exception(e, sys.stdout)  # type: ignore[attr-defined]
        out("\x04")
        return
    out("\x04\x04")


def raw_repl(session):
    """MicroPython's raw REPL (pyexec.c). Returns "friendly" on Ctrl-B; exits the process
    for a soft reset."""
    out(RAW_BANNER)
    line = bytearray()
    while True:
        out(">")
        line = bytearray()
        while True:
            c = getc()
            if c == 1:  # Ctrl-A: raw paste if it follows Ctrl-E "A", else reset raw mode
                if len(line) == 2 and line[0] == 5 and line[1] == 65:
                    _execute(raw_paste(), session)
                    break
                out(RAW_BANNER)
                out(">")
                line = bytearray()
            elif c == 2:  # Ctrl-B: the friendly REPL
                out("\r\n")
                return "friendly"
            elif c == 3:  # Ctrl-C: forget the line
                line = bytearray()
            elif c == 4:  # Ctrl-D: run it, or soft reset on an empty line
                out("OK")
                if not line:
                    out("\r\n")
                    soft_reset(SOFT_RESET_RAW)
                _execute(bytes(line), session)
                break
            else:
                line.append(c)


def raw_paste():
    """Raw-paste mode: the host sends code in windows of WINDOW bytes, each acknowledged
    with 0x01, and ends it with Ctrl-D, acknowledged with 0x04."""
    out(b"R\x01" + bytes((WINDOW & 0xFF, WINDOW >> 8)))
    code = bytearray()
    taken = 0
    while True:
        c = getc()
        if c == 4:
            out("\x04")
            return code  # exec takes it as it is: a copy would need its size again
        if c == 3:  # the host gave up: no code
            out("\x04")
            return b""
        code.append(c)
        taken += 1
        if taken == WINDOW:
            taken = 0
            out("\x01")


def friendly_repl(session):
    """The REPL a person sees: a line at a time, echoed. Returns "raw" on Ctrl-A; exits the
    process for a soft reset (Ctrl-D on an empty line)."""
    out(BANNER % _version())
    line = bytearray()
    while True:
        out(">>> ")
        line = bytearray()
        while True:
            c = getc()
            if c == 1:
                out("\r\n")
                return "raw"
            if c == 2:
                out("\r\n" + BANNER % _version())
                break
            if c == 3:
                out("\r\nKeyboardInterrupt\r\n")
                break
            if c == 4:
                if not line:
                    out("\r\n")
                    soft_reset(SOFT_RESET)
                continue
            if c == 13 or c == 10:
                out("\r\n")
                if line:
                    _friendly_line(bytes(line), session)
                break
            if c in (8, 127):
                if line:
                    line.pop()
                    out("\x08 \x08")
                continue
            line.append(c)
            _stdout.write(bytes((c,)))


def _friendly_line(line, session):
    try:
        text = line.decode()  # invalid UTF-8: a traceback like any error, the REPL goes on
        try:
            value = eval(text, session)
        except SyntaxError:
            exec(text, session)
            return
        if value is not None:
            print(repr(value))
    except BaseException as e:  # noqa: B902
        sys.print_exception(e, sys.stdout)  # type: ignore[attr-defined]


def soft_reset(code):
    out("MPY: soft reboot\r\n")
    raise SystemExit(code)


def start_firmware(options):
    """Power-up or soft reset from the friendly REPL: where a Pico runs /main.py (the Pico's
    entry, which builds its drivers), the virtual board runs the firmware on the flash with
    its simulated hardware (sim.main_unix, the unix port's entry), if the flash has the
    firmware (a main.py)."""
    try:
        open("/main.py").close()
    except OSError:
        return  # an empty flash: the REPL, as on a Pico without a main.py
    try:
        from sim.main_unix import main as virtual_board

        # "." (the flash, the current folder): the unix port's VfsPosix mounted at "/"
        # cannot rename one absolute path to another, which the journal does.
        virtual_board(["--flash", ".", "--pinmap", "pinmap.json"] + options)
    except KeyboardInterrupt:
        out("Traceback (most recent call last):\r\n  File \"main.py\"\r\nKeyboardInterrupt: "
            "\r\n")
    except SystemExit:
        pass
    except BaseException as e:  # noqa: B902 - the REPL shows it, as a Pico does
        sys.print_exception(e, sys.stdout)  # type: ignore[attr-defined]


class Flash(vfs.VfsPosix):  # type: ignore[attr-defined,misc]
    """The flash folder as a Pico's littlefs lists it: os.ilistdir gives each entry's size,
    (name, type, inode, size). The unix port's VfsPosix gives (name, type, inode) only, which
    mpremote's `fs ls` shows as size 0. The rest stays VfsPosix's own, native: a wrapper in
    Python for every call (each import's stat and open) fragmented the board's heap (the
    largest free block 142 -> 104 KB after a power-up with an archive)."""

    def ilistdir(self, path):
        base = "" if path in ("", ".") else path.rstrip("/") + "/"
        for entry in super().ilistdir(path):
            size = self.stat(base + entry[0])[6] if entry[1] == 0x8000 else 0
            yield (entry[0], entry[1], entry[2], size)


def mount(flash, hw):
    import os

    vfs.mount(Flash(flash), "/")  # type: ignore[attr-defined]
    vfs.mount(vfs.VfsPosix(hw), "/.sim")  # type: ignore[attr-defined]
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib", "/.sim"]  # .frozen: asyncio and the like
    import sim.unix_machine  # type: ignore[import-not-found]
    from bgwire.sim import RESET, RESET_RAW  # the flash's, else the one beside sim (/.sim)

    global SOFT_RESET, SOFT_RESET_RAW
    SOFT_RESET, SOFT_RESET_RAW = RESET, RESET_RAW

    sys.modules["machine"] = sim.unix_machine


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: unix_pico.py FLASH HW [--raw] [-- options]\n")
        return 2
    raw = "--raw" in argv
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    mount(argv[0], argv[1])
    session = {"__name__": "__main__"}
    if not raw:
        start_firmware(options)
    mode = "raw" if raw else "friendly"
    while True:
        mode = raw_repl(session) if mode == "raw" else friendly_repl(session)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
