"""Helpers of the browser tests."""


def log(text):
    """A figure for the test log (`pytest -s` shows it; a failing test's report has it)."""
    print("[view] %s" % text)
