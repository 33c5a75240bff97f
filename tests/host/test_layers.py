"""The dependencies point one way (README, "What is where"): bgcore and bgwire import nothing
of ours, bgcore not even bgwire; the core's tests need bgcore alone; the Pico's drivers take
their Pin/ADC objects and tables from main.py and import no board logic or simulation, and
main.py is the Pico's entry alone (the virtual board's is the sim's)."""

import ast
import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OURS = {"bgcore", "bgwire", "board", "drivers", "sim", "bgboard"}


def imported(path):
    """The top-level package names a file imports (anywhere in it, lazily too)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def ours(pattern):
    files = sorted(glob.glob(os.path.join(ROOT, pattern)))
    assert files, pattern
    return {os.path.relpath(f, ROOT): imported(f) & OURS for f in files}


def test_bgwire_imports_only_itself():
    assert {f: n - {"bgwire"} for f, n in ours("firmware/bgwire/*.py").items()
            if n - {"bgwire"}} == {}


def test_bgcore_imports_only_itself():
    assert {f: n - {"bgcore"} for f, n in ours("firmware/bgcore/*.py").items()
            if n - {"bgcore"}} == {}


def test_the_core_tests_need_bgcore_alone():
    assert {f: n - {"bgcore"} for f, n in ours("tests/core/*.py").items()
            if n - {"bgcore"}} == {}


def test_the_drivers_import_no_board_logic_nor_sim():
    assert {f: n & {"board", "sim"} for f, n in ours("firmware/drivers/*.py").items()
            if n & {"board", "sim"}} == {}


def opened(path):
    """The calls to open() in a file: a driver reads no file (pinmap.json is main.py's)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id == "open"]


def test_the_drivers_read_no_files():
    files = sorted(glob.glob(os.path.join(ROOT, "firmware", "drivers", "*.py")))
    assert files and {os.path.relpath(f, ROOT): opened(f) for f in files
                      if opened(f)} == {}
    assert opened(os.path.join(ROOT, "firmware", "main.py"))  # the finder finds main's


def test_main_py_is_the_picos_entry_alone():
    assert ours("firmware/main.py") == {"firmware/main.py": {"board", "bgwire", "drivers"}}


def test_the_finder_sees_lazy_imports():
    assert imported(os.path.join(ROOT, "firmware", "sim", "unix_pico.py")) >= {"bgwire", "sim"}


# Modules a board loads only when it needs them (a Pico's RAM: its code is in the heap once
# imported): the rest of the firmware imports them inside the functions that use them.
ON_DEMAND = {
    "bgcore.beavers", "bgcore.chouette", "bgcore.drawing", "bgcore.gamedata",
    "bgcore.irregular", "bgcore.ledger", "bgcore.matchid", "bgcore.moving", "bgcore.ordering",
    "bgcore.plays", "bgcore.positionid", "bgcore.rare", "bgcore.resign", "bgcore.sheet",
    "board.calibration", "board.chouette_session", "board.field", "board.learned",
    "board.maintenance", "board.neighbours", "board.seldom", "board.wiring",
}


def top_level_imports(path):
    """The modules a file imports when it is loaded (not inside a function): `from bgcore
    import resign` names bgcore.resign."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names |= {node.module + "." + a.name for a in node.names}
    return names


def test_modules_loaded_on_demand_are_imported_only_where_used():
    found = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "firmware", "*", "*.py"))):
        rel = os.path.relpath(path, os.path.join(ROOT, "firmware"))
        module = rel[:-3].replace("/", ".").replace(".__init__", "")
        if module in ON_DEMAND:
            continue
        eager = top_level_imports(path) & ON_DEMAND
        if eager:
            found[rel] = sorted(eager)
    assert found == {}
    for name in ON_DEMAND:  # each names a module that exists
        assert os.path.exists(os.path.join(ROOT, "firmware", name.replace(".", "/") + ".py"))
