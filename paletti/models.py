"""Villa Paletti matches as the database keeps them: the log is the history, the
snapshot the truth every action starts from (see docs/paletti.md)."""

import uuid

from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class MatchStatus(models.TextChoices):
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")


class SeatKind(models.TextChoices):
    HUMAN = "human", _("person")
    BOT = "bot", _("bot")


class SeatDevice(models.TextChoices):
    """Where a person plays from: the device that set the match up, shared around the
    table (as before seats had links), or their own, reached through their seat's link."""

    SHARED = "shared", _("the organiser's device")
    OWN = "own", _("their own device")


class BotLevel(models.TextChoices):
    EASY = "easy", _("easy")
    CAREFUL = "careful", _("careful")


class Match(models.Model):
    """One game of Villa Paletti. Its id is random so that nobody guesses another's match."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    seed = models.BigIntegerField(_("seed"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.PLAYING
    )
    # Bumped by every accepted action; a client posts the version it chose its action at.
    version = models.PositiveIntegerField(_("version"), default=0)
    snapshot = models.BinaryField(_("snapshot"))
    state_hash = models.CharField(_("state hash"), max_length=64)
    # SHA-256 digests of the match's secrets (paletti.seats): the organiser's, held by the
    # device that set it up, and the spectators' link. Empty organiser: a match stored
    # before seats had links, which whoever holds its id plays, as then.
    organiser_digest = models.CharField(_("organiser's key"), max_length=64, blank=True)
    spectator_digest = models.CharField(_("spectators' key"), max_length=64, blank=True)
    # Shown in the library's lobby (paletti.lobby), where anyone may watch it and replay it
    # once finished. Off unless the organiser ticks it: the players are often children
    # named on a screen in a public room, and a match stays private unless someone chose.
    listed = models.BooleanField(
        _("shown in the lobby"),
        default=False,
        help_text=_("Anyone in the library may watch it on the lobby's screen, and replay it."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self):
        return f"{self.id} ({self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("paletti:match", kwargs={"match_id": self.id})


class Seat(models.Model):
    """A place at the table: a person or a bot, with a name."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    name = models.CharField(_("name"), max_length=40)
    kind = models.CharField(_("kind"), max_length=10, choices=SeatKind.choices)
    level = models.CharField(_("bot level"), max_length=10, choices=BotLevel.choices, blank=True)
    device = models.CharField(
        _("plays on"), max_length=10, choices=SeatDevice.choices, default=SeatDevice.SHARED
    )
    # The SHA-256 digest of the seat's link secret (paletti.seats): a person on their own
    # device has one, a seat on the shared device none.
    key_digest = models.CharField(_("seat's key"), max_length=64, blank=True)

    class Meta:
        ordering = ["match", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.CheckConstraint(
                condition=Q(kind="human", level="") | Q(kind="bot", level__in=["easy", "careful"]),
                name="seat_bot_has_level",
            ),
            models.CheckConstraint(
                condition=Q(device="shared", key_digest="")
                | (Q(device="own", kind="human") & ~Q(key_digest="")),
                name="seat_own_device_has_key",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_bot(self):
        return self.kind == SeatKind.BOT

    @property
    def on_shared_device(self):
        """A person who plays on the organiser's device (not a bot, not a linked seat)."""
        return self.kind == SeatKind.HUMAN and self.device == SeatDevice.SHARED


class MatchAction(models.Model):
    """One accepted action, in order: replaying the log from the seed rebuilds the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    by_bot = models.BooleanField(_("played by a bot"), default=False)
    # What the action showed: its frames, its events and its step (who, what), so that a
    # device that follows the match from elsewhere animates and tells it too
    # (services.catch_up). Empty for actions stored before it was kept.
    told = models.JSONField(_("what it showed"), default=dict, blank=True)
    created_at = models.DateTimeField(_("played"), auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="matchaction_unique_number")
        ]

    def __str__(self):
        return f"{self.number}: {self.action.get('type')}"


class ThrottleEntry(models.Model):
    """One counted request of a client in a throttle's window (paletti.throttles), where
    no Redis counts them: a log, so that "at most N in any `duration` seconds" is exact."""

    key = models.CharField(max_length=200)
    at = models.FloatField()
    token = models.CharField(max_length=32, unique=True)

    class Meta:
        indexes = [models.Index(fields=["key", "at"])]

    def __str__(self):
        return f"{self.key} @ {self.at}"


class TournamentMatch(models.Model):
    """A tournament's table (games.tournament) played as this match, each player on
    their own device: the match's seat i is the table's seat i + 1. Its end records the
    table's result (paletti.tournament_match)."""

    table = models.OneToOneField(
        "tournament.Table", verbose_name=_("table"), on_delete=models.CASCADE, related_name="+"
    )
    # Deleting an old match (paletti_cleanup) forgets the link; the table's result stays.
    match = models.OneToOneField(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="tournament_table"
    )

    class Meta:
        verbose_name = _("tournament table's match")
        verbose_name_plural = _("tournament tables' matches")

    def __str__(self):
        return f"{self.table} → {self.match_id}"


class ClockPreset(models.TextChoices):
    """A match's turn clock (paletti.clock: the banks, increments and caps are ours)."""

    OFF = "off", _("no clock")
    RELAXED = "relaxed", _("relaxed: 5 min, +30 s a turn")
    QUICK = "quick", _("quick: 2 min, +15 s a turn")
    TINY = "tiny", _("tiny (tests only)")


class MatchClock(models.Model):
    """A match's time banks as they stand: each person's seat's bank (ms) and, for the seat
    whose clock runs, when it started (ms since the epoch; later than the action it
    follows by the time that action's frames take to animate). Figures copied from the
    preset, so a later change of a preset never alters a match under way."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="clock")
    preset = models.CharField(_("clock"), max_length=10, choices=ClockPreset.choices)
    initial = models.PositiveIntegerField(_("bank at the start (ms)"))
    increment = models.PositiveIntegerField(_("increment per turn (ms)"))
    cap = models.PositiveIntegerField(_("cap (ms)"))
    banks = models.JSONField(_("banks (ms)"), default=list)
    running_seat = models.PositiveSmallIntegerField(_("running for seat"), null=True, blank=True)
    started_at = models.FloatField(_("started at (ms)"), null=True, blank=True)

    class Meta:
        verbose_name = _("turn clock")
        verbose_name_plural = _("turn clocks")

    def __str__(self):
        return f"{self.match_id} ({self.preset})"


class ClockEventKind(models.TextChoices):
    OUT_OF_TIME = "out_of_time", _("out of time")
    SKIPPED = "skipped", _("turn skipped")
    HANDED_TO_BOT = "handed_to_bot", _("seat handed to a bot")


class ClockEvent(models.Model):
    """What the clock did to a seat, in the match's log: `version` is the match's version
    it happened at (a skip's is its own action's number; a seat handed to a bot, the
    version before the bot's first action), so a replay tells it at the same point."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="clock_events")
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("what"), max_length=20, choices=ClockEventKind.choices)
    seat = models.PositiveSmallIntegerField(_("seat"))
    # Who chose a skip or a hand-over: "organiser" or a seat's index; empty for out of time.
    by = models.CharField(_("chosen by"), max_length=20, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["match", "version", "at", "pk"]
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version", "kind", "seat"], name="clockevent_once_per_version"
            )
        ]

    def __str__(self):
        return f"{self.version}: {self.kind} ({self.seat})"
