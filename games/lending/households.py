"""Households (one membership, several members) and member types (how many games, for how
long). A household is who borrows: the card scanned at the desk is its number.

The member types' figures are each ludothèque's own; the defaults (4 games for 21 days) are
our estimate from ludothèques' published rules, which lend 3 to 6 games for 2 to 4 weeks.
"""

import datetime

from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DEFAULT_GAMES_QUOTA = 4  # our estimate: ludothèques' rules say 3 to 6 games
DEFAULT_LOAN_DAYS = 21  # our estimate: ludothèques' rules say 2 to 4 weeks


class MemberType(models.Model):
    """A kind of membership (family, school, association…): its quota and loan period."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    games_quota = models.PositiveSmallIntegerField(
        _("games at a time"), default=DEFAULT_GAMES_QUOTA, validators=[MinValueValidator(1)]
    )
    loan_days = models.PositiveSmallIntegerField(
        _("loan period (days)"), default=DEFAULT_LOAN_DAYS, validators=[MinValueValidator(1)]
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("member type")
        verbose_name_plural = _("member types")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games_quota__gte=1, loan_days__gte=1),
                name="membertype_quota_and_period_positive",
            )
        ]

    def __str__(self):
        return self.name


class HouseholdLanguage(models.TextChoices):
    FRENCH = "fr", "français"
    DANISH = "da", "dansk"
    POLISH = "pl", "polski"
    ENGLISH = "en", "English"


class Household(models.Model):
    """One membership: a card, a contact, the language to write to it in, its dates."""

    card_number = models.CharField(_("card number"), max_length=50, unique=True)
    name = models.CharField(_("name"), max_length=200)
    contact = models.TextField(_("contact"), blank=True, help_text=_("Address, phone, email."))
    email = models.EmailField(
        _("e-mail"),
        blank=True,
        help_text=_("Where reminders and the member's page link are sent. Empty: staff call."),
    )
    language = models.CharField(
        _("language"),
        max_length=2,
        choices=HouseholdLanguage.choices,
        default=HouseholdLanguage.FRENCH,
    )
    member_type = models.ForeignKey(
        MemberType,
        on_delete=models.PROTECT,
        related_name="households",
        verbose_name=_("member type"),
    )
    membership_start = models.DateField(_("membership start"), default=datetime.date.today)
    membership_end = models.DateField(_("membership end"))
    fee_paid = models.BooleanField(_("fee paid"), default=False)
    anonymised_at = models.DateTimeField(
        _("anonymised"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Its personal data removed after the retention period."),
    )

    class Meta:
        ordering = ["name", "card_number"]
        verbose_name = _("household")
        verbose_name_plural = _("households")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(card_number=""), name="household_card_not_empty"
            ),
            models.CheckConstraint(
                condition=models.Q(membership_end__gte=models.F("membership_start")),
                name="household_membership_ends_after_start",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.card_number})"

    def save(self, *args, **kwargs):
        self.card_number = self.card_number.strip()
        super().save(*args, **kwargs)

    def membership_current(self, on: datetime.date | None = None) -> bool:
        """Whether the membership runs on ``on`` (today): between its dates, fee paid."""
        on = on or timezone.localdate()
        return self.fee_paid and self.membership_start <= on <= self.membership_end


class Member(models.Model):
    """A person of a household. A child's age is kept for the statistics only."""

    household = models.ForeignKey(
        Household, on_delete=models.CASCADE, related_name="members", verbose_name=_("household")
    )
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    child_age = models.PositiveSmallIntegerField(
        _("child's age"),
        null=True,
        blank=True,
        help_text=_("For a child only, for the statistics."),
    )

    class Meta:
        ordering = ["household", "last_name", "first_name", "id"]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self):
        return f"{self.first_name} {self.last_name}".strip()
