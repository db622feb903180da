"""Copies (exemplaires) of a game: the boxes on the shelves, each with its barcode."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class CopyStatus(models.TextChoices):
    AVAILABLE = "available", _("available")
    ON_LOAN = "on_loan", _("on loan")
    SET_ASIDE = "set_aside", _("set aside for a hold")
    IN_REPAIR = "in_repair", _("in repair")
    INCOMPLETE = "incomplete", _("incomplete")
    WITHDRAWN = "withdrawn", _("withdrawn")


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
    # The shelf's part of the collection ("Jeux de société", "Jeux d'adresse"), kept apart
    # from the location as PMB keeps them (its sections and locations), so they travel back.
    section = models.CharField(_("section"), max_length=100, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=CopyStatus.choices, default=CopyStatus.AVAILABLE
    )
    condition_note = models.TextField(_("condition note"), blank=True)
    acquired = models.DateField(_("date acquired"), null=True, blank=True)

    objects = CopyQuerySet.as_manager()

    class Meta:
        db_table = "games_copy"  # the table it had in the catalogue's app
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
