"""What the catalogue reads of lending: which games have a copy on the shelf now, and what
a public record says of its copies. The catalogue imports this module, nothing else of
lending's."""

from django.db.models import Count, Exists, Min, OuterRef, Q
from django.utils import timezone

from .copies import Copy, CopyStatus
from .holds import Hold
from .loans import Loan


def available_games(queryset):
    """Games with at least one copy on the shelf now (a subquery, as ``in_language``)."""
    on_shelf = Copy.objects.filter(game_id=OuterRef("pk"), status=CopyStatus.AVAILABLE)
    return queryset.filter(Exists(on_shelf))


def latest_missing(copy: Copy) -> list:
    """What the latest check of an incomplete copy found short; nothing otherwise."""
    if copy.status != CopyStatus.INCOMPLETE:
        return []
    check = copy.checks.prefetch_related("lines__item").first()
    return check.missing() if check else []


def missing_text(lines) -> str:
    """ "columns (1 of 20 missing), hook (1 of 1 missing)": what a check found short."""
    return ", ".join(line.shortfall for line in lines)


def copies_on_record(game) -> dict:
    """What the public record says: copies (withdrawn ones not counted), how many on the
    shelf now, when none is, the day the first one on loan is due back (``back_by``; a
    date already past is not promised: ``back_soon``), and for each incomplete copy what
    its last check found missing, and how many households wait for it (holds)."""
    counts = game.copies.aggregate(
        total=Count("pk", filter=~Q(status=CopyStatus.WITHDRAWN)),
        on_shelf=Count("pk", filter=Q(status=CopyStatus.AVAILABLE)),
    )
    counts["back_by"] = counts["back_soon"] = None
    if counts["total"] and not counts["on_shelf"]:
        first_due = (
            Loan.objects.open().filter(copy__game=game).aggregate(first=Min("due_on"))["first"]
        )
        if first_due and first_due >= timezone.localdate():
            counts["back_by"] = first_due
        elif first_due:
            counts["back_soon"] = True
    counts["waiting"] = Hold.objects.active().filter(game=game).count()
    counts["incomplete"] = [
        (copy.barcode, missing_text(latest_missing(copy)))
        for copy in game.copies.filter(status=CopyStatus.INCOMPLETE)
    ]
    return counts


def household_loans(household):
    """The household's open loans, soonest due first, as the desk lists them."""
    return (
        Loan.objects.open()
        .filter(household=household)
        .select_related("copy__game", "member")
        .order_by("due_on", "copy__barcode")
    )


# The desk shows this many overdue loans at most (the count says how many in all).
OVERDUE_SHOWN = 50


def overdue_loans(on=None):
    """Loans not back by their due date, the longest overdue first, as the desk lists them."""
    return (
        Loan.objects.overdue(on)
        .select_related("copy__game", "household")
        .order_by("due_on", "household__name", "copy__barcode")
    )


def household_holds(household) -> list:
    """The household's holds still waiting or set aside, each with its place in its game's
    queue (``position``, 1 for the first)."""
    holds = list(
        Hold.objects.active()
        .filter(household=household)
        .select_related("game", "copy")
        .order_by("placed_at", "id")
    )
    for hold in holds:
        hold.position = (
            Hold.objects.queue(hold.game_id)
            .filter(Q(placed_at__lt=hold.placed_at) | Q(placed_at=hold.placed_at, id__lt=hold.id))
            .count()
            + 1
        )
    return holds
