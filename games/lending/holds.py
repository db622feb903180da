"""Holds (reservations): a household waits for a title, in a queue per game. The first copy
that comes back is set aside for the first in the queue, who alone may borrow it for a set
number of days (``LENDING_HOLD_DAYS``); then it passes to the next, or back to the shelf."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class HoldOutcome(models.TextChoices):
    BORROWED = "borrowed", _("borrowed")
    EXPIRED = "expired", _("not collected in time")
    CANCELLED = "cancelled", _("cancelled")


class HoldQuerySet(models.QuerySet):
    def active(self):
        """Holds still waiting, or with a copy set aside."""
        return self.filter(ended_at__isnull=True)

    def queue(self, game):
        return self.active().filter(game=game).order_by("placed_at", "id")


class Hold(models.Model):
    """A household waiting for a game (any copy of it)."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="holds", verbose_name=_("game")
    )
    household = models.ForeignKey(
        "lending.Household",
        on_delete=models.CASCADE,
        related_name="holds",
        verbose_name=_("household"),
    )
    member = models.ForeignKey(
        "lending.Member",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="holds",
        verbose_name=_("reserved by"),
    )
    placed_at = models.DateTimeField(_("reserved"), default=timezone.now)
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reserved at the desk by"),
    )
    copy = models.ForeignKey(
        "lending.Copy",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="holds",
        verbose_name=_("copy set aside"),
    )
    ready_until = models.DateField(_("set aside until"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, choices=HoldOutcome.choices, blank=True)

    objects = HoldQuerySet.as_manager()

    class Meta:
        ordering = ["placed_at", "id"]
        verbose_name = _("hold")
        verbose_name_plural = _("holds")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "household"],
                condition=models.Q(ended_at__isnull=True),
                name="hold_one_active_per_household_and_game",
            ),
            models.UniqueConstraint(
                fields=["copy"],
                condition=models.Q(ended_at__isnull=True, copy__isnull=False),
                name="hold_copy_set_aside_once",
            ),
            models.CheckConstraint(
                condition=models.Q(ended_at__isnull=True, outcome="")
                | models.Q(ended_at__isnull=False) & ~models.Q(outcome=""),
                name="hold_outcome_when_ended",
            ),
        ]

    def __str__(self):
        return f"{self.game} ← {self.household.card_number}"
