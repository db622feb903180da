"""A tournament afternoon as the database keeps it: players, rounds, tables, seats, byes.

A round's tables and seats are written when the round starts and never moved after (see
seating.py); a table's result is entered by one player at it, confirmed by another, and
corrected only by staff, every change kept by django-reversion (docs/tournament.md). What
differs from game to game (options, seats, the result's form) is the game's table rules
(tables.py); each seat's place, whatever the game, is what the standings read.
"""

import random
import secrets
from datetime import time

import reversion
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import tables
from .standings import DEFAULT_BYE_POINTS, DEFAULT_POINTS, check_points_table

MAX_ROUNDS = 8
MAX_PLAYERS = 64
# The invitation's afternoon (a Villa Paletti tournament, among the seeds): meet at 15:00,
# rules agreed first, play from 15:30, over around 17:00. 90 minutes of play: three rounds
# of 25 minutes and 5 to change tables (the catalogue's record gives Villa Paletti 30
# minutes; the Danish text 20 to 30).
DEFAULT_ROUNDS = 3
DEFAULT_ROUND_MINUTES = 25


def public_code() -> str:
    """The tournament's code in its public links (join, screen, standings)."""
    return secrets.token_urlsafe(6)


def personal_token() -> str:
    """A player's personal code: whoever holds the link acts as that player."""
    return secrets.token_urlsafe(18)


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def default_points() -> dict:
    return {str(size): list(points) for size, points in DEFAULT_POINTS.items()}


class TableSize(models.IntegerChoices):
    FOUR = 4, _("4 players (3 when the numbers need it)")
    THREE = 3, _("3 players")
    TWO = 2, _("2 players")


class TournamentQuerySet(models.QuerySet):
    def upcoming_first(self):
        return self.order_by("-date", "-id")


class Tournament(models.Model):
    """An afternoon's tournament of one game of the catalogue."""

    game = models.ForeignKey(
        "games.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="+"
    )
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    meets_at = models.TimeField(_("players meet at"), default=time(15, 0))
    plays_from = models.TimeField(_("play starts at"), default=time(15, 30))
    ends_around = models.TimeField(_("over around"), default=time(17, 0))
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        default=DEFAULT_ROUNDS,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes a round"),
        default=DEFAULT_ROUND_MINUTES,
        validators=[MinValueValidator(5), MaxValueValidator(180)],
    )
    table_size = models.PositiveSmallIntegerField(
        _("table size"), choices=TableSize.choices, default=TableSize.FOUR
    )
    final_table = models.BooleanField(
        _("a final table after the rounds"),
        default=False,
        help_text=_(
            "The leaders of the standings play one more table; its result decides the "
            "first places. Four games in 90 minutes leave about 20 minutes a game."
        ),
    )
    pairs_when_needed = models.BooleanField(
        _("tables of two when the numbers need one"),
        default=True,
        help_text=_("Otherwise the lowest-ranked player sits the round out (a bye)."),
    )
    rule_options = models.JSONField(_("rules agreed"), default=dict, blank=True)
    placement_points = models.JSONField(_("placement points"), default=default_points)
    bye_points = models.PositiveSmallIntegerField(
        _("points for a round sat out"),
        default=DEFAULT_BYE_POINTS,
        validators=[MaxValueValidator(99)],
    )
    seed = models.PositiveBigIntegerField(_("seed"), default=new_seed)
    code = models.CharField(_("public code"), max_length=16, unique=True, default=public_code)
    registration_open = models.BooleanField(_("registration open"), default=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Counts the changes the big screen or a phone shows (services.changed): what the
    # tournament's event stream sends as each event's id; `phones_version` counts those a
    # player's page shows (not a move in a table's match), so that phones ask only then.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    phones_version = models.PositiveIntegerField(
        _("version shown on the phones"), default=0, editable=False
    )

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=MAX_ROUNDS), name="tournament_rounds_range"
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=5, round_minutes__lte=180),
                name="tournament_round_minutes_range",
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=[2, 3, 4]), name="tournament_table_size_2_to_4"
            ),
            models.CheckConstraint(
                condition=Q(bye_points__lte=99), name="tournament_bye_points_at_most_99"
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.date})"

    def save(self, *args, **kwargs):
        # The options not named are at their defaults (the game's reference reading).
        rules = self.table_rules
        if rules.options and isinstance(self.rule_options, dict):
            self.rule_options = rules.with_defaults(self.rule_options)
        if not self._state.adding and kwargs.get("update_fields") is None and not args:
            # Only services.changed moves the version: a form or the admin saving a copy
            # read earlier must not put it back (a stream would then miss a change).
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in ("version", "phones_version")
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("tournament:desk", kwargs={"pk": self.pk})

    def clean(self):
        errors = {}
        try:
            self.points_table()
        except ValueError as error:
            errors["placement_points"] = str(error)
        if self.game_id is not None:
            try:
                self.rule_options = self.table_rules.clean_options(self.rule_options)
            except ValueError as error:
                errors["rule_options"] = str(error)
            errors.update(self._table_size_errors())
        if errors:
            raise ValidationError(errors)

    def points_table(self) -> dict[int, tuple[int, ...]]:
        """The placement points for tables of 2, 3 and 4, checked; ValueError if wrong."""
        if not isinstance(self.placement_points, dict):
            raise ValueError("Placement points are a value per place for each table size.")
        table = {}
        for size in (2, 3, 4):
            points = self.placement_points.get(str(size))
            if not isinstance(points, list):
                raise ValueError(f"Placement points for a table of {size} are missing.")
            check_points_table(points, size)
            table[size] = tuple(points)
        return table

    def _table_size_errors(self) -> dict:
        """The tables this tournament may seat must be tables the game can be played at:
        no larger than its most players, no smaller than its fewest."""
        game, errors = self.game, {}
        if self.table_size and self.table_size > game.max_players:
            errors["table_size"] = _("%(game)s is for at most %(count)d players.") % {
                "game": game.title,
                "count": game.max_players,
            }
        # The numbers may need tables one smaller than the size chosen, or of two.
        smallest = 2 if self.table_size == 2 else 3
        field = None
        if smallest < game.min_players:
            field = "table_size"
        elif self.pairs_when_needed and game.min_players > 2:
            field = "pairs_when_needed"
        if field and "table_size" not in errors:
            errors[field] = _("%(game)s needs at least %(count)d players at a table.") % {
                "game": game.title,
                "count": game.min_players,
            }
        return errors

    @property
    def table_rules(self) -> tables.TableRules:
        """What this tournament's game supplies: options, seats, its result's form."""
        return tables.rules_for(self.game.slug)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class Player(models.Model):
    """Somebody taking part, with their age (a game's rules may seat by age: Villa
    Paletti's youngest throws the colours first) and a personal code for their phone."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="players"
    )
    name = models.CharField(_("name"), max_length=40)
    age = models.PositiveSmallIntegerField(
        _("age"), validators=[MinValueValidator(3), MaxValueValidator(120)]
    )
    token = models.CharField(
        _("personal code"), max_length=40, unique=True, default=personal_token, editable=False
    )
    present = models.BooleanField(
        _("present"),
        default=True,
        help_text=_("Seated in the next rounds. Untick for a player who has left."),
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        ordering = ["registered_at", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                "tournament", Lower("name"), name="tournament_player_name_unique"
            ),
            models.CheckConstraint(
                condition=Q(age__gte=3, age__lte=120), name="tournament_player_age_range"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament:player", kwargs={"token": self.token})


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    # The final table, after the rounds: the leaders only, its result deciding the first
    # places (selectors.standings).
    final = models.BooleanField(_("final table"), default=False)
    started_at = models.DateTimeField(_("started"))
    ends_at = models.DateTimeField(_("time up at"))

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament.name}, {self.number}"


class ResultStatus(models.TextChoices):
    OPEN = "open", _("being played")
    PENDING = "pending", _("waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed")


@reversion.register(follow=["seats"])
class Table(models.Model):
    """One game of a round, and its result."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    # As the game's table rules seat it: a colour nobody plays (Villa Paletti at three),
    # and the seat that begins, where the rules name one.
    neutral = models.CharField(_("neutral colour"), max_length=10, blank=True)
    first_position = models.PositiveSmallIntegerField(_("seat that begins"), null=True)
    status = models.CharField(
        _("result"), max_length=10, choices=ResultStatus.choices, default=ResultStatus.OPEN
    )
    # Played as a match on the site, each player on their own device (the game's table
    # rules set it up): its result is recorded when the match ends, not entered by hand.
    digital = models.BooleanField(_("played on the site"), default=False)
    # The player placed first alone (none when several share first place), and the one
    # whose fall ended the game, for the games whose rules ask it (Villa Paletti's).
    winner = models.ForeignKey(
        "Seat", verbose_name=_("winner"), null=True, on_delete=models.RESTRICT, related_name="+"
    )
    brought_down = models.ForeignKey(
        "Seat",
        verbose_name=_("whose fall ended the game"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
    )
    # Each entry of a result counts one up: a confirmation names the entry it confirms.
    entry = models.PositiveIntegerField(_("entry"), default=0)
    entered_by = models.ForeignKey(
        "Seat", verbose_name=_("entered by"), null=True, on_delete=models.RESTRICT, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered"), null=True)
    confirmed_by = models.ForeignKey(
        "Seat",
        verbose_name=_("confirmed by"),
        null=True,
        on_delete=models.RESTRICT,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("corrected by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    corrected_at = models.DateTimeField(_("corrected"), null=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(brought_down__isnull=True) | ~Q(brought_down=models.F("winner")),
                name="table_winner_did_not_end_it_by_a_fall",
            ),
        ]

    def __str__(self):
        return f"{self.round}, {self.number}"

    @property
    def seating_seed(self) -> str:
        """The seed this table's seats were drawn with (services.start_round): a game's
        rules draw from it again to set up the same table on the site."""
        return f"{self.round.tournament.seed}:{self.round.number}:{self.number}"


@reversion.register()
class Seat(models.Model):
    """A player's seat at a table (positions clockwise, as the game's rules seat them),
    and their part of its result: their place and, where the game counts them, their
    game points."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    # The table's round again, so that the database itself refuses a player twice a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.RESTRICT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    colours = models.JSONField(_("colours"), default=list, blank=True)
    points = models.PositiveSmallIntegerField(_("game points"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_a_round"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=4), name="seat_position_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=4),
                name="seat_place_1_to_4",
            ),
        ]

    def __str__(self):
        return f"{self.player} ({self.table})"


class Bye(models.Model):
    """A round a present player sat out because the numbers left no seat."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="byes")

    class Meta:
        verbose_name = _("round sat out")
        verbose_name_plural = _("rounds sat out")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="bye_player_once_a_round"),
        ]

    def __str__(self):
        return f"{self.player} ({self.round})"
