"""docs/protocol.md against the contract in code (bgwire): every command and event bgwire
names is documented with the same fields, the doc names nothing bgwire lacks, and the
versions, sim verbs and buttons agree. A change to one without the other fails here."""

import os
import re

from bgwire import MAX_LINE, PROTOCOL
from bgwire.commands import COMMANDS
from bgwire.events import EVENTS, OPTIONAL
from bgwire.sim import PRESS, VERBS
from wire_support import arguments

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def doc():
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        return f.read()


def section(text, title):
    """The text under a '## title' heading, up to the next one."""
    start = text.index("\n## " + title)
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def table(text, first):
    """{name: fields} of the markdown table whose header starts with `first`: the names are
    the backticked words of the first column, the fields those of the second outside
    parentheses (what stands in parentheses explains a field: `rules` (as in `new`))."""
    rows = {}
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("| " + first + " |"))
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([a-z_]+)`", cells[0])
        fields = set(re.findall(r"`([a-z_]+)`", _outside_parentheses(cells[1])))
        for name in names:
            assert name not in rows, "%s documented twice" % name
            rows[name] = fields
    return rows


def _outside_parentheses(text):
    out, depth = [], 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def test_the_parser_of_tables_reads_what_it_should():
    text = "| cmd | arguments |\n|---|---|\n| `a`, `b` | `x` (as in `y` (`z`)), `w` |\n"
    assert table(text, "cmd") == {"a": {"x", "w"}, "b": {"x", "w"}}


def test_every_command_is_documented_with_its_arguments():
    documented = table(section(doc(), "Commands"), "cmd")
    assert sorted(documented) == sorted(COMMANDS), "doc vs bgwire.commands"
    for name in COMMANDS:
        spec = set(arguments(name))
        assert documented[name] == spec, (name, documented[name], spec)


def test_every_event_is_documented_with_its_fields():
    documented = table(section(doc(), "Events"), "ev")
    assert sorted(documented) == sorted(EVENTS), "doc vs bgwire.events"
    for name in EVENTS:
        fields = set(EVENTS[name]) | set(OPTIONAL.get(name, ()))
        assert documented[name] == fields, (name, documented[name], fields)
    assert set(OPTIONAL) <= set(EVENTS)


def test_the_version_and_line_limit_are_the_contracts():
    text = doc()
    assert re.search(r"^# The bgboard serial protocol \(version (\d+)\)", text).group(1) == \
        str(PROTOCOL)
    assert set(re.findall(r'"protocol": (\d+)', text)) == {str(PROTOCOL)}
    assert "at most %d bytes" % MAX_LINE in text


def test_the_sim_lines_and_buttons_are_the_contracts():
    text = section(doc(), "The virtual board's simulated hands")
    assert sorted(set(re.findall(r'\{"sim": "([a-z]+)"', text))) == sorted(VERBS)
    press = next(line for line in text.splitlines() if '"press"' in line)
    assert sorted(re.findall(r"`([a-z]+)`", press)) == sorted(n for n, _ in PRESS)
