# The simulated players' check of a power cut (sim.autoplay with sim.digest): the board's
# state after a restart is compared with the one before it by fingerprint, which must tell
# them apart.
from sim.digest import fingerprint


def test_fingerprint_ignores_key_order_and_tuples_against_lists():
    a = {"phase": 2, "match": {"score": [1, 0], "cube": (2, None)}, "crawford": True}
    b = {"crawford": 1, "match": {"cube": [2, None], "score": [1, 0]}, "phase": 2}
    assert fingerprint(a) == fingerprint(b)


def test_fingerprint_tells_apart_what_a_wrong_resume_would_change():
    snap = {"phase": 2, "board": [0, 2, 0, 0, 0, 0, 5] + [0] * 19, "on_roll": 0, "who": "Ann"}
    for key, other in (("phase", 3), ("on_roll", 1), ("who", "Bob"), ("board", [0] * 26)):
        changed = dict(snap)
        changed[key] = other
        assert fingerprint(changed) != fingerprint(snap), key
    assert fingerprint({"a": 1, "b": 2}) != fingerprint({"a": 2, "b": 1})  # values swapped
    assert fingerprint([1, 2]) != fingerprint([2, 1])
    assert fingerprint({"a": [1]}) != fingerprint({"a": [1, 0]})
