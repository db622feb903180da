"""The match store: what every action request reads and writes, through the ORM.

A match is read with its seats in order (one query for the match, one for its seats);
a turn is stored only if the match is still at the version the player saw, the new
snapshot (opaque bytes and their hash, as the engine gives them) and the turn's log rows
in one transaction: of two posts chosen at the same version, the second finds nothing
to update and writes nothing.
"""

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects

from .models import Match, MatchAction, Seat

SEATS_IN_ORDER = Prefetch("seats", queryset=Seat.objects.order_by("index"))


def read_match(match_id) -> Match:
    """The match with its seats (``seats_of``) and its turn clock, if it has one. Raises
    Match.DoesNotExist for an unknown id."""
    return Match.objects.select_related("clock").prefetch_related(SEATS_IN_ORDER).get(pk=match_id)


def with_seats(match: Match) -> Match:
    """A match just created or read without its seats, with them now (``seats_of``)."""
    prefetch_related_objects([match], SEATS_IN_ORDER)
    return match


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in order: those read with it, or read now."""
    return list(match.seats.all())


def store_turn(match_id, version: int, values: dict, log: list[MatchAction]) -> bool:
    """Write the turn if the match is still at ``version``: the match's new ``values``
    and the new log entries, together. False, with nothing written, when another request
    has moved the match on."""
    with transaction.atomic():
        if not Match.objects.filter(pk=match_id, version=version).update(**values):
            return False
        MatchAction.objects.bulk_create(log)
    return True
