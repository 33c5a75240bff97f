"""A rule option is named in one place (bgcore.rules: `_FIELDS`, with its default) and
reaches every place people set it from: Rules' keywords, `bgboard send new`'s flags and the
`new` command's row in docs/protocol.md. Adding one and forgetting a place fails here, and
says which place."""

import inspect
import os

import click

from bgboard.send_cmd import new_match, new_money
from bgcore.rules import _FIELDS, Rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_rules_takes_each_option_by_keyword_with_its_default():
    params = inspect.signature(Rules.__init__).parameters
    keywords = {name: p.default for name, p in params.items() if name != "self"}
    assert keywords == dict(_FIELDS), "Rules.__init__'s keywords and _FIELDS disagree"


def test_bgboard_send_new_has_a_flag_for_each_option():
    for command in (new_match, new_money):
        flags = {p.name for p in command.params if isinstance(p, click.Option)}
        missing = [name for name, _ in _FIELDS if name not in flags]
        assert not missing, "%s lacks a flag for %s (send_cmd.rules_options)" % (
            command.name, missing)


def test_the_protocol_doc_names_each_option_in_the_new_command():
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        row = next(line for line in f if line.startswith("| `new` |"))
    missing = [name for name, _ in _FIELDS if "`%s`" % name not in row]
    assert not missing, "docs/protocol.md's `new` row does not name %s" % missing
