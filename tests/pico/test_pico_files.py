"""The files the emulated Pico runs are the repository's own (host/bgboard/pico/micropython-rp2):
unchanged since they were vendored, with their licences, and the symbols the emulator uses
tied to the uf2 by its hash. A missing file is told with every other missing one, and where to
get them; another uf2 without its ELF runs, with a note saying what it costs."""

import hashlib
import json
import os
import shutil

import pytest

from bgboard.pico import PicoBoard, PicoError
from bgboard.pico.stock import (BOOTROM_ENV, DOCS, ELF_ENV, STOCK_DIR, SYMBOLS, UF2_ENV,
                                delay_address, firmware_files)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_the_kept_files_are_the_ones_their_sums_name():
    with open(os.path.join(STOCK_DIR, "SHA256SUMS")) as f:
        sums = [line.split() for line in f if line.strip()]
    assert {name for _, name in sums} == {"micropython-1.28.0-rpi-pico.uf2",
                                          "rp2040-bootrom-b1.bin", "symbols.json"}
    for digest, name in sums:
        assert _sha256(os.path.join(STOCK_DIR, name)) == digest, name
    assert os.path.getsize(os.path.join(STOCK_DIR, "rp2040-bootrom-b1.bin")) == 16384


def test_the_symbols_belong_to_the_kept_uf2_and_are_used_for_it():
    with open(SYMBOLS) as f:
        known = json.load(f)
    uf2, _ = firmware_files()
    assert uf2 == os.path.join(STOCK_DIR, known["uf2"])
    assert _sha256(uf2) == known["uf2_sha256"]
    assert delay_address(uf2) == (known["symbols"]["mp_hal_delay_us"], None)


def test_every_licence_the_readme_names_is_there():
    with open(os.path.join(STOCK_DIR, "README.md")) as f:
        readme = f.read()
    named = {part.split("`")[0] for part in readme.split("`licences/")[1:]} - {""}
    assert named == set(os.listdir(os.path.join(STOCK_DIR, "licences")))
    assert {"MicroPython-MIT.txt", "pico-sdk-BSD-3-Clause.txt", "TinyUSB-MIT.txt",
            "rp2040-bootrom-BSD-3-Clause.txt", "mbedtls-Apache-2.0.txt"} <= named
    assert os.path.isfile(os.path.join(ROOT, DOCS))


def test_missing_files_are_told_all_at_once_with_where_to_get_them(tmp_path, monkeypatch):
    monkeypatch.setenv(UF2_ENV, str(tmp_path / "gone.uf2"))
    monkeypatch.setenv(BOOTROM_ENV, str(tmp_path / "gone.bin"))
    with pytest.raises(PicoError) as e:
        PicoBoard(str(tmp_path / "flash.img"))
    text = str(e.value)
    assert "gone.uf2" in text and "gone.bin" in text, text
    assert STOCK_DIR in text and DOCS in text, text
    assert "\n" not in text


def test_another_uf2_without_its_elf_runs_without_the_shortcut_and_says_so(tmp_path,
                                                                            monkeypatch):
    monkeypatch.delenv(ELF_ENV, raising=False)
    other = tmp_path / "other.uf2"
    shutil.copy(os.path.join(STOCK_DIR, "micropython-1.28.0-rpi-pico.uf2"), other)
    with open(other, "ab") as f:  # another build: another hash
        f.write(bytes(512))
    address, note = delay_address(str(other))
    assert address is None
    assert ELF_ENV in note and DOCS in note
    # An ELF that is not this uf2's would make the emulator skip code at a wrong address.
    elf = tmp_path / "other.elf"
    elf.write_bytes(b"\x7fELF\x01" + bytes(60))
    monkeypatch.setenv(ELF_ENV, str(elf))
    from bgboard.pico.stock import StockError

    with pytest.raises(StockError):
        delay_address(str(other))


def test_nothing_names_a_folder_beside_the_checkout():
    # The files used to come from the folder "shared" beside the checkout
    # (tests/pico/test_pico_clone.py runs a clone with nothing beside it).
    beside = ("/".join(["..", "shared"]), ", ".join(['"shared"', '"pico"']))
    for folder in ("host", "tests", "firmware"):
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            if "node_modules" in base:
                continue
            for name in names:
                if name.endswith((".py", ".mjs")):
                    with open(os.path.join(base, name), encoding="utf-8") as f:
                        text = f.read()
                    assert not any(b in text for b in beside), name
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert not any(b in f.read() for b in beside)
