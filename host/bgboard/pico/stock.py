"""The files the emulated Pico runs, all inside the repository: stock MicroPython's uf2 and the
RP2040's boot ROM (micropython-rp2/, its README says where they come from), or others given by
BGBOARD_PICO_UF2 / `--uf2` and BGBOARD_PICO_BOOTROM; and the one address of the uf2's that the
emulator uses, MicroPython's `mp_hal_delay_us` (its short busy waits are skipped at once).
For the kept uf2 that address is in micropython-rp2/symbols.json, tied to the uf2 by its
SHA-256; another uf2 needs its ELF (BGBOARD_PICO_ELF, or beside it), or runs without the
shortcut (slower, the same emulated time)."""

import hashlib
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
STOCK_DIR = os.path.join(HERE, "micropython-rp2")
UF2_NAME = "micropython-1.28.0-rpi-pico.uf2"
BOOTROM_NAME = "rp2040-bootrom-b1.bin"
SYMBOLS = os.path.join(STOCK_DIR, "symbols.json")
UF2_ENV = "BGBOARD_PICO_UF2"
BOOTROM_ENV = "BGBOARD_PICO_BOOTROM"
ELF_ENV = "BGBOARD_PICO_ELF"  # another uf2's ELF (default: beside it), for its symbols
DELAY = "mp_hal_delay_us"
DOCS = "docs/pico-firmware.md"


class StockError(Exception):
    pass


def firmware_files(uf2=None, bootrom=None):
    """(uf2, boot ROM) paths: the given ones, else the environment's, else the kept ones.
    StockError names every file missing at once, and where to get it."""
    uf2 = uf2 or os.environ.get(UF2_ENV) or os.path.join(STOCK_DIR, UF2_NAME)
    bootrom = bootrom or os.environ.get(BOOTROM_ENV) or os.path.join(STOCK_DIR, BOOTROM_NAME)
    missing = ["the %s %s" % (what, path) for what, path in
               (("MicroPython uf2", uf2), ("RP2040 boot ROM", bootrom))
               if not os.path.isfile(path)]
    if missing:
        raise StockError("missing: %s. The repository keeps both in %s (`git checkout -- "
                         "%s`); for the official uf2 and how to point bgboard at another "
                         "(%s, %s), see %s" % ("; ".join(missing), STOCK_DIR, STOCK_DIR,
                                               UF2_ENV, BOOTROM_ENV, DOCS))
    return uf2, bootrom


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def delay_address(uf2):
    """(address of mp_hal_delay_us in `uf2`, or None, and a note saying why None). The kept
    uf2's comes from symbols.json; another's from its ELF, checked against the uf2's code."""
    with open(SYMBOLS) as f:
        known = json.load(f)
    if sha256_file(uf2) == known["uf2_sha256"]:
        return known["symbols"][DELAY], None
    elf = os.environ.get(ELF_ENV) or os.path.splitext(uf2)[0] + ".elf"
    if not os.path.isfile(elf):
        return None, ("%s is not the kept uf2 and has no ELF beside it: the emulator runs "
                      "MicroPython's busy waits instruction by instruction (slower); set %s "
                      "to its ELF (%s)" % (uf2, ELF_ENV, DOCS))
    found = [(value, size) for name, value, size, _ in elf_symbols(elf) if name == DELAY]
    if not found:
        raise StockError("%s has no symbol %s: is it MicroPython's ELF?" % (elf, DELAY))
    value, size = found[0]
    code = _elf_bytes(elf, value & ~1, size)
    if code is None or _uf2_bytes(uf2, value & ~1, size) != code:
        raise StockError("%s is not the ELF of %s (their code differs): set %s to the ELF "
                         "built with that uf2, or unset it" % (elf, uf2, ELF_ENV))
    return value & ~1, None


def elf_symbols(path):
    """(name, value, size, type) of each symbol in a 32-bit little-endian ELF's symbol
    table (type 2: a function)."""
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1:
        raise StockError("%s: not a 32-bit ELF" % path)
    sections = _sections(elf)
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]][4]
        for at in range(sh[4], sh[4] + sh[5], 16):
            name, value, size, info = struct.unpack_from("<IIIB", elf, at)
            end = elf.index(b"\0", strtab + name)
            yield elf[strtab + name:end].decode("latin1"), value, size, info & 0xF


def _sections(elf):
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2E)
    return [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize)
            for i in range(shnum)]


def _elf_bytes(path, addr, size):
    # The bytes a loaded section holds at addr (sh_addr, sh_offset, sh_size).
    with open(path, "rb") as f:
        elf = f.read()
    for sh in _sections(elf):
        if sh[1] == 1 and sh[3] <= addr and addr + size <= sh[3] + sh[5]:  # SHT_PROGBITS
            return elf[sh[4] + addr - sh[3]:sh[4] + addr - sh[3] + size]
    return None


def _uf2_bytes(path, addr, size):
    with open(path, "rb") as f:
        data = f.read()
    image = {}
    for off in range(0, len(data) - 511, 512):
        at, n = struct.unpack_from("<II", data, off + 12)
        image[at] = data[off + 32:off + 32 + n]
    out = bytearray()
    while len(out) < size:
        here = addr + len(out)
        block = max((a for a in image if a <= here), default=None)
        if block is None or here >= block + len(image[block]):
            return None
        out += image[block][here - block:here - block + size - len(out)]
    return bytes(out)
