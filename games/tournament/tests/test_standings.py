"""Places, placement points and standings, each case worked out by hand first."""

import pytest

from games.tournament.standings import (
    TableResult,
    check_points_table,
    placement_points,
    places,
    standings,
)


def test_four_players_the_winner_first_the_others_by_their_points_on_top_sharing_ties():
    result = TableResult(
        players=("A", "B", "C", "D"), winner="B", game_points={"A": 5, "B": 3, "C": 5, "D": 1}
    )
    assert places(result) == {"B": 1, "A": 2, "C": 2, "D": 4}
    assert placement_points(result) == {"B": 6, "A": 4, "C": 4, "D": 0}


def test_whoever_brings_the_villa_down_comes_last_whatever_stood_on_top():
    result = TableResult(
        players=("A", "B", "C", "D"),
        winner="A",
        brought_down="C",
        game_points={"B": 2, "C": 7, "D": 2},
    )
    assert places(result) == {"A": 1, "B": 2, "D": 2, "C": 4}
    assert placement_points(result) == {"A": 6, "B": 4, "D": 4, "C": 0}


def test_smaller_tables_give_the_winner_six_and_the_last_nothing():
    three = TableResult(players=("X", "Y", "Z"), winner="X", game_points={"Y": 4, "Z": 0})
    assert placement_points(three) == {"X": 6, "Y": 3, "Z": 0}
    two = TableResult(players=("X", "Y"), winner="Y", game_points={"X": 9})
    assert placement_points(two) == {"Y": 6, "X": 0}


def test_a_tournament_may_set_its_own_points():
    result = TableResult(players=("A", "B", "C", "D"), winner="D", game_points={"A": 1})
    assert placement_points(result, {4: (10, 5, 5, 0)}) == {"D": 10, "A": 5, "B": 5, "C": 5}


def test_standings_break_ties_by_own_game_points_then_by_opponents_points():
    # Round 1: a wins a b c; d wins d e f, and f brought the villa down.
    # Round 2: e wins a e c (a and c level on top: both second); b wins d b f.
    results = [
        TableResult(("a", "b", "c"), winner="a", game_points={"a": 3, "b": 2, "c": 1}),
        TableResult(("d", "e", "f"), winner="d", brought_down="f", game_points={"d": 2, "e": 5}),
        TableResult(("a", "e", "c"), winner="e", game_points={"a": 1, "e": 1, "c": 1}),
        TableResult(("d", "b", "f"), winner="b", game_points={"d": 1, "b": 1, "f": 0}),
    ]
    table = standings(["a", "b", "c", "d", "e", "f"], results)
    rows = [(s.player, s.rank, s.points, s.game_points, s.opponents_points) for s in table]
    # e, a, b and d all have 9 points: e has 6 game points, a 4, b and d 3 each; b's
    # opponents (a 9, c 3, d 9, f 0) have 21 points, d's (e 9, f 0, b 9, f 0) 18.
    assert rows == [
        ("e", 1, 9, 6, 21),
        ("a", 2, 9, 4, 24),
        ("b", 3, 9, 3, 21),
        ("d", 4, 9, 3, 18),
        ("c", 5, 3, 2, 36),
        ("f", 6, 0, 0, 36),
    ]


def test_players_level_on_every_count_share_the_rank():
    result = TableResult(("w", "x", "y", "z"), winner="w")
    table = standings(["w", "x", "y", "z"], [result])
    assert [(s.player, s.rank, s.points) for s in table] == [
        ("w", 1, 6),
        ("x", 2, 4),
        ("y", 2, 4),
        ("z", 2, 4),
    ]


def test_a_bye_is_worth_a_tables_average_and_is_no_game():
    result = TableResult(("a", "b", "c", "d"), winner="a", game_points={"b": 2, "c": 1})
    table = {s.player: s for s in standings(["a", "b", "c", "d", "e"], [result], byes=["e"])}
    assert (table["e"].points, table["e"].games, table["e"].byes) == (3, 0, 1)
    assert table["e"].rank == 3  # after a (6) and b (4), before c (2) and d (0)
    assert standings(["e"], [], byes=["e"], bye_points=0)[0].points == 0


def test_a_result_the_rules_cannot_give_is_refused():
    with pytest.raises(ValueError):
        TableResult(("a", "b"), winner="a", brought_down="a")
    with pytest.raises(ValueError):
        TableResult(("a", "b"), winner="z")
    with pytest.raises(ValueError):
        TableResult(("a", "b"), winner="a", game_points={"b": -1})
    with pytest.raises(ValueError):
        TableResult(("a", "a"), winner="a")


def test_a_points_table_must_have_a_value_a_place_never_rising():
    check_points_table([6, 4, 2, 0], 4)
    for bad in ([6, 4, 2], [6, 4, 5, 0], [6, 4, 2, -1], [6, 4, 2, 100], [6.5, 4, 2, 0]):
        with pytest.raises(ValueError):
            check_points_table(bad, 4)
