"""The seating, on its own (no Django): every present player seated once a round, at
tables of the sizes allowed, leaders at table 1, repeats as few as the numbers allow,
late arrivals and dropouts between rounds."""

import itertools
import random

import pytest

from games.tournament.seating import (
    SeatingError,
    first_round,
    meetings,
    next_round,
    repeats,
    table_sizes,
)
from games.tournament.standings import TableResult, places_by_score, standings


def winner_then_points(players, winner, points):
    """A result of a winner, the others placed by their game points."""
    places = places_by_score({p: (float("inf") if p == winner else points[p]) for p in players})
    return TableResult(players=tuple(players), places=places, game_points=points)


def play(n_players, n_rounds, seed, *, arrivals=None, dropouts=None, pairs=True):
    """A whole tournament with seeded results. `arrivals` / `dropouts`: round number →
    players who arrive before it / leave before it. Returns the plans and the rosters."""
    rng = random.Random(seed)
    present = list(range(n_players))
    everybody = list(present)
    plans, results, byes, rosters = [], [], [], []
    for number in range(1, n_rounds + 1):
        for p in (arrivals or {}).get(number, []):
            present.append(p)
            everybody.append(p)
        for p in (dropouts or {}).get(number, []):
            present.remove(p)
        if number == 1:
            plan = first_round(present, seed=seed, pairs=pairs)
        else:
            table = standings(everybody, results, byes=byes)
            ranking = [s.player for s in table if s.player in present]
            plan = next_round(
                ranking,
                met=meetings(p.tables for p in plans),
                had_bye=byes,
                seed=seed,
                pairs=pairs,
            )
        plans.append(plan)
        rosters.append(list(present))
        byes.extend(plan.byes)
        for players in plan.tables:
            winner = rng.choice(players)
            points = {p: rng.randrange(10) for p in players}
            results.append(winner_then_points(players, winner, points))
    return plans, rosters


@pytest.mark.parametrize("n_players", range(5, 41))
def test_every_present_player_is_seated_exactly_once_a_round_at_an_allowed_size(n_players):
    plans, rosters = play(n_players, 4, seed=n_players)
    for plan, present in zip(plans, rosters, strict=True):
        seated = plan.seated() + list(plan.byes)
        assert sorted(seated) == sorted(present)
        assert len(set(seated)) == len(seated)
        sizes = [len(t) for t in plan.tables]
        assert set(sizes) <= {3, 4} or (n_players == 5 and sizes == [3, 2])
        assert plan.byes == ()  # 4 falling back to 3 (and 2 for five): nobody sits out
        assert sizes == sorted(sizes, reverse=True)  # full tables first, table 1 full


def test_the_table_sizes_for_the_numbers_a_club_afternoon_sees():
    assert table_sizes(13) == ([4, 3, 3, 3], 0)
    assert table_sizes(9) == ([3, 3, 3], 0)
    assert table_sizes(6) == ([3, 3], 0)
    assert table_sizes(5) == ([3, 2], 0)
    assert table_sizes(5, pairs=False) == ([4], 1)
    assert table_sizes(2) == ([2], 0)
    assert table_sizes(2, pairs=False) == ([], 2)
    assert table_sizes(7, largest=3) == ([3, 2, 2], 0)
    assert table_sizes(7, largest=3, pairs=False) == ([3, 3], 1)
    assert table_sizes(7, largest=2) == ([2, 2, 2], 1)


def test_round_one_is_the_same_draw_for_the_same_seed_and_another_for_another():
    players = [f"p{i}" for i in range(13)]
    assert first_round(players, seed=7) == first_round(players, seed=7)
    assert first_round(players, seed=7) != first_round(players, seed=8)


@pytest.mark.parametrize("n_players", [13, 16, 20, 27, 40])
def test_three_rounds_repeat_no_pair_of_opponents_from_thirteen_players_up(n_players):
    for seed in range(5):
        plans, _ = play(n_players, 3, seed=seed)
        assert repeats(plans[-1].tables, meetings(p.tables for p in plans[:-1])) == 0
        assert repeats(plans[1].tables, meetings([plans[0].tables])) == 0


def _partitions(players, sizes):
    if not sizes:
        yield []
        return
    first, size = players[0], sizes[0]
    for rest in itertools.combinations(players[1:], size - 1):
        table = (first, *rest)
        remaining = [p for p in players if p not in table]
        for tail in _partitions(remaining, sizes[1:]):
            yield [table, *tail]


@pytest.mark.parametrize("n_players", range(5, 11))
def test_where_repeats_cannot_be_avoided_no_seating_has_fewer(n_players):
    # Every way of splitting the players into the same tables, tried one by one.
    for seed in range(3):
        plans, _ = play(n_players, 4, seed=seed)
        for number in range(1, 4):
            met = meetings(p.tables for p in plans[:number])
            plan = plans[number]
            fewest = min(
                repeats(split, met)
                for split in _partitions(plan.seated(), [len(t) for t in plan.tables])
            )
            assert repeats(plan.tables, met) == fewest


def test_leaders_sit_at_table_one_when_that_repeats_nobody():
    # 16 players, round 1 at four tables: the four winners (one a table) lead.
    ranking = [f"p{i}" for i in range(16)]
    round_one = [ranking[i::4] for i in range(4)]  # p0 p4 p8 p12 | p1 p5 …
    plan = next_round(ranking, met=meetings([round_one]))
    assert plan.tables[0] == ("p0", "p1", "p2", "p3")
    assert plan.tables[-1] == ("p12", "p13", "p14", "p15")


def test_a_repeat_moves_a_player_to_the_nearest_table_that_avoids_it():
    ranking = [f"p{i}" for i in range(8)]
    # p0 and p1 already met; everybody else is new to each other.
    plan = next_round(ranking, met={frozenset(("p0", "p1")): 1})
    assert repeats(plan.tables, {frozenset(("p0", "p1")): 1}) == 0
    assert "p0" in plan.tables[0]
    # The one who moves down is the lower-ranked of the two, by one table only.
    assert "p1" in plan.tables[1]


def test_a_late_arrival_is_seated_from_the_next_round_and_starts_at_the_bottom():
    plans, rosters = play(16, 3, seed=3, arrivals={2: [100], 3: [101]})
    assert 100 not in plans[0].seated()
    assert 100 in plans[1].seated() and 101 in plans[2].seated()
    # 16 + 1 = 17 players: five tables, nobody sits out.
    assert [len(t) for t in plans[1].tables] == [4, 4, 3, 3, 3]
    # With no points yet, the newcomer starts at the last table.
    assert 100 in plans[1].tables[-1] and 101 in plans[2].tables[-1]


def test_a_late_arrival_fills_the_one_seat_nobody_else_can_take_without_a_repeat():
    # 12 players at three tables of four, then 13: the one table of four needs players
    # from four different tables, and only the newcomer comes from none.
    plans, _ = play(12, 2, seed=3, arrivals={2: [100]})
    assert [len(t) for t in plans[1].tables] == [4, 3, 3, 3]
    assert 100 in plans[1].tables[0]
    assert repeats(plans[1].tables, meetings([plans[0].tables])) == 0


def test_a_dropout_is_not_seated_again_and_the_tables_close_up():
    plans, rosters = play(13, 3, seed=4, dropouts={2: [0, 1], 3: [2]})
    assert {0, 1} & set(plans[1].seated()) == set()
    assert {0, 1, 2} & set(plans[2].seated()) == set()
    assert [len(t) for t in plans[1].tables] == [4, 4, 3]
    assert [len(t) for t in plans[2].tables] == [4, 3, 3]


def test_without_tables_of_two_the_lowest_ranked_sits_out_and_not_twice():
    plans, _ = play(5, 3, seed=2, pairs=False)
    byes = [plan.byes for plan in plans]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 3  # three different players sat out
    assert all([len(t) for t in plan.tables] == [4] for plan in plans)


def test_too_few_players_for_a_table_is_refused_with_a_reason():
    with pytest.raises(SeatingError):
        first_round(["alone"], seed=1)
    with pytest.raises(ValueError):
        next_round(["a", "a", "b"], met={})
