# A chouette on the board: the box (white) against a team whose captain moves black's
# checkers; members answer the box's doubles on their own (single cube) or keep a cube
# each (multiple cubes); results go to the ledger, the line-up rotates, a power cut resumes
# from the journal. Driven as players drive the board: hands on the checkers (perfect
# sensing), buttons, commands; checked by the events committed and the state reported.
from bgcore import Rules
from board.controller import OPENING, OVER, PLAYING, SETUP
from bgwire import DROP, TAKE
from board_support import BLACK, WHITE
from chouette_support import NAMES, box_on_roll, chouette, evs, refused, rig, team_on_roll

def test_a_chouette_starts_with_the_box_white_and_the_captain_black():
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events, _ = rig()
    chouette_session.new(board, NAMES, Rules(jacoby=True), False, None)
    start = events[0]
    assert start["ev"] == "match" and start["kind"] == "chouette" and start["length"] == 0
    assert start["players"] == NAMES and start["multiple_cubes"] is False
    assert start["rules"]["jacoby"] == 1 and board.phase == SETUP
    assert board.state()["chouette"]["line"] == NAMES
    eyes.start()
    game = events[-1]
    assert game["ev"] == "game" and game["number"] == 1 and game["score"] == [0, 0]
    assert game["box"] == "Ann" and game["captain"] == "Bob" and game["team"] == NAMES[1:]
    state = board.state()["chouette"]
    assert state["box"] == "Ann" and state["captain"] == "Bob" and state["active"] == NAMES[1:]
    assert board.phase == OPENING
    board.roll((5, 3))  # the opening throw: the box's die, then the captain's
    assert board.phase == PLAYING and board.match.game.player == WHITE


def test_single_cube_members_answer_the_box_on_their_own():
    board, eyes, events = chouette(multiple=False)
    box_on_roll(board, eyes)
    board.cube_action("double")
    double = evs(events)[-1]
    assert double == {"ev": "double", "player": WHITE, "cube": 2, "seq": 0}
    assert sorted(board.state()["chouette"]["pending"]) == ["Bob", "Cy", "Dee"]
    assert "on offer" in refused(board, events, board.roll, (3, 1))
    assert "say who answers" in refused(board, events, board.cube_action, "take")
    assert "Eve" in refused(board, events, board.cube_action, "take", "Eve")
    board.cube_action("take", "Bob")
    assert "Bob has no double to answer" in refused(board, events, board.cube_action, "drop",
                                                    "Bob")
    board.cube_action("drop", "Dee")
    assert board.state()["chouette"]["debts"] == []  # settled when every answer is in
    board.cube_action("take", "Cy")
    answers = evs(events)[-3:]
    assert [(e["ev"], e["player"], e["member"]) for e in answers] == [
        ("take", BLACK, "Bob"), ("drop", BLACK, "Dee"), ("take", BLACK, "Cy")]
    assert "team" not in answers[0] and answers[-1]["team"] == "take"  # the game's answer
    state = board.state()
    assert state["game"]["cube"] == 2 and state["game"]["cube_owner"] == BLACK
    assert state["chouette"]["active"] == ["Bob", "Cy"]
    assert state["chouette"]["debts"] == [["Dee", "Ann", 1]]
    assert state["chouette"]["balance"]["Ann"] == 1
    board.roll((3, 1))  # every answer is in: the box throws


def test_single_cube_all_drop_by_buttons_settles_and_rotates():
    board, eyes, events = chouette(multiple=False)
    box_on_roll(board, eyes)
    board.cube_action("double")
    for _ in NAMES[1:]:
        board.on_buttons(DROP)  # the members answer in rank order
    assert [e.get("member") for e in evs(events, "drop")] == ["Bob", "Cy", "Dee"]
    assert evs(events, "drop")[-1]["team"] == "drop"
    result = evs(events)[-1]
    assert result["ev"] == "result" and result["winner"] == WHITE and result["points"] == 1
    assert result["how"] == "dropped" and result["score"] == [1, 0]
    assert result["settled"] == [["Bob", "Ann", 1], ["Cy", "Ann", 1], ["Dee", "Ann", 1]]
    # The box won: the captain goes to the bottom; the next captain is Cy.
    assert result["line"] == ["Ann", "Cy", "Dee", "Bob"] and board.phase == OVER
    eyes.start()  # the checkers set up again
    game = evs(events)[-1]
    assert game["ev"] == "game" and game["number"] == 2 and game["score"] == [1, 0]
    assert game["box"] == "Ann" and game["captain"] == "Cy"
    assert board.state()["chouette"]["balance"] == {"Ann": 3, "Cy": -1, "Dee": -1, "Bob": -1}


def test_the_team_doubles_the_box_drops_and_the_captain_becomes_box():
    board, eyes, events = chouette(multiple=False)
    team_on_roll(board, eyes)
    assert "captain (Bob)" in refused(board, events, board.cube_action, "double", "Cy")
    board.on_buttons(2)  # DOUBLE: the captain doubles for the team
    assert evs(events)[-1] == {"ev": "double", "player": BLACK, "cube": 2, "seq": 0}
    assert "the box takes or drops" in refused(board, events, board.cube_action, "drop", "Cy")
    board.cube_action("drop")
    drop, result = evs(events)[-2:]
    assert drop == {"ev": "drop", "player": WHITE, "seq": 0}
    assert result["winner"] == BLACK and result["score"] == [0, 1]
    assert result["settled"] == [["Ann", "Bob", 1], ["Ann", "Cy", 1], ["Ann", "Dee", 1]]
    assert result["line"] == ["Bob", "Cy", "Dee", "Ann"]
    eyes.start()
    assert evs(events)[-1]["box"] == "Bob" and evs(events)[-1]["captain"] == "Cy"


def test_multiple_cubes_the_box_doubles_members_and_members_double_the_box():
    board, eyes, events = chouette(multiple=True)
    box_on_roll(board, eyes)
    board.cube_action("double", "Cy")
    board.cube_action("double", "Dee")
    assert [(e["player"], e["member"], e["cube"]) for e in evs(events, "double")] == [
        (WHITE, "Cy", 2), (WHITE, "Dee", 2)]
    assert "already on offer" in refused(board, events, board.cube_action, "double", "Cy")
    assert "answer" in refused(board, events, board.roll, (4, 2))
    assert "answer" in refused(board, events, board.resign, 1)
    board.cube_action("take", "Cy")
    board.cube_action("drop")  # only Dee's answer is due
    assert evs(events)[-1] == {"ev": "drop", "player": BLACK, "member": "Dee", "seq": 0}
    state = board.state()["chouette"]
    assert state["cubes"] == {"Bob": [1, None], "Cy": [2, "Cy"], "Dee": [1, None]}
    assert state["active"] == ["Bob", "Cy"] and state["debts"] == [["Dee", "Ann", 1]]
    board.roll((4, 2))
    eyes.carry(WHITE, 8, 4)
    eyes.carry(WHITE, 6, 4)
    # The team is on roll: members double the box on their own cubes.
    assert "say who" in refused(board, events, board.cube_action, "double")
    assert "Dee is not on the team" in refused(board, events, board.cube_action, "double",
                                               "Dee")
    board.cube_action("double", "Cy")  # Cy owns his cube at 2
    board.cube_action("double", "Bob")
    assert evs(events)[-1]["cube"] == 2 and evs(events)[-2]["cube"] == 4
    board.cube_action("drop", "Bob")  # the box drops Bob's double: Bob wins 1
    board.cube_action("take", "Cy")  # and takes Cy's: 4, the box's
    assert [(e["ev"], e["player"], e["member"]) for e in evs(events)[-2:]] == [
        ("drop", WHITE, "Bob"), ("take", WHITE, "Cy")]
    state = board.state()["chouette"]
    assert state["cubes"]["Cy"] == [4, "box"] and state["active"] == ["Cy"]
    assert state["captain"] == "Bob"  # Bob still moves the team's checkers
    board.resign(2)  # the team resigns a gammon: Cy pays 8
    board.answer_resignation(True)
    result = evs(events)[-1]
    assert result["ev"] == "result" and result["winner"] == WHITE and result["points"] == 2
    assert result["settled"] == [["Dee", "Ann", 1], ["Ann", "Bob", 1], ["Cy", "Ann", 8]]
    assert result["line"] == ["Bob", "Cy", "Dee", "Ann"]  # Bob beat the box: Bob is box
    assert board.state()["chouette"]["balance"] == {"Bob": 1, "Cy": -8, "Dee": -1, "Ann": 8}


def test_multiple_cubes_the_box_doubles_everyone_and_buttons_answer_in_rank_order():
    board, eyes, events = chouette(multiple=True, players=["Ann", "Bob", "Cy"])
    box_on_roll(board, eyes)
    board.on_buttons(2)  # DOUBLE with no member named: every cube the box may double
    assert [e["member"] for e in evs(events, "double")] == ["Bob", "Cy"]
    board.on_buttons(TAKE)  # Bob
    board.on_buttons(DROP)  # Cy
    assert [(e["ev"], e["member"]) for e in evs(events)[-2:]] == [("take", "Bob"),
                                                                   ("drop", "Cy")]
    # Bob dropping later would end the game: everyone out, the box wins what it is owed.
    board.roll((2, 1))
    eyes.carry(WHITE, 6, 4)
    eyes.carry(WHITE, 4, 3)
    board.cube_action("double", "Bob")
    board.cube_action("drop", "Bob")  # the box drops Bob's redouble: Bob wins 2
    result = evs(events)[-1]
    assert result["ev"] == "result" and result["how"] == "dropped" and result["winner"] == BLACK
    assert result["settled"] == [["Cy", "Ann", 1], ["Ann", "Bob", 2]]
    assert result["line"] == ["Bob", "Cy", "Ann"]


def test_refusals_name_the_problem_and_change_nothing():
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events, _ = rig()
    for players, words in ((["Ann", "Bob"], "three or more"), (["Ann", "Bob", "Ann"], "two"),
                           (["Ann", "box", "Cy"], "not 'box'")):
        assert words in refused(board, events, chouette_session.new, board, players, Rules(),
                                True, None)
    assert "not supported" in refused(board, events, chouette_session.new, board, NAMES,
                                      Rules(beavers=True), True, None)
    assert "partner_from" in refused(board, events, chouette_session.new, board, NAMES, Rules(),
                                     True, 2)
    board.new_match(0)  # a money session: nobody to name
    eyes.start()
    team_on_roll(board, eyes)
    assert "only in a chouette" in refused(board, events, board.cube_action, "double", "Bob")
    assert "only in a chouette" in refused(board, events, chouette_session.partner, board, "Bob")
    board, eyes, events = chouette(multiple=False)
    assert "opening" in refused(board, events, board.cube_action, "double")
    team_on_roll(board, eyes)
    assert "no double" in refused(board, events, board.cube_action, "take", "Cy")
    assert "beavers" in refused(board, events, board.cube_action, "beaver")
    assert "partner" in refused(board, events, chouette_session.partner, board, "Cy")


def test_the_box_takes_a_partner_between_games_and_shares_the_results():
    from board import chouette_session  # loaded when a chouette starts, as on the board
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    board, eyes, events, _ = rig()
    chouette_session.new(board, names, Rules(), True, 6)
    chouette_session.partner(board, "Fay")  # before the first game
    assert evs(events)[-1] == {"ev": "partner", "name": "Fay", "seq": 0}
    eyes.start()
    game = evs(events)[-1]
    assert game["partner"] == "Fay" and game["team"] == ["Bob", "Cy", "Dee", "Eve"]
    assert "before the game" in refused(board, events, chouette_session.partner, board, "Eve")
    team_on_roll(board, eyes)
    board.resign(1)
    board.answer_resignation(True)
    result = evs(events)[-1]
    assert ["Bob", "Ann", 0.5] in result["settled"] and ["Bob", "Fay", 0.5] in result["settled"]
    assert board.state()["chouette"]["balance"]["Fay"] == 2
    assert board.state()["chouette"]["partner"] is None  # for one game only


def test_players_join_at_the_bottom_and_leave_between_their_games():
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events = chouette(multiple=False)
    box_on_roll(board, eyes)
    # during a game: ranks after this game's rotation
    chouette_session.lineup(board, "join", "Eve")
    assert evs(events)[-1] == {"ev": "join", "name": "Eve", "seq": 0}
    assert "two players" in refused(board, events, chouette_session.lineup, board, "join", "Eve")
    board.cube_action("double")
    assert "its answers first" in refused(board, events, chouette_session.lineup, board,
                                           "leave", "Cy")
    for _ in NAMES[1:]:
        board.on_buttons(DROP)
    assert evs(events)[-1]["line"] == ["Ann", "Cy", "Dee", "Bob", "Eve"]
    chouette_session.lineup(board, "leave", "Dee")  # between games
    assert evs(events)[-1] == {"ev": "leave", "name": "Dee", "seq": 0}
    eyes.start()
    game = evs(events)[-1]
    assert game["box"] == "Ann" and game["captain"] == "Cy" and game["team"] == ["Cy", "Bob",
                                                                               "Eve"]
    board, eyes, events, _ = rig()
    board.new_match(0)
    assert "only a chouette" in refused(board, events, chouette_session.lineup, board, "join",
                                        "Eve")



def test_the_box_leaving_mid_game_pays_everyone_and_the_captain_takes_the_box():
    """"Players can leave or join a chouette at any time." and "When the team wins, the box
    pays off to each team member. Then he goes to the back of the line and the captain
    becomes the new box." (rules-cube-match-chouette): the box who leaves settles as if
    dropping every member's present cube; the game ends there."""
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events = chouette()
    team_on_roll(board, eyes)
    chouette_session.lineup(board, "leave", "Ann")
    leave, result = evs(events)[-2:]
    assert leave == {"ev": "leave", "name": "Ann", "seq": 0}
    assert result["ev"] == "result" and result["winner"] == BLACK
    assert result["how"] == "dropped" and board.phase == OVER
    assert result["settled"] == [["Ann", "Bob", 1], ["Ann", "Cy", 1], ["Ann", "Dee", 1]]
    assert result["line"] == ["Bob", "Cy", "Dee"]
    eyes.start()
    game = evs(events)[-1]
    assert game["box"] == "Bob" and game["captain"] == "Cy"


def test_the_captain_leaving_mid_game_pays_the_present_cube_and_hands_on_the_captaincy():
    """"Players can leave or join a chouette at any time." (rules-cube-match-chouette) and
    "If the captain drops out while there are others on the team who wish to play on, the
    captaincy is assumed by one of these players": the captain who leaves during a game
    settles as a drop of his cube as it stands (2, taken), the next member captains the rest
    of the game, and the leaver is out of the line-up after its rotation."""
    from board import chouette_session  # loaded when a chouette starts, as on the board
    board, eyes, events = chouette()  # multiple cubes: Ann the box, Bob, Cy, Dee
    box_on_roll(board, eyes)
    board.cube_action("double", "Bob")
    assert "its answers first" in refused(board, events, chouette_session.lineup, board,
                                              "leave", "Bob")
    board.cube_action("take", "Bob")
    chouette_session.lineup(board, "leave", "Bob")
    assert evs(events)[-1] == {"ev": "leave", "name": "Bob", "seq": 0}
    state = board.state()["chouette"]
    assert state["captain"] == "Cy" and state["active"] == ["Cy", "Dee"]
    assert state["debts"] == [["Bob", "Ann", 2]] and board.phase == PLAYING
    board.resign(1)  # the box, on roll, gives up a single game to the two still in
    board.answer_resignation(True)
    result = evs(events)[-1]
    assert result["ev"] == "result" and result["winner"] == BLACK
    assert result["settled"] == [["Bob", "Ann", 2], ["Ann", "Cy", 1], ["Ann", "Dee", 1]]
    assert result["line"] == ["Cy", "Dee", "Ann"]  # Cy beat the box; Bob is gone


def test_partner_by_lot_and_consultation_once_the_cube_is_turned():
    """"If no one offers to be the box's partner, a partner may be chosen by lot from among
    the team members other than the captain." and "A popular compromise permits consultation
    only after the cube has been turned." (rules-cube-match-chouette): the options of `new`,
    `partner *` drawn with the board's dice and journaled by name, `state` saying whether the
    team may consult now."""
    from board import chouette_session  # loaded when a chouette starts, as on the board
    from board_support import Dice
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    board, eyes, events, _ = rig()
    assert "consult is" in refused(board, events, chouette_session.new, board, names, Rules(),
                                   False, 6, {"consult": "often"})
    chouette_session.new(board, names, Rules(), False, 6,
                         {"consult": "cube", "partner_by": "lot"})
    match = evs(events)[-1]
    assert match["consult"] == "cube" and match["partner_by"] == "lot"
    # the captain
    assert "by lot" in refused(board, events, chouette_session.partner, board, "Bob")
    board.rng = Dice((2, 0))
    chouette_session.partner(board, "*")  # the third of Cy, Dee, Eve, Fay
    assert evs(events)[-1] == {"ev": "partner", "name": "Eve", "seq": 0}
    eyes.start()
    state = board.state()["chouette"]
    assert state["consult"] is False and state["partner_by"] == "lot"
    box_on_roll(board, eyes)
    board.cube_action("double")
    for _ in ("Bob", "Cy", "Dee", "Fay"):  # Eve is the box's partner
        board.on_buttons(TAKE)
    assert board.match.game.cube.value == 2 and board.state()["chouette"]["consult"] is True
