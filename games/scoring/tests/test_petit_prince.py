"""Le Petit Prince's final count, rule by rule, from the record's wording."""

import pytest

from games.scoring import petit_prince as lpp
from games.scoring.petit_prince import Character, Planet

KING, GARDENER, HUNTER, TIPPLER = (
    Character.KING,
    Character.GARDENER,
    Character.HUNTER,
    Character.TIPPLER,
)


def planet(*characters, **counts):
    characters = characters or (KING, KING, KING, KING)
    return Planet(characters=tuple(characters), **counts)


def test_conceited_man_4_points_per_snake():
    assert lpp.conceited_man(planet(snakes=3)) == 12
    assert lpp.conceited_man(planet()) == 0


def test_geographer_1_point_per_tile_without_volcano():
    # The count entered already holds the face-down tiles and leaves out the characters.
    assert lpp.geographer(planet(tiles_without_volcano=9, face_down_tiles=3)) == 9


@pytest.mark.parametrize(("roses", "points"), [(0, 0), (1, 14), (2, 7), (3, 0), (5, 0)])
def test_king_14_for_one_rose_7_for_two_none_for_three_or_more(roses, points):
    assert lpp.king(planet(roses=roses)) == points


def test_hunter_3_points_per_species():
    assert lpp.hunter(planet(animal_species=4)) == 12


def test_lamplighter_1_point_per_lamp_post():
    assert lpp.lamplighter(planet(lamps=5)) == 5


def test_tippler_3_points_per_face_down_tile():
    assert lpp.tippler(planet(face_down_tiles=6)) == 18


def test_businessmen_2_3_5_points_per_sheep_of_their_colour():
    sheep = planet(white_sheep=2, beige_sheep=3, brown_sheep=1)
    assert lpp.white_businessman(sheep) == 4
    assert lpp.beige_businessman(sheep) == 9
    assert lpp.brown_businessman(sheep) == 5


def test_gardener_7_points_per_baobab_in_view():
    assert lpp.gardener(planet(visible_baobabs=2)) == 14


def test_turkish_astronomer_1_point_per_big_star():
    assert lpp.turkish_astronomer(planet(big_stars=7)) == 7


def test_little_prince_3_per_sheep_colour_and_1_per_box():
    assert lpp.little_prince(planet(white_sheep=4, brown_sheep=1, boxes=2)) == 3 * 2 + 2
    assert lpp.little_prince(planet(beige_sheep=0, boxes=0)) == 0


def test_identical_characters_each_score():
    assert lpp.characters_points(planet(KING, KING, GARDENER, KING, roses=1)) == [14, 14, 0, 14]


def test_the_most_volcanoes_lose_as_many_points():
    assert lpp.volcano_penalties([3, 5, 1]) == [0, 5, 0]


def test_every_player_tied_for_most_volcanoes_loses_points():
    assert lpp.volcano_penalties([4, 4, 2, 4]) == [4, 4, 0, 4]


def test_no_volcano_anywhere_no_penalty():
    assert lpp.volcano_penalties([0, 0]) == [0, 0]


def test_the_highest_total_wins():
    assert lpp.winners([30, 41, 12], [1, 1, 1]) == [1]


def test_a_tied_total_goes_to_the_fewest_volcanoes():
    assert lpp.winners([40, 40, 12], [3, 2, 0]) == [1]


def test_a_tie_with_as_many_volcanoes_is_a_shared_victory():
    assert lpp.winners([40, 40, 40], [2, 2, 3]) == [0, 1]


def test_a_whole_game_adds_characters_and_takes_off_the_penalty():
    ada = planet(
        KING,
        GARDENER,
        HUNTER,
        TIPPLER,
        roses=1,
        visible_baobabs=2,
        volcanoes=4,
        animal_species=2,
        snakes=1,
        white_sheep=1,
        face_down_tiles=3,
    )
    ben = planet(TIPPLER, TIPPLER, TIPPLER, TIPPLER, face_down_tiles=6, volcanoes=1)
    score = lpp.score_game([ada, ben])
    first, second = score.planets
    assert [p for _, p in first.characters] == [14, 14, 6, 9]
    assert (first.character_total, first.volcano_penalty, first.total) == (43, 4, 39)
    assert (second.character_total, second.volcano_penalty, second.total) == (72, 0, 72)
    assert score.winners == (1,)


def problems(**kwargs):
    with pytest.raises(lpp.ImpossiblePlanet) as refused:
        lpp.check_planet(planet(**kwargs))
    return refused.value.problems


def test_a_planet_holds_exactly_four_characters():
    with pytest.raises(lpp.ImpossiblePlanet) as refused:
        lpp.check_planet(Planet(characters=(KING,) * 5))
    assert "characters" in refused.value.problems
    with pytest.raises(lpp.ImpossiblePlanet):
        lpp.check_planet(Planet(characters=(KING,) * 3))


def test_never_three_baobabs_in_view():
    assert "visible_baobabs" in problems(visible_baobabs=3)


def test_tiles_turn_face_down_three_at_a_time_within_16():
    assert "face_down_tiles" in problems(face_down_tiles=4)
    assert "face_down_tiles" in problems(face_down_tiles=18)
    lpp.check_planet(planet(face_down_tiles=12))


def test_no_more_than_12_tiles_without_a_volcano():
    assert "tiles_without_volcano" in problems(tiles_without_volcano=13)


def test_tiles_with_a_volcano_show_at_least_one_each():
    assert "volcanoes" in problems(tiles_without_volcano=10, volcanoes=1)
    lpp.check_planet(planet(tiles_without_volcano=10, volcanoes=2))
    # Without the volcanoes entered there is nothing to compare.
    lpp.check_planet(planet(tiles_without_volcano=3))


def test_species_agree_with_the_snakes_and_sheep():
    assert "animal_species" in problems(snakes=2, white_sheep=1, animal_species=1)
    assert "animal_species" in problems(
        snakes=0, white_sheep=0, beige_sheep=0, brown_sheep=0, animal_species=3
    )
    lpp.check_planet(
        planet(snakes=0, white_sheep=0, beige_sheep=0, brown_sheep=0, animal_species=2)
    )
    # Sheep not counted: they may be there.
    lpp.check_planet(planet(snakes=1, animal_species=4))


def test_counts_are_whole_numbers_within_bounds():
    assert "snakes" in problems(snakes=-1)
    assert "roses" in problems(roses=100)


def test_two_to_five_players():
    with pytest.raises(ValueError):
        lpp.score_game([planet()])
    with pytest.raises(ValueError):
        lpp.score_game([planet()] * 6)


def test_every_problem_of_a_planet_is_said_at_once():
    with pytest.raises(lpp.ImpossiblePlanet) as refused:
        lpp.check_planet(Planet(characters=(KING,), visible_baobabs=3, face_down_tiles=2))
    assert set(refused.value.problems) == {"characters", "visible_baobabs", "face_down_tiles"}
