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
