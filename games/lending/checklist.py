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
from django.utils.translation import get_language, ngettext
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
    # Polish puts a noun after 5, 12 or 25 in another form than after 2, 3 or 4 (5 kolumn,
    # 3 kolumny): the name fields hold the form that goes with the item's own count, this
    # one the form for the counts that need the genitive plural.
    name_pl_many = models.CharField(
        _("name (Polish, after 5 or more)"),
        max_length=200,
        blank=True,
        help_text=_("The form after a count such as 5, 12 or 25: kolumn, kafelków, płytek."),
    )
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
        return self.counted_name

    def natural_key(self):
        return (self.game.slug, self.order)

    natural_key.dependencies = ["games.game"]

    @property
    def name(self):
        """The name in the active language, falling back to French (the record's)."""
        language = (get_language() or settings.RECORD_LANGUAGE).split("-")[0]
        return getattr(self, f"name_{language}", "") or self.name_fr

    @property
    def name_in_french_only(self) -> bool:
        """The active language has no name for it yet: the French one stands in."""
        language = (get_language() or settings.RECORD_LANGUAGE).split("-")[0]
        return language != "fr" and not getattr(self, f"name_{language}", "")

    @property
    def counted_name(self):
        """ "20 kolumn", "3 kolumny", "1 base": the count and the name in the form it takes."""
        language = (get_language() or settings.RECORD_LANGUAGE).split("-")[0]
        if language == "pl" and self.name_pl_many and polish_takes_genitive(self.count):
            return f"{self.count} {self.name_pl_many}"
        return f"{self.count} {self.name}"


def polish_takes_genitive(count: int) -> bool:
    """Polish numerals: 1 kolumna, 2–4 kolumny (and 22–24, 32–34…), but 5–21 and every
    number ending in 0, 1 or 5–9 from 25 on (and 12–14, 112–114…) take the genitive
    plural: 5 kolumn, 12 kolumn, 25 kolumn."""
    if count == 1:
        return False
    return not (2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14)


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
        verbose_name = _("line of a check")
        verbose_name_plural = _("lines of checks")
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

    @property
    def shortfall(self) -> str:
        """ "columns (1 of 20 missing)": the count is what is missing, not what was found."""
        missing = self.missing_count
        return ngettext(
            "%(name)s (%(missing)d of %(count)d missing)",
            "%(name)s (%(missing)d of %(count)d missing)",
            missing,
        ) % {"name": self.item.name, "missing": missing, "count": self.expected}


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
