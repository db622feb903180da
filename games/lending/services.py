"""Writes about copies: a check at the desk, and the contents checklist from a record
(what the UNIMARC import calls when it creates a game)."""

from django.db import transaction

from .checklist import ContentItem, CopyCheck, CopyCheckLine, parse_contents
from .copies import Copy, CopyStatus

__all__ = ["CheckRefused", "checklist_from_contents", "parse_contents", "record_check"]


class CheckRefused(ValueError):
    pass


@transaction.atomic
def record_check(*, copy: Copy, found: dict[int, int], user, note: str = "") -> CopyCheck:
    """Record what a check of ``copy`` found (item id → how many). An item short makes the
    copy "incomplete"; a check that finds everything puts an incomplete copy back on the
    shelf. ``found`` must count every item of the game, each between 0 and its count."""
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
    if not complete and copy.status != CopyStatus.INCOMPLETE:
        copy.status = CopyStatus.INCOMPLETE
        copy.save()
    elif complete and copy.status == CopyStatus.INCOMPLETE:
        copy.status = CopyStatus.AVAILABLE
        copy.save()
    return check


def checklist_from_contents(*, game, new: bool = False) -> list[ContentItem]:
    """The game's checklist made from its record's contents text, if it has none yet
    (names in French, the record's language; staff translate them in the admin).
    ``new``: the game was just created, so it has none."""
    if not new and game.content_items.exists():
        return []
    items = [
        ContentItem(game=game, name_fr=name, count=count, order=order)
        for order, (count, name) in enumerate(parse_contents(game.contents))
    ]
    return ContentItem.objects.bulk_create(items)
