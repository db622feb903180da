"""Places, placement points and standings, each case worked out by hand first."""

import pytest

from games.tournament.standings import (
    TableResult,
    check_places,
    check_points_table,
    placement_points,
    places_by_score,
    standings,
)


def test_four_players_earn_their_places_points_players_level_sharing_the_better_place():
    result = TableResult(players=("A", "B", "C", "D"), places={"B": 1, "A": 2, "C": 2, "D": 4})
    assert placement_points(result) == {"B": 6, "A": 4, "C": 4, "D": 0}
    shared_win = TableResult(players=("A", "B", "C"), places={"A": 1, "B": 1, "C": 3})
    assert placement_points(shared_win) == {"A": 6, "B": 6, "C": 0}


def test_places_by_score_put_the_highest_first_and_level_scores_share_the_better_place():
    assert places_by_score({"A": 5, "B": 3, "C": 5, "D": 1}) == {"A": 1, "C": 1, "B": 3, "D": 4}
    assert places_by_score({"X": 0}) == {"X": 1}


def test_smaller_tables_give_the_winner_six_and_the_last_nothing():
    three = TableResult(players=("X", "Y", "Z"), places={"X": 1, "Y": 2, "Z": 3})
    assert placement_points(three) == {"X": 6, "Y": 3, "Z": 0}
    two = TableResult(players=("X", "Y"), places={"Y": 1, "X": 2})
    assert placement_points(two) == {"Y": 6, "X": 0}


def test_a_tournament_may_set_its_own_points():
    result = TableResult(players=("A", "B", "C", "D"), places={"D": 1, "A": 2, "B": 2, "C": 2})
    assert placement_points(result, {4: (10, 5, 5, 0)}) == {"D": 10, "A": 5, "B": 5, "C": 5}


def test_standings_break_ties_by_own_game_points_then_by_opponents_points():
    # Round 1: a wins a b c; d wins d e f, f last.
    # Round 2: e wins a e c (a and c level: both second); b wins d b f.
    results = [
        TableResult(
            ("a", "b", "c"), places={"a": 1, "b": 2, "c": 3}, game_points={"a": 3, "b": 2, "c": 1}
        ),
        TableResult(("d", "e", "f"), places={"d": 1, "e": 2, "f": 3}, game_points={"d": 2, "e": 5}),
        TableResult(
            ("a", "e", "c"), places={"e": 1, "a": 2, "c": 2}, game_points={"a": 1, "e": 1, "c": 1}
        ),
        TableResult(
            ("d", "b", "f"), places={"b": 1, "d": 2, "f": 3}, game_points={"d": 1, "b": 1, "f": 0}
        ),
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
    result = TableResult(("w", "x", "y", "z"), places={"w": 1, "x": 2, "y": 2, "z": 2})
    table = standings(["w", "x", "y", "z"], [result])
    assert [(s.player, s.rank, s.points) for s in table] == [
        ("w", 1, 6),
        ("x", 2, 4),
        ("y", 2, 4),
        ("z", 2, 4),
    ]


def test_a_bye_is_worth_a_tables_average_and_is_no_game():
    result = TableResult(
        ("a", "b", "c", "d"), places={"a": 1, "b": 2, "c": 3, "d": 4}, game_points={"b": 2}
    )
    table = {s.player: s for s in standings(["a", "b", "c", "d", "e"], [result], byes=["e"])}
    assert (table["e"].points, table["e"].games, table["e"].byes) == (3, 0, 1)
    assert table["e"].rank == 3  # after a (6) and b (4), before c (2) and d (0)
    assert standings(["e"], [], byes=["e"], bye_points=0)[0].points == 0


@pytest.mark.parametrize(
    "places",
    [
        {"a": 1, "b": 1, "c": 2},  # two share first: the next place is third
        {"a": 2, "b": 3},  # nobody first
        {"a": 1, "b": 3},  # a place skipped with nobody level
        {"a": 1, "b": 0},
        {"a": 1, "b": 2.0},
        {"a": 1, "b": True},
    ],
)
def test_places_a_table_cannot_give_are_refused(places):
    with pytest.raises(ValueError):
        check_places(places)


def test_a_result_that_does_not_fit_its_table_is_refused():
    check_places({"a": 1, "b": 1, "c": 3, "d": 3})
    with pytest.raises(ValueError):
        TableResult(("a", "b"), places={"a": 1})  # b has no place
    with pytest.raises(ValueError):
        TableResult(("a", "b"), places={"a": 1, "b": 2, "z": 3})
    with pytest.raises(ValueError):
        TableResult(("a", "b"), places={"a": 1, "b": 2}, game_points={"b": -1})
    with pytest.raises(ValueError):
        TableResult(("a", "a"), places={"a": 1})


def test_a_points_table_must_have_a_value_a_place_never_rising():
    check_points_table([6, 4, 2, 0], 4)
    for bad in ([6, 4, 2], [6, 4, 5, 0], [6, 4, 2, -1], [6, 4, 2, 100], [6.5, 4, 2, 0]):
        with pytest.raises(ValueError):
            check_points_table(bad, 4)
