"""One test per rule of the French record, with the Danish and Polish variants."""

import copy

import pytest
from django.utils import translation

from paletti.engine import IllegalAction, apply_action, legal_actions, new_match, state_to_json
from paletti.engine.rules import LAY_GRID, Collapse, Seal, lay_problem, scores
from paletti.engine.rules.turns import finish, start_turn, update_seal
from paletti.messages import outcome_sentence


def _collapse(by):
    return Collapse(
        by=by, reason="platform_tilted", level=1, piece="p0", direction="left", view="front"
    )


def test_turns_go_clockwise(table):
    first = table.rules.turn
    table.move(x=0.0, lane=0)
    assert table.rules.turn == (first + 1) % 4
    table.move(x=30.0, lane=0)
    assert table.rules.turn == (first + 2) % 4


def test_only_own_colour_may_be_moved(table):
    seat = table.rules.to_act
    own = table.rules.seats[seat].colours
    other = next(c.id for c in table.rules.columns if c.colour not in own)
    with pytest.raises(IllegalAction) as error:
        table.act(type="touch", column=other)
    assert error.value.code == "not_your_colour"
    assert all(table.rules.columns[c].colour in own for c in table.touchable())


def test_columns_on_the_top_level_may_not_be_moved(make_table):
    table = make_table(3, 2)
    column = table.move(x=0.0, lane=0)
    table.move(x=40.0, lane=0)
    # Seat of the first mover again; their column is on the top level now.
    colour = table.rules.columns[column].colour
    table.act(type="choose_colour", colour=colour)
    with pytest.raises(IllegalAction) as error:
        table.act(type="touch", column=column)
    assert error.value.code == "top_level"


def test_abort_puts_the_column_back_locks_it_and_passes_the_turn(table):
    seat = table.rules.turn
    column = table.touchable()[0]
    pose = table.rules.columns[column].pose
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.columns[column].locked
    assert table.rules.columns[column].pose == pose
    assert table.rules.turn == (seat + 1) % 4
    assert "aborted" in table.codes()


def test_locked_columns_may_not_be_touched(make_table):
    table = make_table(4, 2)
    colour = table.rules.seats[table.rules.turn].colours[0]
    table.act(type="choose_colour", colour=colour)
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    table.move(x=0.0, lane=0)
    table.act(type="choose_colour", colour=colour)
    assert column not in table.touchable()
    with pytest.raises(IllegalAction) as error:
        table.act(type="touch", column=column)
    assert error.value.code == "locked"


def test_abort_after_pulling_puts_the_column_back(table):
    column = table.outer_touchable()
    pose = table.rules.columns[column].pose
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    table.act(type="abort", column=column)
    back = table.rules.columns[column]
    assert back.where == "base" and back.locked
    assert back.pose[0] == pytest.approx(pose[0], abs=0.5)


def test_one_column_per_build_only_the_touched_one(table):
    column, other = table.touchable()[:2]
    table.act(type="touch", column=column)
    with pytest.raises(IllegalAction) as error:
        table.act(type="pull", column=other)
    assert error.value.code == "not_touched"
    with pytest.raises(IllegalAction):
        table.act(type="touch", column=other)


def test_new_platform_must_rest_on_three_columns(table):
    table.move(x=-40.0, lane=0)
    table.move(x=40.0, lane=0)
    assert lay_problem(table.rules, 0.0)[0] == "too_few_supports"
    table.move(x=0.0, lane=1)
    assert lay_problem(table.rules, 0.0) is None
    assert lay_problem(table.rules, 200.0)[0] == "platform_off_base"


def test_a_platform_may_be_laid_offset_in_depth_where_the_columns_allow_it(table):
    # French record: the new platform "peut maintenant être décalé par rapport à la base";
    # the villa is square, so in depth as well as across.
    table.three_behind_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert table.rules.phase == "lay"
    listed = {(a["x"], a["z"]) for a in table.legal("lay_platform")}
    # Listed in 2-D: across and in depth, before and behind the middle, and where the
    # columns stand: (0, 30) mm is over them, as far back as green stays on the base.
    assert len({z for _, z in listed}) > 3 and min(z for _, z in listed) < 0
    assert (0.0, 30.0) in listed and (0.0, 40.0) not in listed
    assert lay_problem(table.rules, 0.0, 40.0)[0] == "platform_off_base"
    # Over blue's middle it would rest on the three columns too, but its centre would lie
    # 30 mm in front of them: it tips over towards the front.
    over_blue = apply_action(table.state, {"type": "lay_platform", "x": 0.0})
    assert over_blue.state.rules.collapse is not None
    assert over_blue.state.rules.collapse.direction == "front"
    table.act(type="lay_platform", x=0.0, z=30.0)
    assert "platform_laid" in table.codes()
    green = table.rules.platforms[1]
    assert (green.x, green.z) == (0.0, 30.0)
    assert state_to_json(table.state)["platforms"][1]["side"][0] == pytest.approx(30.0)


def test_the_listed_lay_positions_are_the_grid_points_the_rules_accept(table, make_table):
    """legal_actions lists every LAY_GRID point of the base where lay_problem accepts the
    platform, and no other: with the columns in the rows, then behind the middle."""
    table.three_on_blue()
    behind = make_table(7, 4)
    behind.three_behind_on_blue()
    for each in (table, behind):
        each.act(type="ask_platform")
        for _ in range(3):
            each.act(type="decline")
        rules = each.rules
        points = [k * LAY_GRID for k in range(-12, 13)]
        accepted = {(x, z) for z in points for x in points if lay_problem(rules, x, z) is None}
        listed = [(a["x"], a["z"]) for a in each.legal("lay_platform")]
        assert len(listed) == len(set(listed)) and set(listed) == accepted
        assert 20 < len(listed) <= 100


def test_unchallenged_claim_lays_the_platform_and_resets_the_count(table):
    table.three_on_blue()
    claimant = table.rules.turn
    assert scores(table.rules) != [0, 0, 0, 0]
    table.act(type="ask_platform")
    for _ in range(3):
        assert table.rules.phase == "claim"
        assert table.rules.to_act != claimant
        table.act(type="decline")
    assert table.rules.phase == "lay" and table.rules.to_act == claimant
    table.act(type="lay_platform", x=0.0)
    assert "platform_laid" in table.codes()
    assert table.rules.laid == 2
    assert table.rules.platforms[1].laid_by == claimant
    assert scores(table.rules) == [0, 0, 0, 0]
    assert table.rules.turn == (claimant + 1) % 4


def test_the_claimant_may_not_place_on_the_platform_they_laid(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    table.act(type="lay_platform", x=0.0)
    # One column goes on green, the next two players put theirs back: yellow cannot rest
    # on one column, and the claimant may not build on green: skipped.
    table.move(x=0.0, lane=1)
    for _ in range(2):
        column = table.touchable()[0]
        table.act(type="touch", column=column)
        table.act(type="abort", column=column)
    assert table.rules.turn == (claimant + 1) % 4
    assert {"code": "player_skipped", "seat": claimant} in [
        {"code": e["code"], "seat": e.get("seat")} for e in table.events
    ]
    state = table.state
    rules = copy.deepcopy(state.rules)
    rules.turn = claimant
    rules.to_act = claimant
    rules.phase = "move"
    rules.step = None
    claimant_state = type(state)(rules)
    assert not [a for a in legal_actions(claimant_state) if a["type"] == "touch"]
    column = next(
        c.id
        for c in rules.columns
        if c.colour in rules.seats[claimant].colours and c.level == 0 and not c.locked
    )
    with pytest.raises(IllegalAction) as error:
        apply_action(claimant_state, {"type": "touch", "column": column})
    assert error.value.code == "own_platform"


def test_nobody_may_protest_a_claim_by_the_top_platforms_layer(table):
    """The layer of the top platform may not place on it "en aucun cas": their claim that
    none of their columns can go there is true by the rules, so no protest is offered."""
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    table.act(type="lay_platform", x=0.0)
    for x, lane in ((-30.0, 0), (0.0, 1), (30.0, 2)):
        table.move(x=x, lane=lane)
    assert table.rules.turn == claimant
    table.act(type="ask_platform")
    assert table.rules.phase == "claim"
    assert {a["type"] for a in table.legal()} == {"decline"}
    with pytest.raises(IllegalAction) as error:
        table.act(type="protest")
    assert error.value.code == "cannot_protest"


def test_with_two_players_only_the_colour_claimed_with_may_not_go_on_the_new_platform(
    make_table,
):
    """Two players play one of their colours each turn (Danish text): the colour a claim is
    made with may not go on the platform it lays; the other colour may (our reading)."""
    table = make_table(5, 2)
    table.three_on_blue()
    claimant = table.rules.turn
    colours = table.rules.seats[claimant].colours
    claimed_with = colours[1]
    table.act(type="choose_colour", colour=claimed_with)
    table.act(type="ask_platform")
    table.act(type="decline")
    table.act(type="lay_platform", x=0.0)
    assert table.rules.platforms[1].laid_colour == claimed_with
    table.move(x=20.0, lane=0)
    assert table.rules.turn == claimant
    assert [a["colour"] for a in table.legal("choose_colour")] == [colours[0]]
    rules = copy.deepcopy(table.rules)
    rules.phase = "move"
    rules.turn_colour = claimed_with
    barred = type(table.state)(rules)
    column = next(c.id for c in rules.columns if c.colour == claimed_with and c.level == 0)
    with pytest.raises(IllegalAction):
        apply_action(barred, {"type": "touch", "column": column})


def test_with_two_players_a_claim_before_choosing_is_made_in_the_colour_with_fewer_points(
    make_table,
):
    table = make_table(5, 2)
    table.three_on_blue()
    claimant = table.rules.turn
    points = dict.fromkeys(table.rules.seats[claimant].colours, 0)
    for c in table.rules.columns:
        if c.level == 1 and c.colour in points:
            points[c.colour] += c.value
    table.act(type="ask_platform")
    assert table.rules.turn_colour == min(points, key=points.get)
    assert "colour_chosen" in table.codes()


def test_successful_protest_removes_the_column_and_no_platform_is_laid(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    protester = table.rules.to_act
    table.act(type="protest")
    assert table.rules.to_act == protester
    own = table.rules.seats[claimant].colours
    assert all(table.rules.columns[c].colour in own for c in table.touchable())
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    table.act(type="place", column=column, x=-70.0, lane=2)
    assert "protest_succeeded" in table.codes()
    assert table.rules.columns[column].where == "out"
    assert table.rules.laid == 1
    assert table.rules.turn == (claimant + 1) % 4


def test_failed_protest_lets_the_claimant_remove_a_protester_column(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    protester = table.rules.to_act
    table.act(type="protest")
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert "protest_failed" in table.codes()
    assert table.rules.phase == "penalty" and table.rules.to_act == claimant
    removable = [a["column"] for a in table.legal("remove_column")]
    colours = table.rules.seats[protester].colours
    assert removable and all(table.rules.columns[c].colour in colours for c in removable)
    victim = max(removable, key=lambda c: abs(table.rules.columns[c].pose[0]))
    table.act(type="remove_column", column=victim)
    assert table.rules.columns[victim].where == "out"
    assert table.rules.phase == "lay"
    table.act(type="lay_platform", x=0.0)
    assert table.rules.laid == 2


def _seal_rules(points_by_seat, holder=None, previous=None, started=True):
    """A rules state whose top level gives each seat the given points (thin columns)."""
    rules = copy.deepcopy(new_match(1, 4).rules)
    rules.seal = Seal(started=started, holder=holder, previous=previous)
    for column in rules.columns:
        column.level = 0
    for seat, points in enumerate(points_by_seat):
        colour = rules.seats[seat].colours[0]
        thin = [c for c in rules.columns if c.colour == colour and c.kind == "thin"]
        for column in thin[:points]:
            column.level = 1
            column.where = "platform"
    return rules


def test_seal_race_starts_on_green_not_blue():
    rules = _seal_rules([2, 0, 0, 0], started=False)
    update_seal(rules, [])
    assert rules.seal.to_json() == {"started": False, "holder": None, "previous": None}
    rules.laid = 2
    for column in rules.columns:
        if column.level == 1:
            column.level = 2
    events = []
    update_seal(rules, events)
    assert rules.seal.started and rules.seal.holder == 0
    assert [e["code"] for e in events] == ["seal_race_started", "seal_taken"]


def test_seal_race_starts_on_blue_in_the_polish_reading():
    rules = _seal_rules([2, 0, 0, 0], started=False)
    rules.options.seal_start = "blue"
    update_seal(rules, [])
    assert rules.seal.started and rules.seal.holder == 0


def test_only_the_top_level_scores():
    rules = _seal_rules([2, 1, 0, 0])
    assert scores(rules) == [2, 1, 0, 0]
    rules.laid = 2
    assert scores(rules) == [0, 0, 0, 0]


def test_seal_goes_to_the_leader_and_remembers_the_previous_holder():
    rules = _seal_rules([1, 3, 0, 0], holder=0)
    update_seal(rules, [])
    assert rules.seal.holder == 1 and rules.seal.previous == 0


def test_seal_tie_keeps_the_holder():
    rules = _seal_rules([2, 2, 0, 0], holder=0, previous=3)
    update_seal(rules, [])
    assert rules.seal.to_json() == {"started": True, "holder": 0, "previous": 3}
    rules = _seal_rules([1, 2, 2, 0], holder=0, previous=3)
    update_seal(rules, [])
    assert rules.seal.holder == 0


def test_winner_is_the_seal_holder():
    rules = _seal_rules([0, 0, 0, 0], holder=2, previous=1)
    finish(rules, "no_moves", [])
    assert rules.winner == 2 and rules.phase == "over" and rules.to_act is None


def test_holder_who_causes_the_collapse_hands_the_win_to_the_previous_holder():
    rules = _seal_rules([0, 0, 0, 0], holder=2, previous=1)
    finish(rules, "collapse", [], _collapse(2))
    assert rules.winner == 1
    rules = _seal_rules([0, 0, 0, 0], holder=2, previous=1)
    finish(rules, "collapse", [], _collapse(3))
    assert rules.winner == 2


def test_before_the_race_whoever_built_highest_wins_not_who_brought_it_down():
    # Seat 0 brings the villa down; seat 2 has the most points on the top level.
    rules = _seal_rules([3, 1, 2, 0], started=False)
    events = []
    finish(rules, "collapse", events, _collapse(0))
    assert rules.winner == 2
    assert rules.outcome == events[-1]["outcome"] == "highest_builder"


def test_between_equal_builders_the_first_after_the_culprit_clockwise_wins():
    rules = _seal_rules([0, 1, 0, 1], started=False)
    finish(rules, "collapse", [], _collapse(2))
    assert rules.winner == 3
    rules = _seal_rules([0, 1, 0, 1], started=False)
    finish(rules, "collapse", [], _collapse(3))
    assert rules.winner == 1


def test_a_win_on_the_turn_order_between_equals_says_so():
    rules = _seal_rules([0, 1, 0, 1], started=False)
    finish(rules, "collapse", [], _collapse(2))
    assert rules.outcome == "highest_builder_in_turn"
    names = [seat.name for seat in rules.seats]
    with translation.override("en"):
        said = outcome_sentence(rules.outcome, names, rules.winner)
    assert names[3] in said and "first in turn after the last player" in said
    rules = _seal_rules([0, 1, 0, 3], started=False)  # no tie: the plain sentence
    finish(rules, "collapse", [], _collapse(2))
    assert (rules.winner, rules.outcome) == (3, "highest_builder")


def test_a_column_higher_up_outweighs_more_points_lower_down():
    rules = _seal_rules([0, 0, 0, 0], started=False)
    rules.laid = 2
    colours = [seat.colours[0] for seat in rules.seats]
    thick = next(c for c in rules.columns if c.colour == colours[1] and c.kind == "thick")
    thin = next(c for c in rules.columns if c.colour == colours[3] and c.kind == "thin")
    thick.level = 1
    thick.where = "platform"
    thin.level = 2
    thin.where = "platform"
    finish(rules, "collapse", [], _collapse(0))
    assert rules.winner == 3


@pytest.mark.parametrize(
    ("holder", "previous", "by", "winner", "outcome"),
    [
        (2, 1, 3, 2, "seal_holder"),
        (2, 1, 2, 1, "previous_holder"),
        # The first holder brings the villa down: nobody held the seal before, so whoever
        # built highest among the others wins (seat 1: 3 points on top).
        (2, None, 2, 1, "highest_builder"),
        (None, None, 0, 1, "highest_builder"),
    ],
)
def test_every_end_names_a_winner_and_says_why(holder, previous, by, winner, outcome):
    rules = _seal_rules([1, 3, 2, 0], holder=holder, previous=previous)
    events = []
    finish(rules, "collapse", events, _collapse(by))
    assert (rules.winner, rules.outcome) == (winner, outcome)
    assert events[-1]["outcome"] == outcome
    assert rules.winner != by or outcome == "seal_holder"


def test_game_ends_when_nobody_can_place_a_column_or_a_platform():
    rules = _seal_rules([0, 0, 0, 0], holder=3, previous=None)
    for column in rules.columns:
        column.locked = True
    rules.laid = 5  # and no platform is left to ask for
    events = []
    start_turn(rules, 0, events)
    assert rules.phase == "over" and rules.end_reason == "no_moves"
    assert rules.winner == 3
    assert [e["code"] for e in events].count("player_skipped") == 4


def test_nothing_is_accepted_after_the_end(table):
    state = table.state
    rules = copy.deepcopy(state.rules)
    finish(rules, "no_moves", [])
    over = type(state)(rules)
    assert legal_actions(over) == []
    with pytest.raises(IllegalAction) as error:
        apply_action(over, {"type": "ask_platform"})
    assert error.value.code == "game_over"


def test_two_players_choose_a_colour_before_each_turn_and_score_both(make_table):
    table = make_table(2, 2)
    seat = table.rules.turn
    colours = table.rules.seats[seat].colours
    assert table.rules.phase == "choose_colour"
    assert {a["colour"] for a in table.legal("choose_colour")} == set(colours)
    with pytest.raises(IllegalAction):
        table.act(type="touch", column=table.rules.columns[0].id)
    table.act(type="choose_colour", colour=colours[1])
    assert all(table.rules.columns[c].colour == colours[1] for c in table.touchable())
    table.move(x=-40.0, lane=0)
    table.move(x=40.0, lane=0)
    table.act(type="choose_colour", colour=colours[0])
    table.move(x=0.0, lane=1)
    own = [c for c in table.rules.columns if c.colour in colours and c.level == 1]
    assert scores(table.rules)[seat] == sum(c.value for c in own) > 0
    assert {c.colour for c in own} == set(colours)


def test_three_players_move_a_neutral_column_first(make_table):
    table = make_table(1, 3)
    neutral = table.rules.neutral
    seat = table.rules.turn
    assert table.rules.step == "neutral"
    assert all(table.rules.columns[c].colour == neutral for c in table.touchable())
    table.move(x=-40.0, lane=0)
    assert table.rules.turn == seat and table.rules.step == "own"
    own = table.rules.seats[seat].colours
    assert all(table.rules.columns[c].colour in own for c in table.touchable())
    table.move(x=40.0, lane=0)
    assert table.rules.turn == (seat + 1) % 3
    # Neutral columns score for nobody.
    assert sum(scores(table.rules)) == sum(
        c.value for c in table.rules.columns if c.level == 1 and c.colour != neutral
    )


def test_three_players_last_neutral_column_of_a_level_stays(make_table):
    table = make_table(1, 3)
    neutral = table.rules.neutral
    rules = copy.deepcopy(table.rules)
    ids = [c.id for c in rules.columns if c.colour == neutral]
    for column_id in ids[1:]:
        rules.columns[column_id].where = "out"
    state = type(table.state)(rules)
    assert not [a for a in legal_actions(state) if a["type"] == "touch" and a["column"] == ids[0]]
    with pytest.raises(IllegalAction) as error:
        apply_action(state, {"type": "touch", "column": ids[0]})
    assert error.value.code == "last_neutral"


def test_three_players_aborted_neutral_move_protest_upheld_loses_own_move(make_table):
    table = make_table(1, 3)
    seat = table.rules.turn
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.phase == "neutral_protest"
    assert table.rules.to_act == (seat + 1) % 3
    table.act(type="protest")
    # The protester may prove it with the aborted column itself (Danish text).
    assert column in table.touchable()
    table.move(x=0.0, lane=0, column=column)
    assert "neutral_protest_upheld" in table.codes()
    assert table.rules.turn == (seat + 1) % 3


def test_three_players_aborted_neutral_move_unchallenged_allows_own_move(make_table):
    table = make_table(1, 3)
    seat = table.rules.turn
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    table.act(type="decline")
    table.act(type="decline")
    assert table.rules.turn == seat and table.rules.step == "own"
    assert table.rules.to_act == seat and table.rules.phase == "move"


def test_three_players_failed_neutral_protest_allows_own_move(make_table):
    table = make_table(1, 3)
    seat = table.rules.turn
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    table.act(type="protest")
    other = table.touchable()[0]
    table.act(type="touch", column=other)
    table.act(type="abort", column=other)
    assert "neutral_protest_failed" in table.codes()
    assert table.rules.turn == seat and table.rules.step == "own"


def test_hand_tremor_is_seeded(make_table):
    def place(seed, tremor):
        table = make_table(seed, 4, {"tremor": tremor})
        column = table.move(x=0.0, lane=0)
        return table.rules.columns[column].pose[0], table.rules.platforms[0].pose

    steady, blue = place(9, 0.0)
    shaky = place(9, 2.0)[0]
    assert shaky == place(9, 2.0)[0]
    assert abs(shaky - steady) > 1e-3
    assert steady == pytest.approx(blue[0], abs=0.5)


def test_illegal_actions_carry_a_code_and_a_reason(table):
    cases = [
        ({"type": "fly"}, "unknown_action"),
        ({"type": "place", "column": 0, "x": 0.0, "lane": 0}, "wrong_phase"),
        ({"type": "touch", "column": "x"}, "bad_action"),
        ({"type": "touch", "column": 99}, "bad_action"),
        ({"type": "touch", "column": 3, "teleport": True}, "bad_action"),
        ({"type": "ask_platform", "seat": (table.rules.to_act + 1) % 4}, "not_your_turn"),
        ("touch", "malformed"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as error:
            apply_action(table.state, action)
        assert error.value.code == code
        assert error.value.reason.endswith(".")


def test_legal_actions_can_be_posted_verbatim(make_table):
    for players in (2, 3, 4):
        table = make_table(6, players)
        for _ in range(12):
            actions = table.legal()
            assert actions
            # The last listed action of each phase: an abort, a decline...; holding a
            # column, a point of the listed placement's area.
            action = actions[-1] if actions[-1]["type"] != "abort" else actions[0]
            if action["type"] == "place":
                action = table.spots()[0][0]
            table.state = apply_action(table.state, action).state
            if table.rules.phase == "over":
                break


def test_the_seal_passes_to_the_first_column_on_a_later_platform():
    # Seat 1 holds the seal on green; yellow is laid, which empties the top level, and the
    # first column on yellow, seat 3's, takes the seal from seat 1.
    rules = _seal_rules([0, 3, 0, 0], holder=1, previous=0)
    rules.laid = 3
    for column in rules.columns:
        column.level = 0 if column.level == 1 else column.level
    colour = rules.seats[3].colours[0]
    first = next(c for c in rules.columns if c.colour == colour)
    first.level = 3
    first.where = "platform"
    events = []
    update_seal(rules, events)
    assert rules.seal.to_json() == {"started": True, "holder": 3, "previous": 1}
    assert [e["code"] for e in events] == ["seal_taken"]


def test_nobody_may_protest_without_a_column_to_prove_it(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    # The claimant's columns are all locked: no protester could move one of them.
    own = table.rules.seats[claimant].colours
    table.with_rules(
        columns=[
            {**c.to_json(), "locked": c.locked or c.colour in own} for c in table.rules.columns
        ]
    )
    assert {a["type"] for a in table.legal()} == {"decline"}
    with pytest.raises(IllegalAction) as error:
        table.act(type="protest")
    assert error.value.code == "cannot_protest"


def test_no_sixth_platform_can_be_asked_for(table):
    table.three_on_blue()
    table.with_rules(laid=5)
    assert not table.legal("ask_platform")
    with pytest.raises(IllegalAction) as error:
        table.act(type="ask_platform")
    assert error.value.code == "no_platform_left"


def test_a_claim_is_allowed_before_three_columns_stand_on_top_and_then_the_turn_passes(table):
    # French record: the player "affirme" that no column can go up; only when the platform
    # is laid does it turn out it cannot rest on three columns: "il passe son tour".
    claimant = table.rules.turn
    assert table.legal("ask_platform")
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert table.rules.phase == "lay" and not table.legal("lay_platform")
    table.act(type="pass")
    assert "platform_impossible" in table.codes()
    assert table.rules.turn != claimant and table.rules.laid == 1
    # Nothing was built that turn: it counts towards a whole round of passes.
    assert table.rules.passes == 1


def test_three_players_a_turn_that_moved_a_neutral_column_is_no_pass(make_table):
    table = make_table(4, 3)
    assert table.rules.step == "neutral"
    table.with_rules(passes=2)
    seat = table.rules.turn
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    table.act(type="place", column=column, x=0.0, lane=1)
    assert table.rules.step == "own" and table.rules.turn == seat
    # Own step: nothing of theirs can go up (all locked for this test), so they pass.
    columns = [
        {**c.to_json(), "locked": c.colour in table.rules.seats[seat].colours or c.locked}
        for c in table.rules.columns
    ]
    table.with_rules(columns=columns)
    table.act(type="pass")
    # A neutral column was built this turn: the round of passes starts again.
    assert table.rules.phase != "over" and table.rules.passes == 0


def test_the_listed_placement_area_is_exactly_where_the_rules_accept_a_column():
    """legal_actions describes a placement as the 2-D area it is (any (x, z) of it), not as
    points in three rows: over 2 000 points in and around it, below red (columns on top to
    keep clear of) and on red (where a column may stand on another), the area and the
    rules' own check agree on every one."""
    import random

    from paletti.engine.rules import placement_problem
    from paletti.tests.conftest import Table, in_area

    rng = random.Random(3)
    table = Table(new_match(7, 4))
    table.three_on_blue()
    table.move(x=10.0, lane=0)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    listed = table.legal("place")
    assert [set(a) for a in listed] == [{"type", "seat", "column", "area"}]
    area = listed[0]["area"]
    assert len(area["outside"]) == 4  # the four columns on blue
    on_red = table.rules.copy()
    on_red.laid = 5
    on_red.platforms[4].x = on_red.platforms[0].x
    on_red.platforms[4].z = 0.0
    for column_on_top in on_red.columns:
        if column_on_top.level == 1:
            column_on_top.level = 5
    from paletti.engine import State, legal_actions

    red_area = next(a for a in legal_actions(State(on_red)) if a["type"] == "place")["area"]
    assert red_area["outside"] == []
    for rules, where in ((table.rules, area), (on_red, red_area)):
        low, high = where["x"]
        agreed = 0
        for _ in range(1000):
            x = rng.uniform(low - 10, high + 10)
            z = rng.uniform(low - 10, high + 10)
            assert in_area(where, x, z) == (placement_problem(rules, column, x, z) is None)
            agreed += 1
        assert agreed == 1000
    # A point in no depth row of the page's is taken as it is.
    table.act(type="place", column=column, x=-31.7, z=area["z"][0] + 3.3)
    assert table.rules.columns[column].level == 1
    placed = table.rules.columns[column]
    assert placed.z - table.rules.platforms[0].z == pytest.approx(area["z"][0] + 3.3, abs=2.0)


def test_a_column_may_be_taken_when_the_only_room_on_top_is_off_the_three_rows():
    """Rule 8 asks for room on the top platform, anywhere on it: with the three depth rows
    the page offers as shortcuts full of columns, a thick column still has room towards the
    platform's front and back edges, so its owner may take it (before, only the three rows
    were looked at and the column was withheld)."""
    from paletti.engine.rules import placement_area
    from paletti.tests.conftest import Table, in_area

    table = Table(new_match(7, 4))
    rules = table.rules.to_json()
    mover = set(rules["seats"][rules["to_act"]]["colours"])
    width = {"thick": 22.0, "hex": 17.0, "thin": 13.0}
    others = sorted(
        (c for c in rules["columns"] if c["colour"] not in mover), key=lambda c: -width[c["kind"]]
    )
    # Orange is the top: twelve columns across its middle, in the rows 30 mm apart.
    rows = [(x, z) for z in (-30.0, 0.0, 30.0) for x in (-38.0, -4.0, 30.0, 48.0)]
    for column, (x, z) in zip(others, rows, strict=False):
        column.update(where="platform", level=4, x=x, z=z, on=None)
    platforms = [dict(p, x=0.0, z=0.0, laid_by=0) for p in rules["platforms"]]
    table.with_rules(laid=4, platforms=platforms, columns=rules["columns"])
    thick = next(c["id"] for c in rules["columns"] if c["colour"] in mover and c["kind"] == "thick")

    assert thick in table.touchable()
    area = placement_area(table.rules, thick)
    millimetres = [float(k) for k in range(-50, 51)]
    assert not any(in_area(area, x, z) for x in millimetres for z in (-30.0, 0.0, 30.0))
    assert any(in_area(area, x, z) for x in millimetres for z in millimetres)
