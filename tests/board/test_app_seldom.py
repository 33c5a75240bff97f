# The application's seldom commands (board.seldom: demand, rethrow, void) and a match over a
# number of games, through the protocol as the host sends them. Apart from test_app: once
# used, those modules stay loaded, as on a device.
from test_app import with_rig


@with_rig
def test_the_seldom_commands_reach_the_rules(rig, path):
    """demand, rethrow and void (board.seldom, loaded when asked) and new money --games:
    refused with the rule's words when they do not apply, nothing journaled."""
    for msg, words in (({"cmd": "demand", "level": 2}, "no match"),
                       ({"cmd": "rethrow", "dice": [4, 2]}, "no match"),
                       ({"cmd": "void"}, "no match"),
                       ({"cmd": "rethrow"}, "needs dice"),
                       ({"cmd": "new", "kind": "match", "length": 3, "games": 2}, "games go"),
                       ({"cmd": "new", "kind": "money", "games": 2, "options": {
                           "jacoby": True}}, "not used in match play")):
        reply = rig.ask(msg)
        assert len(reply) == 1 and words in reply[0].get("error", ""), (msg, reply)
    assert rig.app.journal.last_seq == 0
    replies = rig.ask({"cmd": "new", "kind": "money", "games": 3})
    assert replies[0]["ev"] == "match" and replies[0]["games"] == 3
    assert "no resignation" in rig.ask({"cmd": "demand", "level": 2})[0]["error"]
    assert "nobody has thrown" in rig.ask({"cmd": "void"})[0]["error"]
