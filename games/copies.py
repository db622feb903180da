"""Copies (exemplaires) of a game: the boxes on the shelves, each with its barcode."""

import re

from django.db import models
from django.utils.translation import gettext_lazy as _

from .text import fold


class CopyStatus(models.TextChoices):
    AVAILABLE = "available", _("available")
    ON_LOAN = "on_loan", _("on loan")
    IN_REPAIR = "in_repair", _("in repair")
    INCOMPLETE = "incomplete", _("incomplete")
    WITHDRAWN = "withdrawn", _("withdrawn")


# PMB's item statuses are each site's own labels; these words (folded) say which of ours
# a label means. Anything else is "available", with the label kept in the note.
PMB_STATUS_WORDS = [
    (r"repar", CopyStatus.IN_REPAIR),
    (r"incomplet|manqu", CopyStatus.INCOMPLETE),
    (r"pilon|perdu|retir|elimin|desherb|exclu", CopyStatus.WITHDRAWN),
    (r"\bpret\b|emprunt|sorti", CopyStatus.ON_LOAN),
    (r"disponible|bon etat|neuf|en rayon", CopyStatus.AVAILABLE),
]


def status_from_pmb(label: str, code: str = "") -> tuple[str, bool]:
    """(status, understood) for PMB's statut_libelle (or this site's own statut_code)."""
    if code in CopyStatus.values:
        return code, True
    folded = fold(label or "")
    for pattern, status in PMB_STATUS_WORDS:
        if re.search(pattern, folded):
            return status, True
    return CopyStatus.AVAILABLE, not folded


class CopyQuerySet(models.QuerySet):
    def on_the_shelf(self):
        return self.filter(status=CopyStatus.AVAILABLE)


class Copy(models.Model):
    """One copy of a game, as the ludothèque's desk knows it."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="copies", verbose_name=_("game")
    )
    barcode = models.CharField(_("barcode"), max_length=50, unique=True)
    call_number = models.CharField(_("call number"), max_length=50, blank=True)
    location = models.CharField(_("location"), max_length=100, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=CopyStatus.choices, default=CopyStatus.AVAILABLE
    )
    condition_note = models.TextField(_("condition note"), blank=True)
    acquired = models.DateField(_("date acquired"), null=True, blank=True)

    objects = CopyQuerySet.as_manager()

    class Meta:
        ordering = ["barcode"]
        verbose_name = _("copy")
        verbose_name_plural = _("copies")
        constraints = [
            models.CheckConstraint(condition=~models.Q(barcode=""), name="copy_barcode_not_empty"),
        ]

    def __str__(self):
        return f"{self.barcode} ({self.game})"

    def save(self, *args, **kwargs):
        self.barcode = self.barcode.strip()
        super().save(*args, **kwargs)


def available_games(queryset):
    """Games with at least one copy on the shelf now (a subquery, as ``in_language``)."""
    on_shelf = Copy.objects.filter(game_id=models.OuterRef("pk"), status=CopyStatus.AVAILABLE)
    return queryset.filter(models.Exists(on_shelf))
