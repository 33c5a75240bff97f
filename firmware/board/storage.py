"""Flash files (board.hw.Storage) over os and open, rooted at a directory: "/" on the Pico
(littlefs, where os.rename atomically replaces its target), a folder on disk on the unix
port and CPython (the virtual board's flash). Names are plain file names in that directory.

Beyond hw.Storage (read, write, rename, remove) it offers what an append-only journal needs
to keep RAM small: append, open (stream a file), size and names."""

import os

_TMP = ".tmp"
_ENOENT = 2
_EFBIG = 27


class FlashStorage:
    def __init__(self, root="/"):
        if root != "/" and root.endswith("/"):
            root = root[:-1]
        self.root = root or "."
        if self.root not in ("/", "."):
            try:
                os.mkdir(root)
            except OSError:
                pass  # exists

    def path(self, name):
        if self.root == "/":
            return "/" + name
        return self.root + "/" + name

    def open(self, name, mode="rb"):
        """The file object itself (binary modes: "rb", "wb", "ab"); OSError if it cannot."""
        return open(self.path(name), mode)

    def read(self, name, limit=None):
        """The file's bytes, or None if it does not exist. OSError if it cannot be read (a
        directory, a worn flash) or holds more than limit bytes (EFBIG: nothing is read, so
        a file grown by another tool costs no RAM)."""
        if limit is not None:
            size = self.size(name)
            if size is not None and size > limit:
                raise OSError(_EFBIG)
        try:
            f = self.open(name, "rb")
        except OSError as e:
            if e.args[0] == _ENOENT:
                return None
            raise
        try:
            return f.read()
        finally:
            f.close()

    def write(self, name, data):
        """Atomic: the data goes to name + ".tmp", which then replaces name."""
        tmp = name + _TMP
        f = self.open(tmp, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()
        self.rename(tmp, name)

    def append(self, name, data):
        """Add data at the end of the file (created if missing); on return it is on flash
        (littlefs commits a file when it is closed; on a computer it is in the OS, which
        outlives the process: no flush, which is an fsync on the unix port). A power cut
        during it may leave a part of data at the end of the file (on littlefs none)."""
        f = self.open(name, "ab")
        try:
            f.write(data)
        finally:
            f.close()

    def rename(self, old, new):
        """Atomic on littlefs and POSIX; replaces new if it exists."""
        os.rename(self.path(old), self.path(new))

    def remove(self, name):
        """Removing a file that does not exist is not an error."""
        try:
            os.remove(self.path(name))
        except OSError as e:
            if e.args[0] != _ENOENT:
                raise

    def size(self, name):
        """Bytes in the file, or None if it does not exist."""
        try:
            return os.stat(self.path(name))[6]
        except OSError:
            return None

    def names(self):
        """The names of the files in the root directory."""
        return os.listdir(self.root)
