"""Options where the seeds differ (the Polish text's own protest and abort rules), and a
placement checked where the hand actually put it."""

import pytest

from paletti.engine import new_match, placement_range
from paletti.tests.conftest import Table

POLISH = {"protest": "polish", "abort": "polish", "seal_start": "blue"}


def test_polish_abort_puts_the_column_back_without_locking_it(make_table):
    table = make_table(7, 4, {"abort": "polish"})
    seat = table.rules.to_act
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.columns[column].locked is False
    assert table.events[0]["locked"] is False
    assert table.rules.to_act == (seat + 1) % 4


def test_polish_protest_takes_any_column_from_under_the_top_platform(make_table):
    table = make_table(7, 4, POLISH)
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    table.act(type="protest")
    protester = table.rules.to_act
    touchable = table.touchable()
    colours = {table.rules.columns[c].colour for c in touchable}
    # Not only the claimant's colours: any colour, as long as it stands under blue.
    assert colours - set(table.rules.seats[claimant].colours)
    assert all(table.rules.columns[c].level == 0 for c in touchable)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    table.act(type="place", column=column, x=-60.0, lane=1)
    assert "protest_rewarded" in table.codes()
    assert table.rules.columns[column].where == "platform"
    assert table.rules.phase == "reward" and table.rules.to_act == protester
    # The reward: any column of the game, the claimant's on the top level included.
    victim = next(
        c.id
        for c in table.rules.columns
        if c.level == 1 and c.colour in table.rules.seats[claimant].colours
    )
    assert victim in [a["column"] for a in table.legal("remove_column")]
    table.act(type="remove_column", column=victim)
    assert table.rules.columns[victim].where == "out"
    assert table.rules.laid == 1 and table.rules.turn == (claimant + 1) % 4


def test_polish_protester_may_waive_the_reward(make_table):
    table = make_table(7, 4, POLISH)
    table.three_on_blue()
    table.act(type="ask_platform")
    table.act(type="protest")
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    table.act(type="place", column=column, x=-60.0, lane=1)
    in_play = sum(c.where in ("base", "platform") for c in table.rules.columns)
    table.act(type="pass")
    assert "reward_waived" in table.codes()
    assert sum(c.where in ("base", "platform") for c in table.rules.columns) == in_play


def test_unknown_readings_are_refused():
    with pytest.raises(ValueError):
        new_match(1, 4, {"protest": "danish"})


def test_a_placement_that_ends_half_off_the_platform_is_given_up():
    # Aimed at the very end of blue with a 5 mm tremor: seed 2's hand puts it over the edge.
    table = Table(new_match(2, 4, {"tremor": 5.0}))
    column = table.outer_touchable()
    origin_level = table.rules.columns[column].level
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    low, high = placement_range(table.rules, column)
    table.act(type="place", column=column, x=high, lane=0)
    assert table.codes()[:2] == ["placement_failed", "aborted"]
    assert table.events[0]["problem"] == "off_platform"
    back = table.rules.columns[column]
    assert back.level == origin_level and back.locked is True
    assert table.rules.collapse is None


def test_polish_failed_protest_costs_a_column_and_no_platform_is_laid(make_table):
    # Polish text: "Jeśli adwersarzowi się nie uda, to budowniczy usuwa z gry jedną kolumnę
    # w kolorze adwersarza": the builder removes one (no choice); and the platform is laid
    # only "Jeśli nie ma żadnych zastrzeżeń", so not after an objection.
    table = make_table(7, 4, POLISH)
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    table.act(type="protest")
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.phase == "penalty" and table.rules.to_act == claimant
    assert not table.legal("pass")
    victim = table.legal("remove_column")[0]["column"]
    table.act(type="remove_column", column=victim)
    assert table.rules.columns[victim].where == "out"
    assert table.rules.laid == 1
    assert table.rules.turn == (claimant + 1) % 4


def test_a_column_that_falls_over_by_itself_is_a_failed_build_not_a_collapse(make_table):
    # The French record ends the game when "la VILLA PALETTI s'écroule": the villa. A column
    # that topples as it is set down hard while the villa stands is a build that failed: it
    # goes back where it was taken from and is locked, as an interrupted build.
    failed = 0
    for seed in range(200, 240):
        table = make_table(seed, 4)
        column = table.touchable()[0]
        table.act(type="touch", column=column)
        table.act(type="pull", column=column)
        if table.rules.phase != "holding":
            continue
        origin = table.rules.holding.origin
        table.act(type="place", column=column, x=0.0, z=0.0, speed=500, steadiness=0.0)
        if "placement_failed" not in table.codes():
            continue
        failed += 1
        assert table.rules.phase != "over" and table.rules.collapse is None
        back = table.rules.columns[column]
        assert (back.x, back.z, back.level, back.where) == (
            origin.x,
            origin.z,
            origin.level,
            origin.where,
        )
        assert back.locked is True
    assert failed >= 3


# -- the Polish text's choice of colours (seed 001: "Najmłodszy gracz rzuca kością [...].
# Kolejni gracze wybierają swoje kolory. Ostatni gracz wybierający kolor staje się pierwszym
# budowniczym.")


def _take(state, colour=None):
    from paletti.engine import apply_action, legal_actions

    choices = [a for a in legal_actions(state) if a["type"] == "take_colour"]
    action = choices[0] if colour is None else next(a for a in choices if a["colour"] == colour)
    return apply_action(state, action)


def test_polish_colours_the_youngest_throws_and_the_next_players_choose_in_turn():
    from paletti.engine import IllegalAction, apply_action, legal_actions

    state = new_match(5, 4, {"colours": "polish", "youngest": 2})
    rules = state.rules
    thrown = rules.seats[2].colours
    assert len(thrown) == 1 and rules.choosing.thrown == thrown[0]
    assert [s.colours for i, s in enumerate(rules.seats) if i != 2] == [[], [], []]
    # Clockwise from the youngest: seat 3 chooses first, among the three colours left.
    assert rules.phase == "colours" and rules.to_act == 3
    offered = [a["colour"] for a in legal_actions(state)]
    assert len(offered) == 3 and thrown[0] not in offered
    with pytest.raises(IllegalAction) as refused:
        apply_action(state, {"type": "take_colour", "colour": thrown[0]})
    assert refused.value.code == "colour_taken"
    state = _take(state, offered[-1]).state
    assert state.rules.seats[3].colours == [offered[-1]]
    assert state.rules.to_act == 0
    result = _take(state)
    state = result.state
    # Seat 1 is left one colour: it is theirs without asking, and they, the last to get a
    # colour, build first.
    assert [e["code"] for e in result.events][:2] == ["colour_taken", "colour_left_over"]
    assert sorted(c for s in state.rules.seats for c in s.colours) == sorted(
        ["white", "black", "purple", "pink"]
    )
    assert state.rules.first_player == 1
    assert state.rules.phase == "move" and state.rules.turn == 1
    assert state.rules.choosing is None


def test_polish_colours_with_three_players_the_colour_left_over_is_neutral():
    state = new_match(5, 3, {"colours": "polish", "youngest": 0})
    state = _take(state).state  # seat 1
    assert state.rules.to_act == 2 and state.rules.seats[2].colours == []
    state = _take(state).state  # seat 2, between two colours
    taken = {c for s in state.rules.seats for c in s.colours}
    assert len(taken) == 3 and state.rules.neutral not in taken
    assert state.rules.neutral is not None
    assert state.rules.turn == 2  # the last to choose builds first
    assert state.rules.step == "neutral"


def test_polish_colours_with_two_players_the_choosing_goes_round_twice():
    state = new_match(5, 2, {"colours": "polish", "youngest": 0})
    assert state.rules.choosing.order == [1, 0, 1]
    state = _take(state).state
    assert state.rules.to_act == 0
    state = _take(state).state
    assert [len(s.colours) for s in state.rules.seats] == [2, 2]
    assert state.rules.turn == 1 and state.rules.phase == "choose_colour"


def test_the_french_die_still_gives_every_colour_and_the_state_has_no_choosing():
    from paletti.engine import legal_actions

    state = new_match(5, 4, {"youngest": 2})
    stored = state.rules.to_json()
    assert "choosing" not in stored and "colours" not in stored["options"]
    assert all(len(s.colours) == 1 for s in state.rules.seats)
    assert "take_colour" not in {a["type"] for a in legal_actions(state)}


def test_bots_take_their_colours_under_the_polish_option():
    import random

    from paletti.engine import apply_action, choose_action

    state = new_match(9, 3, {"colours": "polish"})
    rng = random.Random(1)
    for level in ("easy", "careful"):
        while state.rules.phase == "colours":
            state = apply_action(state, choose_action(state, level, rng)).state
        assert state.rules.phase == "move"
        state = new_match(9, 3, {"colours": "polish"})
