"""The copies a public record shows: how many, how many on the shelf now."""

from django import template
from django.db.models import Count, Q

from games.copies import CopyStatus

register = template.Library()


@register.inclusion_tag("includes/copies_summary.html")
def copies_summary(game):
    from games.desk import missing_text
    from games.services_copies import latest_missing

    counts = game.copies.aggregate(
        total=Count("pk", filter=~Q(status=CopyStatus.WITHDRAWN)),
        on_shelf=Count("pk", filter=Q(status=CopyStatus.AVAILABLE)),
    )
    counts["incomplete"] = [
        (copy.barcode, missing_text(latest_missing(copy)))
        for copy in game.copies.filter(status=CopyStatus.INCOMPLETE)
    ]
    return counts
