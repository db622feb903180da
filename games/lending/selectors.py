"""What the catalogue reads of lending: which games have a copy on the shelf now, and what
a public record says of its copies. The catalogue imports this module, nothing else of
lending's."""

from django.db.models import Count, Exists, OuterRef, Q

from .copies import Copy, CopyStatus


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
    shelf now, and for each incomplete copy what its last check found missing."""
    counts = game.copies.aggregate(
        total=Count("pk", filter=~Q(status=CopyStatus.WITHDRAWN)),
        on_shelf=Count("pk", filter=Q(status=CopyStatus.AVAILABLE)),
    )
    counts["incomplete"] = [
        (copy.barcode, missing_text(latest_missing(copy)))
        for copy in game.copies.filter(status=CopyStatus.INCOMPLETE)
    ]
    return counts
