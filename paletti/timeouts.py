"""What the others may do when a seat runs out of time (Board Game Arena's choice, never
made silently): skip its turn (the engine's skip: rules/skips.py) or hand the seat to a
careful bot for the rest of the match. Each is written in the match's log: the skip as an
action, and both as clock events, so a replay tells them at the same point."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from . import engine, services, timing
from .messages import REFUSALS
from .models import BotLevel, ClockEventKind, Match, SeatDevice, SeatKind
from .seats import SPECTATING, Refused, Viewer

SKIP = "skip"
HAND_OVER = "bot"
CHOICES = (SKIP, HAND_OVER)

OWN_SEAT = _(
    "Only the other players, or the organiser's device, may skip %(name)s's turn or hand "
    "it to a bot."
)
# Why nothing was done (409), by code: the match is unchanged.
REASONS = {
    "no_clock": _("This match is played without a clock."),
    "not_out_of_time": _("Nobody is out of time: the seat to act still has time left."),
    "no_skip": REFUSALS["no_skip"],
}


class NotOutOfTime(services.MatchError):
    """A choice the clock does not allow now (409); `reason` translated."""

    def __init__(self, code: str):
        super().__init__(code, REASONS[code])


def _chooser(viewer: Viewer) -> str:
    if viewer.organiser:
        return "organiser"
    return ",".join(str(seat) for seat in sorted(viewer.seats))


def _check(match: Match, version: int, viewer: Viewer) -> int:
    """The seat out of time this viewer may act about; else Refused (403) or a
    MatchError (409: stale, no clock, nobody out of time)."""
    if version != match.version:
        raise services.StaleVersion(match.version)
    if timing.clock_of(match) is None:
        raise NotOutOfTime("no_clock")
    seat = timing.out_of_time_seat(match)
    if seat is None or match.status != "playing":
        raise NotOutOfTime("not_out_of_time")
    if not timing.may_choose(viewer, seat):
        if not viewer.seats:
            raise Refused(403, "spectator", SPECTATING)
        name = services.seats_of(match)[seat].name
        raise Refused(403, "own_seat", OWN_SEAT % {"name": name})
    return seat


def skip_turn(*, match: Match, version: int, viewer: Viewer, meter=None) -> services.Outcome:
    """Skip the turn of the seat out of time, then let the bots who follow play."""
    seat = _check(match, version, viewer)
    timing.record(match, ClockEventKind.OUT_OF_TIME, seat, version)
    if engine.skip_kind(services.load_state(match).rules) is None:
        raise NotOutOfTime("no_skip")
    kwargs = {"meter": meter} if meter else {}
    outcome = services.play(
        match=match, version=version, action={"type": "skip"}, by_clock=True, **kwargs
    )
    timing.record(match, ClockEventKind.SKIPPED, seat, version + 1, by=_chooser(viewer))
    return outcome


def hand_to_bot(*, match: Match, version: int, viewer: Viewer, meter=None) -> services.Outcome:
    """The seat out of time becomes a careful bot from now on (its link stops working),
    and plays at once. The seat's change, its clock event and the bot's turns are stored
    together: if the bot cannot play now (the engine's limit, another request first),
    nothing is changed."""
    seat = _check(match, version, viewer)
    timing.record(match, ClockEventKind.OUT_OF_TIME, seat, version)
    row = services.seats_of(match)[seat]  # the match's own row: the engine sees the bot
    row.kind, row.level = SeatKind.BOT, BotLevel.CAREFUL
    row.device, row.key_digest = SeatDevice.SHARED, ""
    kwargs = {"meter": meter} if meter else {}
    with transaction.atomic():
        if not Match.objects.select_for_update().filter(pk=match.pk, version=version).exists():
            raise services.StaleVersion(match.version)
        row.save(update_fields=["kind", "level", "device", "key_digest"])
        timing.record(match, ClockEventKind.HANDED_TO_BOT, seat, version, by=_chooser(viewer))
        return services.let_bots_play(match=match, **kwargs)
