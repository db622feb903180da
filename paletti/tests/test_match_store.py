"""Reading a match and storing a turn: what every action request reads and writes."""

import uuid

import pytest

from paletti import engine, services
from paletti.models import Match, MatchAction, SeatKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    seats = [
        services.SeatSpec("Zoë"),
        services.SeatSpec("Łucja"),
        services.SeatSpec("Robot", SeatKind.BOT, "easy"),
    ]
    return services.create_match(seats=seats, options={"tremor": 1.5}, seed=7).match


def test_a_match_is_read_with_its_seats_in_order(match):
    read = services.get_match(match.pk)
    seats = services.seats_of(read)
    assert (read.version, read.seed, read.options["tremor"]) == (match.version, 7, 1.5)
    assert bytes(read.snapshot) == bytes(Match.objects.get(pk=match.pk).snapshot)
    assert [(s.index, s.name, s.kind, s.level) for s in seats] == [
        (0, "Zoë", "human", ""),
        (1, "Łucja", "human", ""),
        (2, "Robot", "bot", "easy"),
    ]
    assert all(seat.match is read for seat in seats)


def test_an_unknown_match_id_raises_does_not_exist(match):
    with pytest.raises(Match.DoesNotExist):
        services.get_match(uuid.uuid4())


def _first_person_action(match):
    """The first listed action of the person to act, played until a bot answers."""
    state = services.load_state(match)
    return engine.legal_actions(state)[0]


def test_a_turn_stores_the_new_snapshot_and_every_action_in_order(match):
    version = match.version
    outcome = services.play(match=match, version=version, action=_first_person_action(match))
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == outcome.match.version > version
    assert stored.state_hash == engine.state_hash(outcome.state)
    assert bytes(stored.snapshot) == engine.snapshot(outcome.state)
    rows = list(MatchAction.objects.filter(match=match).order_by("number"))
    assert [row.number for row in rows] == list(range(1, stored.version + 1))
    assert all(row.created_at is not None for row in rows)
    # The log replays to the stored state: what a reloaded match continues from.
    assert engine.state_hash(services.replay_match(stored)) == stored.state_hash


def test_a_turn_chosen_at_a_version_already_moved_on_writes_nothing(match):
    version = match.version
    other_tab = services.get_match(match.pk)  # the same match, read by a second request
    action = _first_person_action(match)
    services.play(match=match, version=version, action=action)
    moved_on = Match.objects.get(pk=match.pk)
    logged = MatchAction.objects.filter(match=match).count()
    with pytest.raises(services.StaleVersion) as refused:
        # Its copy still says `version`, so only the conditional write can refuse it.
        services.play(match=other_tab, version=version, action=action)
    assert refused.value.current == moved_on.version
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state_hash) == (moved_on.version, moved_on.state_hash)
    assert MatchAction.objects.filter(match=match).count() == logged
