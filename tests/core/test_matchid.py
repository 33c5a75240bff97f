# gnubg Match IDs: the bit layout of formats.md, IDs gnubg 1.07 printed, bad input.
import binascii

from bgcore import MatchIdError, decode_match_id, encode_match_id
from play_support import says
from support import raises

# (Match ID printed by gnubg 1.07, what it says)
GNUBG = (
    ("cInqAAAAAAAE", dict(on_roll=1, turn=1, dice=[5, 2], match_length=7)),
    ("MBngAAAAAAAE", dict(on_roll=0, turn=1, double_offered=True, match_length=7)),
    ("EQHgADAAMAAE", dict(cube=2, cube_owner=1, match_length=7, score=[3, 6])),
    ("kUngADAAMAAE", dict(cube=2, cube_owner=1, crawford=True, turn=1, resignation=2,
                          match_length=7, score=[3, 6])),
    ("cASgAAAACAAE", dict(on_roll=1, game_state="dropped", match_length=5, score=[0, 1])),
    ("MGugAAAAGAAE", dict(game_state="resigned", turn=1, resignation=3, match_length=5,
                          score=[0, 3])),
    ("AgJgAAAAQAAE", dict(cube=4, cube_owner=0, game_state="over", match_length=3,
                          score=[0, 8])),
    ("MAEpAYAAIAAE", dict(dice=[2, 2], match_length=9, score=[8, 4])),
    ("MAEHAAAAAAAA", dict(dice=[6, 1], jacoby=True)),
    ("cAkFAAAAAAAE", dict(on_roll=1, turn=1, dice=[2, 1])),
    ("EgEAAAAAAAAA", dict(cube=4, cube_owner=1, jacoby=True)),
    ("SAkAAAAAAAAA", dict(cube=256, cube_owner=0, on_roll=1, turn=1, jacoby=True)),
)


def _fields(**changes):
    f = {"cube": 1, "cube_owner": None, "on_roll": 0, "crawford": False,
         "game_state": "playing", "turn": 0, "double_offered": False, "resignation": 0,
         "dice": [], "match_length": 0, "score": [0, 0], "jacoby": False}
    f.update(changes)
    return f


def test_gnubg_ids_decode_and_encode_back():
    for mid, changes in GNUBG:
        expected = _fields(**changes)
        assert decode_match_id(mid) == expected, mid
        assert encode_match_id(expected) == mid, mid


def _bits(mid):
    raw = binascii.a2b_base64(mid)
    return [(raw[k >> 3] >> (k & 7)) & 1 for k in range(72)]


def _value(bits, offset, width):
    return sum(bits[offset + i] << i for i in range(width))


def test_every_field_at_its_bit_offset():
    mid = encode_match_id(_fields(cube=1 << 15, cube_owner=1, on_roll=1, crawford=True,
                                  game_state="resigned", turn=1, resignation=3, dice=[6, 3],
                                  match_length=32767, score=[32766, 12345], jacoby=False))
    assert len(mid) == 12
    b = _bits(mid)
    assert _value(b, 0, 4) == 15
    assert _value(b, 4, 2) == 1
    assert b[6] == 1 and b[7] == 1
    assert _value(b, 8, 3) == 3
    assert b[11] == 1 and b[12] == 0
    assert _value(b, 13, 2) == 3
    assert _value(b, 15, 3) == 6 and _value(b, 18, 3) == 3
    assert _value(b, 21, 15) == 32767
    assert _value(b, 36, 15) == 32766 and _value(b, 51, 15) == 12345
    assert b[66] == 1  # Jacoby off
    assert sum(b[67:]) == 0


def test_centred_cube_is_owner_3_and_jacoby_on_clears_bit_66():
    b = _bits(encode_match_id(_fields(jacoby=True)))
    assert _value(b, 4, 2) == 3 and b[66] == 0
    b = _bits(encode_match_id(_fields()))
    assert b[66] == 1


def test_dice_are_written_high_first():
    assert encode_match_id(_fields(dice=[3, 6])) == encode_match_id(_fields(dice=[6, 3]))
    assert decode_match_id(encode_match_id(_fields(dice=[3, 6])))["dice"] == [6, 3]


def test_round_trip_over_many_states():
    for cube in (1, 2, 64, 128, 4096):
        for owner in (None, 0, 1):
            for state in ("none", "playing", "over", "dropped"):
                for length, score in ((0, [12, 40]), (7, [6, 5]), (25, [0, 24])):
                    f = _fields(cube=cube, cube_owner=owner, game_state=state, on_roll=1,
                                match_length=length, score=score, jacoby=length == 0)
                    assert decode_match_id(encode_match_id(f)) == f


def test_old_66_bit_match_ids_read_as_no_jacoby():
    # IDs from before gnubg's extension leave bit 66 clear; Jacoby does not apply to matches.
    f = decode_match_id("cInqAAAAAAAA")
    assert f["match_length"] == 7 and f["jacoby"] is False


def test_bad_ids_say_what_is_wrong():
    for bad, words in (("cInqAAAAAAA", ("12 characters",)), (None, ("12 characters",)),
                       ("cInqAAAAAA!E", ("base64",)), ("MAEAAAAAAAAQ", ("past 66",)),
                       ("IAEAAAAAAAAA", ("owner 2",)), ("MAcAAAAAAAAA", ("game state",)),
                       ("MIEHAAAAAAAA", ("dice",)), ("MIEBAAAAAAAA", ("dice",))):
        e = raises(MatchIdError, decode_match_id, bad)
        says(e, *words)
        assert isinstance(e, ValueError)


def test_bad_fields_say_what_is_wrong():
    cases = (
        (dict(cube=3), "power of two"),
        (dict(cube=1 << 16), "power of two"),
        (dict(cube_owner=2), "cube_owner"),
        (dict(on_roll=2), "on_roll"),
        (dict(crawford=1), "true or false"),
        (dict(game_state="won"), "game_state"),
        (dict(resignation=4), "resignation"),
        (dict(dice=[7, 1]), "1 to 6"),
        (dict(dice=[1]), "dice"),
        (dict(match_length=7, score=[7, 0]), "past the 7-point match"),
        (dict(match_length=7, score=[7, 9], game_state="over"), "both scores"),
        (dict(score=[1, 1 << 15]), "score"),
        (dict(crawford=True), "Crawford"),
        (dict(match_length=7, jacoby=True), "Jacoby"),
        (dict(double_offered=True, resignation=1), "at once"),
        (dict(double_offered=True, dice=[3, 1]), "before rolling"),
        (dict(game_state="resigned"), "resignation"),
    )
    for changes, word in cases:
        e = raises(MatchIdError, encode_match_id, _fields(**changes))
        says(e, word)
    f = _fields()
    del f["jacoby"]
    says(raises(MatchIdError, encode_match_id, f), "missing", "jacoby")
    says(raises(MatchIdError, encode_match_id, _fields(colour="red")), "unknown", "colour")
    says(raises(MatchIdError, encode_match_id, [1, 2]), "object")
