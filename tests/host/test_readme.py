"""What a newcomer reads first is true: the Python blocks of the README and of docs/ run as
doctests, every docs page is linked from the README and every link resolves (shell
blocks are not run here: they are the commands' own tests' business), and every host module
says what it is (`pydoc bgboard.x`, `help()`)."""

import ast
import doctest
import os
import re

DOCTEST = doctest.DocTestParser()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = os.path.join(ROOT, "host", "bgboard")
FIRMWARE = os.path.join(ROOT, "firmware")


def python_blocks(path):
    """[(line, text)] of the ```python blocks of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S)]


def pages():
    """The README and every page of docs/."""
    docs = os.path.join(ROOT, "docs")
    return [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))


def test_python_blocks_run_as_doctests():
    checked = 0
    for path in pages():
        name = os.path.relpath(path, ROOT)
        for line, text in python_blocks(path):
            test = DOCTEST.get_doctest(text, {}, name, name, line - 1)
            assert test.examples, "%s:%d: a ```python block without >>> examples" % (name, line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            out = []
            runner.run(test, out=out.append)
            assert runner.failures == 0, "%s:%d:\n%s" % (name, line, "".join(out))
            checked += 1
    assert python_blocks(os.path.join(ROOT, "README.md")), "the README has no ```python block"
    assert checked > 1


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def test_every_docs_page_is_linked_from_the_readme_and_every_link_resolves():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    linked = {os.path.normpath(os.path.join(ROOT, m.group(1))) for m in LINK.finditer(readme)}
    unlinked = [os.path.relpath(p, ROOT) for p in pages()[1:] if p not in linked]
    assert not unlinked, "docs pages the README does not link: %s" % ", ".join(unlinked)
    broken = []
    for path in pages() + [os.path.join(ROOT, "hardware", "README.md")]:
        with open(path, encoding="utf-8") as f:
            for m in LINK.finditer(f.read()):
                target = m.group(1)
                if "://" in target:
                    continue
                if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                    broken.append("%s: %s" % (os.path.relpath(path, ROOT), target))
    assert not broken, "links to nothing: %s" % "; ".join(broken)


def test_the_readme_stays_short():
    # Depth goes to docs/: the README is what a newcomer reads first.
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert len(f.read().splitlines()) <= 300


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
    from bgboard.firmware import compile_file  # as bgboard flash compiles it

    source = os.path.join(FIRMWARE, "board", "sensing.py")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    doc = ast.get_docstring(ast.parse(text), clean=False)
    bare = tmp_path / "sensing.py"
    bare.write_text(text.replace('"""%s"""' % doc, "# " + doc.replace("\n", "\n# "), 1))
    assert ast.get_docstring(ast.parse(bare.read_text())) is None  # the same as a comment
    out = [compile_file(path, "board/sensing.py", "armv6m") for path in (source, str(bare))]
    assert out[0] == out[1]

