"""Writes about copies: a check at the desk, and the contents checklist from a record
(what the UNIMARC import calls when it creates a game)."""

import datetime
from collections import defaultdict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .checklist import ContentItem, CopyCheck, CopyCheckLine, parse_contents
from .copies import Copy, CopyStatus
from .holds import Hold, HoldOutcome
from .ledger import charge_bonds, refund_bonds
from .loans import Loan, MissingPiece

__all__ = [
    "CheckRefused",
    "checklist_from_contents",
    "end_hold",
    "lock_copy",
    "next_opening_day",
    "parse_contents",
    "record_check",
    "set_aside",
]


class CheckRefused(ValueError):
    pass


@transaction.atomic
def record_check(
    *,
    copy: Copy,
    found: dict[int, int],
    user,
    note: str = "",
    loan: Loan | None = None,
    minor: bool = False,
) -> CopyCheck:
    """Record what a check of ``copy`` found (item id → how many). An item short makes the
    copy "incomplete"; a check that finds everything puts it back on the shelf and clears
    the pieces once missing. ``found`` must count every item of the game, each between 0
    and its count.

    ``loan``: the check is that loan's return, so what is short beyond the pieces already
    known missing went missing in it; ``minor`` marks those pieces as minor (the copy stays
    lendable without them). The copy's row is locked first, so two checks of one copy (or a
    check and a loan) follow one another and its status is always its latest check's."""
    copy = lock_copy(copy)
    items = list(copy.game.content_items.all())
    if set(found) != {item.pk for item in items}:
        raise CheckRefused("every item of the game is counted, and only those")
    lines = []
    for item in items:
        count = found[item.pk]
        if not 0 <= count <= item.count:
            raise CheckRefused(f"{item.name_fr}: {count} is not between 0 and {item.count}")
        lines.append(CopyCheckLine(item=item, expected=item.count, found=count))
    complete = all(line.found == line.expected for line in lines)
    check = CopyCheck.objects.create(
        copy=copy, checked_by=user, complete=complete, note=note.strip()[:2000]
    )
    for line in lines:
        line.copy_check = check
    CopyCheckLine.objects.bulk_create(lines)
    short = {line.item_id: line.missing_count for line in lines}
    outstanding = MissingPiece.objects.outstanding().filter(loan__copy=copy)
    # An item found whole again: the pieces once missing from it are found.
    found_again = outstanding.filter(item_id__in=[pk for pk, n in short.items() if n == 0])
    found_ids = list(found_again.values_list("pk", flat=True))
    found_again.update(found_at=timezone.now())
    refund_bonds(found_ids)  # found: the household's bond comes back
    if loan is not None:
        known = defaultdict(int)
        for piece in outstanding.filter(item_id__in=list(short)):
            known[piece.item_id] += piece.count
        charge_bonds(
            MissingPiece.objects.bulk_create(
                MissingPiece(loan=loan, item_id=pk, count=n - known[pk], minor=minor)
                for pk, n in short.items()
                if n > known[pk]
            )
        )
    excused = defaultdict(int)
    for piece in outstanding.filter(minor=True):
        excused[piece.item_id] += piece.count
    lendable = all(n <= excused[pk] for pk, n in short.items())
    _set_status(copy, CopyStatus.AVAILABLE if lendable else CopyStatus.INCOMPLETE)
    return check


def lock_copy(copy: Copy) -> Copy:
    """The copy's row, read afresh and locked until the transaction ends (PostgreSQL;
    SQLite writes one transaction at a time anyway)."""
    return Copy.objects.select_for_update(of=("self",)).select_related("game").get(pk=copy.pk)


def _set_status(copy: Copy, status: str) -> None:
    """The copy's status after a check, a return or a hold's end: on loan while a loan is
    open; in repair and withdrawn stay as staff set them; a lendable copy goes to the first
    hold waiting for its game, if any. Only the status is written, so an admin edit of the
    same copy keeps its other fields."""
    if copy.loans.open().exists():
        status = CopyStatus.ON_LOAN
    elif copy.status in (CopyStatus.IN_REPAIR, CopyStatus.WITHDRAWN):
        return
    elif status == CopyStatus.AVAILABLE:
        if copy.holds.active().exists() or set_aside(copy):
            status = CopyStatus.SET_ASIDE
    else:  # incomplete: the hold it was set aside for waits again
        copy.holds.active().update(copy=None, ready_until=None)
    if copy.status != status:
        copy.status = status
        copy.save(update_fields=["status"])


def set_aside(copy: Copy, now=None) -> Hold | None:
    """Set ``copy`` (locked, lendable) aside for the first hold waiting for its game, for
    ``LENDING_HOLD_DAYS`` (to an opening day); None when no one waits."""
    hold = (
        Hold.objects.queue(copy.game_id)
        .filter(copy__isnull=True)
        .select_for_update(of=("self",))
        .first()
    )
    if hold is None:
        return None
    today = timezone.localdate(now)
    hold.copy = copy
    hold.ready_until = next_opening_day(today + datetime.timedelta(days=settings.LENDING_HOLD_DAYS))
    hold.save(update_fields=["copy", "ready_until"])
    return hold


def end_hold(hold: Hold, outcome: str, now=None) -> None:
    """End ``hold``; a copy set aside for it goes to the next hold, or back to the shelf.
    The caller holds the copy's lock."""
    copy = hold.copy
    hold.ended_at = now or timezone.now()
    hold.outcome = outcome
    hold.save(update_fields=["ended_at", "outcome"])
    if copy is not None and outcome != HoldOutcome.BORROWED:
        _set_status(copy, CopyStatus.AVAILABLE)


def next_opening_day(day: datetime.date) -> datetime.date:
    """``day``, or the next day the desk is open (``LENDING_OPENING_WEEKDAYS``; none set:
    any day)."""
    opening = {weekday for weekday in settings.LENDING_OPENING_WEEKDAYS if 0 <= weekday <= 6}
    while opening and day.weekday() not in opening:
        day += datetime.timedelta(days=1)
    return day


TRANSLATED_NAMES = ("name_da", "name_pl", "name_pl_many", "name_en")


def known_translations(french_names) -> dict[str, dict[str, str]]:
    """What other checklists already call these French names in the other languages
    ("tuiles": brikker, kafelki, tiles), the latest first: a new checklist then reads in the
    staff's language wherever a name has been translated once."""
    known = {}
    items = (
        ContentItem.objects.filter(name_fr__in=set(french_names))
        .exclude(name_da="", name_pl="", name_en="")
        .order_by("-pk")
    )
    for item in items:
        known.setdefault(item.name_fr, {field: getattr(item, field) for field in TRANSLATED_NAMES})
    return known


def checklist_from_contents(*, game, new: bool = False) -> list[ContentItem]:
    """The game's checklist made from its record's contents text, if it has none yet
    (names in French, the record's language, and in the other languages where another
    checklist already translates the same name; staff translate the rest in the admin).
    ``new``: the game was just created, so it has none."""
    if not new and game.content_items.exists():
        return []
    parsed = parse_contents(game.contents)
    known = known_translations(name for _count, name in parsed)
    items = [
        ContentItem(game=game, name_fr=name, count=count, order=order, **known.get(name, {}))
        for order, (count, name) in enumerate(parsed)
    ]
    return ContentItem.objects.bulk_create(items)
