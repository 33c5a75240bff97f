"""What a newcomer reads first is true: the README's Python blocks run as doctests (shell
blocks are not run here: they are the commands' own tests' business), and every host module
says what it is (`pydoc bgboard.x`, `help()`)."""

import ast
import doctest
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = os.path.join(ROOT, "host", "bgboard")


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


def test_every_host_module_has_a_docstring():
    missing = []
    for folder, dirs, files in os.walk(HOST):
        dirs[:] = [d for d in dirs if d not in ("node_modules", "static", "__pycache__")]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    if not ast.get_docstring(ast.parse(f.read())):
                        missing.append(os.path.relpath(path, ROOT))
    assert not missing, "modules without a docstring: %s" % ", ".join(sorted(missing))
