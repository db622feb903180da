"""What is in each box, as a checklist, and the checks of copies at the desk.

A game's contents are items with a count (Villa Paletti: 1 base, 5 platforms, 20
columns, 1 seal, 1 hook), named in each language like the ESAR labels. A check records,
for one copy, who checked it and when, and how many of each item were found; a copy with
an item short becomes "incomplete" and shows what is missing until a check finds it whole.
"""

import re

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


class ContentItemManager(models.Manager):
    def get_by_natural_key(self, game_slug, order):
        return self.get(game__slug=game_slug, order=order)


class ContentItem(models.Model):
    """One kind of piece in a game's box, with how many of it there are."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="content_items", verbose_name=_("game")
    )
    name_fr = models.CharField(_("name (French)"), max_length=200)
    name_da = models.CharField(_("name (Danish)"), max_length=200, blank=True)
    name_pl = models.CharField(_("name (Polish)"), max_length=200, blank=True)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True)
    count = models.PositiveSmallIntegerField(
        _("count"), default=1, validators=[MinValueValidator(1)]
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    objects = ContentItemManager()

    class Meta:
        db_table = "games_contentitem"  # the table it had in the catalogue's app
        ordering = ["game", "order", "id"]
        verbose_name = _("content item")
        verbose_name_plural = _("content items")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(count__gte=1), name="contentitem_count_positive"
            ),
            models.UniqueConstraint(fields=["game", "order"], name="contentitem_one_per_place"),
        ]

    def __str__(self):
        return f"{self.count} {self.name}"

    def natural_key(self):
        return (self.game.slug, self.order)

    natural_key.dependencies = ["games.game"]

    @property
    def name(self):
        """The name in the active language, falling back to French (the record's)."""
        language = (get_language() or settings.RECORD_LANGUAGE).split("-")[0]
        return getattr(self, f"name_{language}", "") or self.name_fr


class CopyCheck(models.Model):
    """One check of a copy at the desk: who, when, and whether it was whole."""

    copy = models.ForeignKey(
        "lending.Copy", on_delete=models.CASCADE, related_name="checks", verbose_name=_("copy")
    )
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        verbose_name=_("checked by"),
        related_name="copy_checks",
    )
    checked_at = models.DateTimeField(_("checked"), auto_now_add=True)
    complete = models.BooleanField(_("complete"))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        db_table = "games_copycheck"
        ordering = ["-checked_at", "-id"]
        verbose_name = _("check of a copy")
        verbose_name_plural = _("checks of copies")

    def __str__(self):
        return f"{self.copy.barcode} {self.checked_at:%Y-%m-%d %H:%M}"

    def missing(self):
        return [line for line in self.lines.all() if line.found < line.expected]


class CopyCheckLine(models.Model):
    copy_check = models.ForeignKey(CopyCheck, on_delete=models.CASCADE, related_name="lines")
    item = models.ForeignKey(
        ContentItem, on_delete=models.CASCADE, related_name="+", verbose_name=_("item")
    )
    expected = models.PositiveSmallIntegerField(_("expected"))
    found = models.PositiveSmallIntegerField(_("found"))

    class Meta:
        db_table = "games_copycheckline"
        ordering = ["item__order", "item_id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(found__lte=models.F("expected")),
                name="checkline_found_le_expected",
            )
        ]

    def __str__(self):
        return f"{self.found}/{self.expected} {self.item.name}"

    @property
    def missing_count(self):
        return self.expected - self.found


# "1 base, 5 plateaux en bois (bleu, vert…), 20 colonnes…": a count, then the item's
# name up to the next comma outside parentheses. The rules booklet is not a piece.
_ITEM = re.compile(r"^\s*(\d+)\s+(.+?)\s*$", re.DOTALL)
NOT_A_PIECE = re.compile(r"^r[eè]gle", re.IGNORECASE)


def parse_contents(text: str) -> list[tuple[int, str]]:
    """(count, name) for each counted item of a record's "Contenu"."""
    parts, depth, current = [], 0, ""
    for char in (text or "").split("\n\n")[0]:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char in ",." and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    items = []
    for part in parts:
        match = _ITEM.match(part.replace("Contenu:", "").replace("Contenu :", ""))
        if match and not NOT_A_PIECE.match(match[2]) and int(match[1]) > 0:
            name = re.sub(r"\s*\(.*?\)\s*", " ", match[2]).strip()
            items.append((min(int(match[1]), 32767), name[:200]))
    return items
