"""A turn is stored only at the version it was chosen at, with its log rows."""

import pytest
from django.utils import timezone

from paletti import services, store
from paletti.models import Match, MatchAction, MatchStatus, SeatKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    seats = [
        services.SeatSpec("Zoë"),
        services.SeatSpec("Łucja"),
        services.SeatSpec("Robot", SeatKind.BOT, "easy"),
    ]
    return services.create_match(seats=seats, options={"tremor": 1.5}, seed=7).match


def _turn(match, version, actions):
    values = {
        "version": version + len(actions),
        "snapshot": b"VPAL3 new bytes",
        "state_hash": "f" * 64,
        "status": MatchStatus.FINISHED,
        "updated_at": timezone.now(),
    }
    log = [
        MatchAction(match=match, number=version + i + 1, seat=i % 2, action=action)
        for i, action in enumerate(actions)
    ]
    return values, log


def test_store_turn_writes_the_match_and_its_log_rows(match):
    version = match.version
    actions = [{"type": "touch", "seat": 0, "column": 3}, {"type": "pull", "seat": 0, "x": 1.5}]
    values, log = _turn(match, version, actions)
    assert store.store_turn(match.pk, version, values, log)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, bytes(stored.snapshot), stored.status) == (
        version + 2,
        b"VPAL3 new bytes",
        MatchStatus.FINISHED,
    )
    rows = list(match.actions.order_by("number").filter(number__gt=version))
    assert [(r.number, r.seat, r.action) for r in rows] == [
        (version + 1, 0, actions[0]),
        (version + 2, 1, actions[1]),
    ]
    assert all(r.created_at is not None for r in rows)


def test_store_turn_at_a_stale_version_writes_nothing(match):
    version = match.version
    assert store.store_turn(match.pk, version, *_turn(match, version, [{"type": "pass"}]))
    assert not store.store_turn(match.pk, version, *_turn(match, version, [{"type": "x"}]))
    assert Match.objects.get(pk=match.pk).version == version + 1
    assert match.actions.filter(action__type="x").count() == 0
