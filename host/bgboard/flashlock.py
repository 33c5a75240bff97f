"""One board per flash: the virtual board's flash folder and the emulated Pico's flash image
are locked while a board runs on them, so that a second `bgboard sim` on the same flash is
refused instead of running beside the first (the second would replay the first one's
journal, and both would write it). An fcntl lock: the kernel lets it go when the process
dies, however it dies, so a crashed run never leaves a stale lock behind.

    lock = FlashLock(path)   # FlashBusy if another process holds it
    lock.release()
"""

import fcntl
import os


class FlashBusy(Exception):
    pass


class FlashLock:
    """A folder is locked itself (a file in it would be on the board's file system); an image
    through PATH.lock beside it (the image may not exist yet, and a new one is flashed under
    another name first)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        if os.path.isdir(self.path):
            self._fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        else:
            self._fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                               0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            raise FlashBusy("%s is in use by another bgboard sim (one board per flash: stop "
                            "that one, or give this one another %s)"
                            % (self.path, "--flash DIR" if os.path.isdir(self.path)
                               else "--image FILE")) from None

    def release(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
