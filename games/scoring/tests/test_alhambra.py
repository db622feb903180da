"""Alhambra's scorings, rule by rule, from the rule book's wording and its table."""

import pytest

from games.scoring import alhambra
from games.scoring.alhambra import Building, Holdings, ScoringInput

PAVILION, TOWER, GARDEN = Building.PAVILION, Building.TOWER, Building.GARDEN


def holdings(wall=0, **buildings):
    return Holdings({Building(name): n for name, n in buildings.items()}, wall)


@pytest.mark.parametrize(
    ("building", "scoring", "points"),
    [
        (PAVILION, 1, (1,)),
        (PAVILION, 2, (8, 1)),
        (PAVILION, 3, (16, 8, 1)),
        (Building.SERAGLIO, 2, (9, 2)),
        (Building.ARCADES, 3, (18, 10, 3)),
        (Building.CHAMBERS, 1, (4,)),
        (Building.CHAMBERS, 3, (19, 11, 4)),
        (GARDEN, 2, (12, 5)),
        (TOWER, 3, (21, 13, 6)),
    ],
)
def test_the_table_pays_one_more_place_at_each_scoring(building, scoring, points):
    assert alhambra.points_by_place(building, scoring) == points


def test_first_scoring_pays_the_first_place_only():
    assert alhambra.majority_points([3, 2, 1], TOWER, 1) == [6, 0, 0]


def test_second_scoring_pays_first_and_second():
    assert alhambra.majority_points([1, 3, 2], TOWER, 2) == [0, 13, 6]


def test_third_scoring_pays_three_places():
    assert alhambra.majority_points([4, 3, 2, 1], TOWER, 3) == [21, 13, 6, 0]


def test_tied_first_share_first_and_second_rounded_down():
    # (21 + 13) / 2 = 17; the next player is third.
    assert alhambra.majority_points([3, 3, 1], TOWER, 3) == [17, 17, 6]


def test_tied_first_at_the_first_scoring_share_the_one_place():
    # Tower 6 at the first scoring, no second place: 6 / 2 = 3. Pavilion 1 / 2 = 0.
    assert alhambra.majority_points([2, 2], TOWER, 1) == [3, 3]
    assert alhambra.majority_points([2, 2], PAVILION, 1) == [0, 0]


def test_three_tied_first_share_three_places():
    # (16 + 8 + 1) / 3 = 8, rounded down.
    assert alhambra.majority_points([2, 2, 2, 1], PAVILION, 3) == [8, 8, 8, 0]


def test_tied_second_share_second_and_third():
    # Garden at the third scoring: 20 to the first; (12 + 5) / 2 = 8 to each second.
    assert alhambra.majority_points([5, 2, 2], GARDEN, 3) == [20, 8, 8]


def test_tied_second_at_the_second_scoring_share_what_is_left():
    # Second scoring, garden 12/5: the tied second place shares 5 alone: 2 each.
    assert alhambra.majority_points([5, 2, 2], GARDEN, 2) == [12, 2, 2]


def test_tied_past_the_paid_places_score_nothing():
    assert alhambra.majority_points([4, 3, 1, 1], TOWER, 2) == [13, 6, 0, 0]


def test_no_building_of_a_type_no_points():
    assert alhambra.majority_points([0, 0, 1], TOWER, 3) == [0, 0, 21]
    assert alhambra.majority_points([0, 0], TOWER, 3) == [0, 0]


def test_one_point_per_wall_segment():
    assert alhambra.wall_points(11) == 11


def test_a_round_adds_majorities_and_the_wall():
    result = alhambra.score_round(
        2, [holdings(wall=5, tower=2, pavilion=1), holdings(wall=3, tower=1)], None
    )
    ada, ben = result.players
    assert (ada.by_building[TOWER], ada.by_building[PAVILION], ada.wall, ada.total) == (
        13,
        8,
        5,
        26,
    )
    assert (ben.by_building[TOWER], ben.total) == (6, 9)


def test_dirk_takes_part_in_the_majorities_but_scores_no_wall():
    dirk = holdings(wall=9, tower=3, pavilion=3)
    result = alhambra.score_round(1, [holdings(tower=2, wall=4), holdings(pavilion=3)], dirk)
    ada, ben = result.players
    assert ada.by_building[TOWER] == 0  # Dirk has more towers
    assert ben.by_building[PAVILION] == 0  # tied with Dirk: 1 // 2
    assert result.dirk.by_building[TOWER] == 6
    assert (result.dirk.wall, result.dirk.total) == (0, 6)
    assert ada.total == 4


def two_player_game(*scorings):
    return [ScoringInput(players=[a, b], dirk=d) for a, b, d in scorings]


def test_running_totals_and_the_winner_after_three_scorings():
    three = [
        ScoringInput([holdings(wall=2, tower=1), holdings(garden=1)]),
        ScoringInput([holdings(wall=4, tower=2), holdings(garden=2, tower=1)]),
        ScoringInput([holdings(wall=6, tower=3), holdings(garden=3, tower=2)]),
    ]
    three = [ScoringInput(s.players + [holdings()]) for s in three]
    game = alhambra.score_game(three)
    assert game.running_totals == ((8, 5, 0), (8 + 17, 5 + 12 + 6, 0), (25 + 27, 23 + 20 + 13, 0))
    assert game.finished
    assert game.leaders == (1,)


def test_an_equal_total_after_the_third_scoring_is_a_draw():
    same = holdings(wall=1, tower=1)
    game = alhambra.score_game([ScoringInput([same, same, holdings()])] * 3)
    assert game.leaders == (0, 1)


def test_dirk_keeps_his_total_and_is_not_among_the_leaders():
    game = alhambra.score_game(
        two_player_game(
            (holdings(tower=1), holdings(pavilion=1), holdings(tower=6, garden=6)),
        )
    )
    assert game.dirk_running_totals == (6 + 5,)
    assert game.leaders == (1,)  # 1 point for the pavilion, Ada has nothing
    assert not game.finished


def refused(scorings):
    with pytest.raises(alhambra.ImpossibleScoring) as error:
        alhambra.score_game(scorings)
    return error.value.problems


def test_no_more_buildings_of_a_type_than_the_game_has():
    problems = refused([ScoringInput([holdings(pavilion=4), holdings(pavilion=4), holdings()])])
    assert (1, 0, PAVILION) in problems and (1, 1, PAVILION) in problems


def test_a_wall_is_at_most_three_segments_per_building():
    problems = refused([ScoringInput([holdings(wall=7, tower=2), holdings(), holdings()])])
    assert (1, 0, "wall") in problems


NO_WALL_WITHOUT_BUILDINGS = {
    "fr": "Les murs reposent sur les édifices\u00a0: sans édifice dans cette Alhambra, "
    "pas encore de mur.",
    "da": "Muren står på bygningerne: uden bygninger i denne Alhambra er der endnu ingen mur.",
    "pl": "Mury stoją na budowlach: bez żadnej budowli w tej Alhambrze nie ma jeszcze muru.",
    "en": "Walls stand on buildings: with no building in this Alhambra, there is no wall yet.",
}


@pytest.mark.parametrize("language", NO_WALL_WITHOUT_BUILDINGS)
def test_a_wall_without_buildings_is_refused_with_a_sentence_not_at_most_0(language):
    from django.utils import translation

    with translation.override(language):
        problems = refused([ScoringInput([holdings(wall=2), holdings(tower=1), holdings()])])
        assert str(problems[(1, 0, "wall")]) == NO_WALL_WITHOUT_BUILDINGS[language]


def test_dirk_has_at_least_6_then_12_buildings():
    problems = refused(two_player_game((holdings(), holdings(), holdings(tower=5))))
    assert (1, "dirk", None) in problems
    problems = refused(
        two_player_game(
            (holdings(), holdings(), holdings(tower=6)),
            (holdings(), holdings(), holdings(tower=6, garden=5)),
        )
    )
    assert (2, "dirk", None) in problems


def test_dirk_never_loses_a_building():
    problems = refused(
        two_player_game(
            (holdings(), holdings(), holdings(tower=6)),
            (holdings(), holdings(), holdings(tower=5, garden=7)),
        )
    )
    assert (2, "dirk", TOWER) in problems


def test_dirk_only_with_two_players():
    with pytest.raises(ValueError):
        alhambra.score_game([ScoringInput([holdings()] * 3, dirk=holdings(tower=6))])
    with pytest.raises(ValueError):
        alhambra.score_game([ScoringInput([holdings()] * 2)])
