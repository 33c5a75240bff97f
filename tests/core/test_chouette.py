# Chouettes: the order of play, box and captain, single and multiple cubes, captain drops,
# rotation, joining and leaving, the box's partner, the ledger.
from bgcore import Chouette, DiceError, Ledger, Ordering, RuleError, Rules
from play_support import is_plain, play_out, refused, says
from support import raises

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def test_order_by_single_die_ties_throw_again_among_the_tied():
    o = Ordering(["Ann", "Bob", "Cy", "Dee", "Eve"])
    assert o.pending() == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    left = o.throw({"Ann": 4, "Bob": 6, "Cy": 4, "Dee": 2, "Eve": 2})
    assert left == ["Ann", "Cy"]  # the highest tie first; Bob is already the box
    raises(RuleError, o.ranking)
    e = raises(RuleError, o.throw, {"Ann": 3, "Dee": 5})
    says(e, "Ann, Cy")
    raises(DiceError, o.throw, {"Ann": 0, "Cy": 1})
    assert o.throw({"Ann": 3, "Cy": 3}) == ["Ann", "Cy"]  # tied again
    assert o.throw({"Ann": 1, "Cy": 5}) == ["Dee", "Eve"]
    o.throw({"Dee": 6, "Eve": 1})
    assert o.done() and o.ranking() == ["Bob", "Cy", "Ann", "Dee", "Eve"]


def test_ordering_with_a_random_source():
    import random
    rng = random.Random(3) if hasattr(random, "Random") else random
    o = Ordering(NAMES)
    while not o.done():
        o.throw_random(rng)
    assert sorted(o.ranking()) == sorted(NAMES)


def test_box_captain_and_team():
    c = Chouette(NAMES)
    assert c.box == "Ann" and c.team() == ["Bob", "Cy", "Dee"]
    c.start_game()
    assert c.captain == "Bob" and c.active == ["Bob", "Cy", "Dee"]
    says(raises(RuleError, Chouette, ["Ann", "Bob"]), "three or more")
    says(raises(RuleError, Chouette, ["Ann", "Bob", "Ann"]), "two players")
    says(raises(RuleError, Chouette, NAMES, Rules(beavers=True)), "not supported")


def _team_on_roll(c):
    # The box wins the opening and plays; the team is on roll.
    g = c.start_game() if c.settled else c.game
    c.roll((6, 1))
    play_out(g)
    return g


def _box_on_roll(c):
    g = _team_on_roll(c)
    c.roll((2, 1))
    play_out(g)
    return g


def test_single_cube_members_take_or_drop_on_their_own_and_drops_pay_at_once():
    c = Chouette(NAMES, multiple_cubes=False)
    g = _box_on_roll(c)
    c.double()
    assert sorted(c.pending()) == ["Bob", "Cy", "Dee"]
    e = refused(c, c.roll, (3, 1))
    says(e, "answer")
    c.take("Bob")
    c.drop("Dee")
    assert c.ledger.owes("Dee", "Ann") == 0  # settled when all have answered
    c.take("Cy")
    assert c.ledger.owes("Dee", "Ann") == 1
    assert c.active == ["Bob", "Cy"] and g.cube.value == 2 and g.cube.owner == 1
    assert c.captain == "Bob"
    e = refused(c, c.take, "Dee")
    says(e, "no double")


def test_captain_drop_highest_ranking_taker_becomes_captain_old_captain_to_bottom():
    c = Chouette(["Ann", "Bob", "Cy", "Dee", "Eve"], multiple_cubes=False)
    g = _box_on_roll(c)
    c.double()
    c.drop("Bob")  # the captain
    c.drop("Cy")
    c.take("Dee")
    c.take("Eve")
    assert c.captain == "Dee"
    assert c.line == ["Ann", "Cy", "Dee", "Eve", "Bob"]
    assert c.active == ["Dee", "Eve"]
    # The team (Dee captain) wins: Dee becomes the box, Ann goes to the bottom.
    g.resign(1, player=0)
    g.accept_resignation()
    line = c.end_game()
    assert line == ["Dee", "Cy", "Eve", "Bob", "Ann"]
    assert c.ledger.game() == [("Bob", "Ann", 1), ("Cy", "Ann", 1), ("Ann", "Dee", 2),
                               ("Ann", "Eve", 2)]


def test_all_drop_the_box_wins_and_the_captain_goes_to_the_bottom():
    c = Chouette(NAMES, multiple_cubes=False)
    g = _box_on_roll(c)
    c.double()
    for m in ("Bob", "Cy", "Dee"):
        c.drop(m)
    assert g.is_over() and g.result.winner == 0
    assert c.end_game() == ["Ann", "Cy", "Dee", "Bob"]
    assert c.ledger.balance("Ann") == 3 and c.ledger.balance("Bob") == -1


def test_box_wins_collects_from_each_member_and_the_captain_goes_to_the_bottom():
    c = Chouette(NAMES)
    g = _team_on_roll(c)
    g.resign(2, player=1)  # the team resigns a gammon
    g.accept_resignation()
    assert c.end_game() == ["Ann", "Cy", "Dee", "Bob"]
    assert c.ledger.debts() == [("Bob", "Ann", 2), ("Cy", "Ann", 2), ("Dee", "Ann", 2)]
    assert c.games == 1


def test_team_double_box_drops_pays_everyone_and_the_captain_becomes_box():
    c = Chouette(NAMES, multiple_cubes=False)
    _team_on_roll(c)
    c.double()  # the captain doubles for the team
    assert c.pending() == ["box"]
    e = refused(c, c.drop, "Cy")
    says(e, "the box takes or drops")
    c.drop()
    assert c.end_game() == ["Bob", "Cy", "Dee", "Ann"]
    assert [c.ledger.owes("Ann", m) for m in ("Bob", "Cy", "Dee")] == [1, 1, 1]


def test_multiple_cubes_box_doubles_members_one_by_one():
    c = Chouette(NAMES)
    g = _box_on_roll(c)
    e = refused(c, g.double)
    says(e, "cube is not in play")
    c.double("Cy")
    c.double("Dee")
    assert sorted(c.pending()) == ["Cy", "Dee"]
    e = refused(c, c.double, "Cy")
    says(e, "already on offer")
    c.take("Cy")
    c.drop("Dee")
    assert c.cubes["Cy"].value == 2 and c.cubes["Cy"].owner == 1
    assert c.cubes["Bob"].value == 1 and c.ledger.owes("Dee", "Ann") == 1
    assert c.active == ["Bob", "Cy"]
    c.roll((4, 2))
    play_out(g)
    # The team is on roll: each member may double the box on his own cube.
    e = refused(c, c.double, "Dee")
    says(e, "not on the team")
    c.double("Cy")  # Cy owns his cube at 2
    c.double("Bob")
    assert sorted(c.pending()) == ["box:Bob", "box:Cy"]
    c.drop("Bob")  # the box drops Bob's double: Bob wins 1
    c.take("Cy")  # the box takes Cy's: 4, owned by the box
    assert c.cubes["Cy"].value == 4 and c.cubes["Cy"].owner == 0
    assert c.active == ["Cy"] and c.captain == "Bob"  # Bob still plays the checkers
    # The box wins a gammon on the board: Cy pays 8; Bob beat the box, so he takes the box.
    g.resign(2, player=1)
    g.accept_resignation()
    assert c.end_game() == ["Bob", "Cy", "Dee", "Ann"]
    assert c.ledger.owes("Cy", "Ann") == 8 and c.ledger.owes("Ann", "Bob") == 1


def test_multiple_cubes_captain_drops_and_loses_the_captaincy():
    c = Chouette(NAMES)
    _box_on_roll(c)
    c.double("Bob")
    c.drop("Bob")
    assert c.captain == "Cy" and c.line == ["Ann", "Cy", "Dee", "Bob"]
    # With answers still to come, the captaincy passes once they are all in.
    c = Chouette(NAMES)
    _box_on_roll(c)
    c.double("Bob")
    c.double("Dee")
    c.drop("Bob")
    assert c.captain == "Bob"
    c.take("Dee")
    assert c.captain == "Cy" and c.active == ["Cy", "Dee"]


def test_multiple_cubes_all_settled_ends_the_game():
    c = Chouette(["Ann", "Bob", "Cy"])
    g = _box_on_roll(c)
    c.double("Bob")
    c.double("Cy")
    c.drop("Bob")
    c.drop("Cy")
    assert g.is_over() and g.result.winner == 0
    assert c.end_game() == ["Ann", "Cy", "Bob"]
    assert c.ledger.balance("Ann") == 2


def test_jacoby_per_member_cube():
    c = Chouette(NAMES, Rules(jacoby=True))
    g = _box_on_roll(c)
    c.double("Cy")
    c.take("Cy")
    g.resign(2, player=1)
    g.accept_resignation()
    c.end_game()
    # Cy's cube was turned: the gammon counts (2 x 2); the others' was not: single.
    assert c.ledger.game() == [("Bob", "Ann", 1), ("Cy", "Ann", 4), ("Dee", "Ann", 1)]


def test_joining_at_the_bottom_and_leaving():
    c = Chouette(NAMES)
    c.join("Eve")
    assert c.line[-1] == "Eve"
    g = _team_on_roll(c)
    c.join("Fay")  # during a game: ranks after this game's rotation
    assert "Fay" not in c.line and "Fay" in c.players()
    says(raises(RuleError, c.join, "Fay"), "two players")
    g.resign(1, player=1)
    g.accept_resignation()
    assert c.end_game() == ["Ann", "Cy", "Dee", "Eve", "Bob", "Fay"]
    c.leave("Cy")
    assert c.team() == ["Dee", "Eve", "Bob", "Fay"]
    c.leave("Dee")
    c.leave("Eve")
    assert c.line == ["Ann", "Bob", "Fay"]
    says(raises(RuleError, c.leave, "Fay"), "three or more")
    assert "three or more" in c.why_not_leave("Fay") and c.why_not_leave("Ann") is not None
    assert "not in this chouette" in c.why_not_leave("Zed") and c.why_not_join("Zed") is None
    assert "not 'box'" in c.why_not_join("box")


FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def test_a_member_leaving_mid_game_settles_as_a_drop_at_the_present_cube():
    """"Players can leave or join a chouette at any time." (rules-cube-match-chouette) A
    member who leaves during a game pays what dropping the present cube would: "Those who
    drop out each pay off to the box and no longer participate"."""
    c = Chouette(FIVE)
    g = _box_on_roll(c)
    c.double("Cy")
    says(refused(c, c.leave, "Cy"), "concerns Cy", "its answers first")
    says(refused(c, c.leave, "Ann"), "concerns Ann")  # the box answers nothing yet: doubled
    c.leave("Dee")  # Dee's is centred on 1: the double on Cy's cube does not concern Dee
    c.take("Cy")
    c.leave("Cy")  # Cy's own cube is on 2
    assert c.active == ["Bob", "Eve"] and c.line == FIVE
    assert c.ledger.game() == [("Dee", "Ann", 1), ("Cy", "Ann", 2)]
    says(refused(c, c.leave, "Cy"), "not in this chouette")
    says(refused(c, c.leave, "Eve"), "three or more")
    c2 = Chouette.from_dict(c.to_dict())  # a snapshot keeps who is leaving
    assert c2.leavers == ["Dee", "Cy"] and c2.to_dict() == c.to_dict()
    c.roll((3, 1))
    play_out(g)
    g.resign(1, player=1)
    g.accept_resignation()
    assert c.end_game() == ["Ann", "Eve", "Bob"]  # the leavers are gone after the rotation
    assert c.ledger.game() == [("Dee", "Ann", 1), ("Cy", "Ann", 2), ("Bob", "Ann", 1),
                               ("Eve", "Ann", 1)]
    assert "leavers" not in c.to_dict()


def test_the_captain_or_the_box_leaving_mid_game():
    """"If the captain drops out while there are others on the team who wish to play on, the
    captaincy is assumed by one of these players" and "When the team wins, the box pays off
    to each team member. Then he goes to the back of the line and the captain becomes the
    new box." (rules-cube-match-chouette): a box who leaves pays every member still in as if
    dropping, and the captain becomes the box."""
    c = Chouette(FIVE, multiple_cubes=False)
    g = _team_on_roll(c)
    c.leave("Bob")  # the captain
    assert c.captain == "Cy" and c.active == ["Cy", "Dee", "Eve"]
    c.leave("Ann")  # the box
    assert g.is_over() and g.result == (1, 1, 1, "dropped")
    assert c.end_game() == ["Cy", "Dee", "Eve"]
    assert c.ledger.game() == [("Bob", "Ann", 1), ("Ann", "Cy", 1), ("Ann", "Dee", 1),
                               ("Ann", "Eve", 1)]
    # The last member still in leaves: the box wins what is left
    c = Chouette(FIVE, multiple_cubes=False)
    g = _box_on_roll(c)
    c.double()
    for m in ("Bob", "Cy", "Dee"):
        c.drop(m)
    c.take("Eve")
    c.leave("Eve")
    assert g.is_over() and g.result.winner == 0
    assert c.ledger.game()[-1] == ("Eve", "Ann", 2)
    assert c.end_game() == ["Ann", "Cy", "Dee", "Bob"]  # Bob dropped the captaincy


def test_the_captain_alone_doubles_for_the_team_in_a_single_cube_chouette():
    """"The captain rolls the dice and makes the plays for the team."
    (rules-cube-match-chouette) With a single cube the captain doubles for the team and the
    box for itself: a made-up name, a number or another member is refused, nothing
    changes."""
    c = Chouette(NAMES, multiple_cubes=False)
    _team_on_roll(c)
    for who in ("Cy", "Zed", 3, "box"):
        says(refused(c, c.double, who), "the captain (Bob) doubles for the team")
    assert isinstance(refused(c, c.double, "Dee"), ValueError)
    c.double("Bob")
    assert c.pending() == ["box"]
    c.take()
    c.roll((2, 1))
    play_out(c.game)
    for who in ("Bob", "Ann", 7):  # the box on roll: the box doubles, by that name or None
        says(refused(c, c.double, who), "the box is on roll")
    c.double("box")
    assert sorted(c.pending()) == ["Bob", "Cy", "Dee"]


def test_members_a_double_does_not_concern_leave_or_join_while_it_is_on_offer():
    """"Players can leave or join a chouette at any time." (rules-cube-match-chouette) While
    the captain's double waits for the box's answer, a member who made no double and
    answers none leaves as a drop of the present cube; a player joins at the bottom. Those
    the double concerns (the box, the captain) wait for its answer."""
    c = Chouette(FIVE, multiple_cubes=False)
    g = _team_on_roll(c)
    c.double("Bob")
    says(refused(c, c.leave, "Bob"), "concerns Bob")
    says(refused(c, c.leave, "Ann"), "concerns Ann")
    c.leave("Dee")
    c.join("Gus")
    assert c.active == ["Bob", "Cy", "Eve"] and c.pending() == ["box"]
    assert c.ledger.game() == [("Dee", "Ann", 1)]
    c.take()
    assert g.cube.value == 2
    g.resign(1, player=0)  # the box resigns: Bob, Cy and Eve win 2 each
    g.accept_resignation()
    assert c.end_game() == ["Bob", "Cy", "Eve", "Ann", "Gus"]
    assert c.ledger.game()[1:] == [("Ann", "Bob", 2), ("Ann", "Cy", 2), ("Ann", "Eve", 2)]
    # The box doubled: it concerns every member still in, an answered one too, until
    # all have answered.
    c = Chouette(FIVE, multiple_cubes=False)
    g = _box_on_roll(c)
    c.double()
    says(refused(c, c.leave, "Cy"), "concerns Cy")
    c.take("Bob")
    says(refused(c, c.leave, "Bob"), "concerns Bob")  # answered: the others still to come


def test_the_box_partner_leaves_mid_game_and_concedes_its_half():
    """"Players can leave or join a chouette at any time." (rules-cube-match-chouette) The
    box's partner who leaves during a game concedes its half at once, as a drop of the
    present cube: it pays each member still in half that member's cube; the box plays on
    for its own half alone."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    c = Chouette(names, partner_from=6)
    c.take_partner("Fay")
    g = _box_on_roll(c)
    c.double("Cy")
    says(refused(c, c.leave, "Fay"), "concerns Fay")  # the box's side: the answer first
    c.take("Cy")
    c.leave("Fay")
    assert c.ledger.game() == [("Fay", "Bob", 0.5), ("Fay", "Cy", 1), ("Fay", "Dee", 0.5),
                               ("Fay", "Eve", 0.5)]
    c2 = Chouette.from_dict(c.to_dict())  # a snapshot keeps that the partner is out
    assert c2.partner_out and c2.to_dict() == c.to_dict()
    c.roll((3, 1))
    play_out(g)
    g.resign(1, player=1)  # the team resigns: the box alone collects its half
    g.accept_resignation()
    assert c.end_game() == ["Ann", "Cy", "Dee", "Eve", "Bob"]
    assert c.ledger.game()[4:] == [("Bob", "Ann", 0.5), ("Cy", "Ann", 1), ("Dee", "Ann", 0.5),
                                   ("Eve", "Ann", 0.5)]
    assert c.ledger.balance("Fay") == -2.5 and c.ledger.balance("Ann") == 2.5
    assert "partner_out" not in c.to_dict() and not c.partner_out


def test_the_box_partner_leaving_before_the_game_is_no_partner():
    c = Chouette(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], partner_from=6)
    c.take_partner("Fay")
    c.leave("Fay")
    assert c.partner is None and c.team() == ["Bob", "Cy", "Dee", "Eve"]


def test_box_partner_with_six_or_more_players_shares_the_results():
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    c = Chouette(names, partner_from=6)
    c.take_partner("Fay")
    assert c.team() == ["Bob", "Cy", "Dee", "Eve"]
    g = _team_on_roll(c)
    e = refused(c, c.take_partner, "Eve")
    says(e, "before the game")
    g.resign(1, player=1)
    g.accept_resignation()
    c.end_game()
    assert c.ledger.owes("Bob", "Ann") == 0.5 and c.ledger.owes("Bob", "Fay") == 0.5
    assert c.ledger.balance("Ann") == 2 and c.ledger.balance("Fay") == 2
    assert c.partner is None
    # Too few players, or the option off: no partner.
    c.leave("Eve")
    says(raises(RuleError, c.take_partner, "Cy"), "6 or more")
    says(raises(RuleError, Chouette(names).take_partner, "Cy"), "partner_from")


def test_the_box_partner_is_offered_in_rotation_from_the_captain():
    """"Chouettes of eight or more players often permit the box to take a partner. The
    partnership is offered in rotation, starting with the captain and moving on down the
    line. If no one offers to be the box's partner, a partner may be chosen by lot from among
    the team members other than the captain." (rules-cube-match-chouette) partner_by
    "rotation", the default: the member who accepts is the partner, the captain (offered
    first) or one further down whom those above declined; nobody accepting, the lot never
    draws the captain; fewer players than partner_from take none."""
    import random
    rng = random.Random(8) if hasattr(random, "Random") else random
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    c = Chouette(names, partner_from=8)
    assert c.partner_by == "rotation"
    says(refused(c, c.take_partner, "Ann"), "comes from the team")  # the box itself
    c.take_partner("Bob")  # the captain accepts
    c.start_game()
    assert c.partner == "Bob" and c.captain == "Cy" and c.members == names[2:]
    c = Chouette(names, partner_from=8)
    c.take_partner("Hal")  # the last in line: all above declined
    assert c.team() == names[1:7]
    drawn = set(Chouette(names, partner_from=8).draw_partner(rng) for _ in range(60))
    assert drawn == set(names[2:])  # by lot: every member but the box and the captain
    c = Chouette(names[:7], partner_from=8)
    says(refused(c, c.take_partner, "Cy"), "8 or more players, there are 7")


def test_ledger_nets_debts_between_pairs():
    led = Ledger()
    led.pay("Ann", "Bob", 3)
    led.pay("Bob", "Ann", 1)
    led.pay("Cy", "Ann", 2)
    assert led.owes("Ann", "Bob") == 2 and led.owes("Bob", "Ann") == -2
    assert led.debts() == [("Ann", "Bob", 2), ("Cy", "Ann", 2)]
    assert led.balance("Ann") + led.balance("Bob") + led.balance("Cy") == 0
    led2 = Ledger.from_dict(led.to_dict())
    assert led2.debts() == led.debts() and led2.game() == led.game()


def test_snapshot_round_trip_mid_game():
    c = Chouette(NAMES)
    _box_on_roll(c)
    c.double("Cy")
    data = c.to_dict()
    assert is_plain(data)
    c2 = Chouette.from_dict(data)
    assert c2.to_dict() == data
    c2.take("Cy")
    assert c2.cubes["Cy"].value == 2


def test_refusals_change_nothing():
    c = Chouette(NAMES)
    for fn, args, word in ((c.roll, ((3, 1),), "no game"), (c.end_game, (), "no game"),
                           (c.take, ("Bob",), "no game")):
        says(refused(c, fn, *args), word)
    _team_on_roll(c)
    says(refused(c, c.take, "Bob"), "no double")
    says(refused(c, c.end_game), "not over")
    says(refused(c, c.start_game), "in progress")


def test_consultation_free_none_or_once_the_cube_is_turned():
    """"In some chouettes, the team may consult freely as to how rolls should be played. In
    others, consultation is prohibited. A popular compromise permits consultation only after
    the cube has been turned." (rules-cube-match-chouette)"""
    assert Chouette(NAMES).may_consult()
    c = Chouette(NAMES, consult="none")
    _box_on_roll(c)
    c.double("Cy")
    c.take("Cy")
    assert not c.may_consult()
    for multiple in (True, False):
        c = Chouette(NAMES, multiple_cubes=multiple, consult="cube")
        g = _box_on_roll(c)
        assert not c.may_consult()
        c.double("Dee" if multiple else None)
        assert not c.may_consult()  # offered, not yet turned
        for m in (["Dee"] if multiple else ["Bob", "Cy", "Dee"]):
            c.take(m)
        assert c.may_consult() and (multiple or g.cube.value == 2)
        assert Chouette.from_dict(c.to_dict()).may_consult()
    says(raises(RuleError, Chouette, NAMES, None, True, None, "sometimes"), "consult is")


def test_the_box_partner_by_lot_or_the_player_just_beaten():
    """"If no one offers to be the box's partner, a partner may be chosen by lot from among
    the team members other than the captain." (rules-cube-match-chouette) and "He should
    select the person whom he has just defeated." (rules-es-lowe-bgaa, law 12)"""
    import random
    rng = random.Random(4) if hasattr(random, "Random") else random
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    c = Chouette(names, partner_from=6, partner_by="lot")
    says(refused(c, c.take_partner, "Bob"), "by lot", "other than the captain")
    drawn = set(c.draw_partner(rng) for _ in range(40))
    assert drawn == {"Cy", "Dee", "Eve", "Fay"}
    c = Chouette(names, partner_from=6)  # rotation: any member who accepts; lot the fallback
    c.take_partner("Bob")
    assert c.draw_partner(rng) in names[2:]
    c = Chouette(names, partner_from=6, partner_by="beaten")
    g = _team_on_roll(c)
    g.resign(1, player=1)
    g.accept_resignation()  # the box beats Bob, the captain
    c.end_game()
    assert c.beaten == "Bob" and c.line == ["Ann", "Cy", "Dee", "Eve", "Fay", "Bob"]
    says(refused(c, c.take_partner, "Cy"), "just beaten (Bob)")
    says(raises(RuleError, c.draw_partner, rng), "no draw")
    data = c.to_dict()
    assert data["beaten"] == "Bob" and data["options"] == ["free", "beaten"]
    c2 = Chouette.from_dict(data)
    c2.take_partner("Bob")
    g = _team_on_roll(c2)
    g.resign(1, player=0)
    g.accept_resignation()  # Cy, the captain, beats Ann, the box
    c2.end_game()
    assert c2.box == "Cy" and c2.beaten == "Ann"
