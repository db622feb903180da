"""Retention: what the lending keeps about people, and for how long.

``LENDING_RETENTION_DAYS`` (default 730, two years; our choice, said in the settings and
docs/lending.md) after a loan came back, the loan loses its household and member: it stays,
with its game, copy and dates, for the statistics. As long after a membership ended, the
household loses its personal data: its name, contact and card become placeholders and its
members are deleted. Its ledger stays, as amounts without names (the entries' notes are
emptied). A household that still borrows, or whose membership runs again, is left alone.
"""

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from .households import Household
from .ledger import LedgerEntry
from .loans import Loan


@dataclass
class Anonymised:
    loans: int
    households: int


def anonymise(*, now: datetime.datetime | None = None, days: int | None = None) -> Anonymised:
    """Anonymise loans returned, and households whose membership ended, more than ``days``
    (``LENDING_RETENTION_DAYS``) ago. Running it again changes nothing more."""
    now = now or timezone.now()
    days = settings.LENDING_RETENTION_DAYS if days is None else days
    cutoff = now - datetime.timedelta(days=days)
    with transaction.atomic():
        loans = Loan.objects.filter(returned_at__lt=cutoff, household__isnull=False).update(
            household=None, member=None
        )
        ended = (
            Household.objects.filter(
                membership_end__lt=timezone.localdate(cutoff), anonymised_at__isnull=True
            )
            .exclude(Exists(Loan.objects.open().filter(household=OuterRef("pk"))))
            .select_for_update()
        )
        households = 0
        for household in ended:
            household.members.all().delete()
            LedgerEntry.objects.filter(household=household).exclude(note="").update(note="")
            household.name = "—"
            household.contact = ""
            household.card_number = f"anonymised-{household.pk}"
            household.anonymised_at = now
            household.save(update_fields=["name", "contact", "card_number", "anonymised_at"])
            households += 1
    return Anonymised(loans=loans, households=households)
