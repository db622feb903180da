"""A match's turn clock in the database (the time bank's rules are paletti.clock): set up
with the match, moved on after every stored action, and shown to every viewer.

The server holds the deadlines. The clock of the seat to act starts when the answer that
handed it the turn is stored plus the time that answer's frames take to animate (bounded
by MAX_ANIMATION_MS), so the physics and the animation are never charged to a player. Only
persons have a clock. A seat out of time is noticed by whichever request reads the match
after its deadline, and written once in the match's clock events.
"""

import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from . import clock, engine
from .models import ClockEvent, ClockEventKind, Match, MatchClock, SeatKind
from .store import seats_of

# Ours: the longest animation waited for before a clock starts (a villa's fall runs a few
# seconds; an answer cannot hold a clock back for longer than this).
MAX_ANIMATION_MS = 20_000
# The clock events a state carries (the narration's latest lines; the log keeps them all).
SHOWN_EVENTS = 6


def now_ms() -> float:
    return time.time() * 1000


def animation_ms(frames: list) -> int:
    """How long an answer's frames take to play on a device (their last time), bounded."""
    if not frames:
        return 0
    return min(MAX_ANIMATION_MS, round(float(frames[-1].get("t", 0.0)) * 1000))


def _person_to_act(state: engine.State, seats) -> int | None:
    rules = state.rules
    if rules.phase == engine.Phase.OVER or rules.to_act is None:
        return None
    return rules.to_act if seats[rules.to_act].kind == SeatKind.HUMAN else None


def start(match: Match, preset_name: str, state: engine.State, frames: list):
    """The clock of a match just stored (None for "off"): every bank full, the clock of
    the person to act running from the end of the opening's animation. The name was
    checked by the request (the test-only preset included where the settings allow it)."""
    rules = clock.preset(preset_name, tiny_allowed=True)
    if rules is None:
        return None
    seats = seats_of(match)
    running = _person_to_act(state, seats)
    return MatchClock.objects.create(
        match=match,
        preset=preset_name,
        initial=rules.initial,
        increment=rules.increment,
        cap=rules.cap,
        banks=[rules.initial] * len(seats),
        running_seat=running,
        started_at=now_ms() + animation_ms(frames) if running is not None else None,
    )


def clock_of(match: Match) -> MatchClock | None:
    try:
        return match.clock
    except MatchClock.DoesNotExist:
        return None


def after_turn(match: Match, state: engine.State, frames: list, turn_ends: list[int]) -> None:
    """After an answer was stored (`state`: the match now; `turn_ends`: the seats whose
    turn ended in it, in order): the seat whose clock ran is charged the time it took, each
    seat whose turn ended gets its increment (capped), the clock of the person to act now
    starts when the answer's animation ends."""
    if clock_of(match) is None:
        return
    now = now_ms()
    with transaction.atomic():
        held = MatchClock.objects.select_for_update().get(pk=match.clock.pk)
        banks = list(held.banks)
        if held.running_seat is not None and held.started_at is not None:
            banks[held.running_seat] = clock.charge(banks[held.running_seat], held.started_at, now)
        rules = clock.Preset(held.initial, held.increment, held.cap)
        for seat in turn_ends:
            banks[seat] = clock.add_increment(banks[seat], rules)
        running = _person_to_act(state, seats_of(match))
        held.banks = banks
        held.running_seat = running
        held.started_at = now + animation_ms(frames) if running is not None else None
        held.save(update_fields=["banks", "running_seat", "started_at"])
    match.clock = held


def out_of_time_seat(match: Match, now: float | None = None) -> int | None:
    """The seat whose running bank is empty, if any."""
    held = clock_of(match)
    if held is None or held.running_seat is None:
        return None
    now = now_ms() if now is None else now
    bank = held.banks[held.running_seat]
    return held.running_seat if clock.out_of_time(bank, held.started_at, now) else None


def record(match: Match, kind: str, seat: int, version: int, by: str = "") -> None:
    """One clock event in the match's log, once per (version, kind, seat)."""
    try:
        with transaction.atomic():
            ClockEvent.objects.create(match=match, version=version, kind=kind, seat=seat, by=by)
    except IntegrityError:
        pass  # another request wrote it first


def event_text(event: ClockEvent, names: list[str]) -> str:
    name = names[event.seat] if 0 <= event.seat < len(names) else "?"
    if event.kind == ClockEventKind.OUT_OF_TIME:
        return _("%(name)s is out of time.") % {"name": name}
    if event.kind == ClockEventKind.SKIPPED:
        return _("%(name)s's turn was skipped: out of time.") % {"name": name}
    return _("%(name)s ran out of time: a careful bot plays that seat from now on.") % {
        "name": name
    }


@dataclass(frozen=True)
class Choices:
    """What a viewer may do about a seat out of time."""

    skip: bool
    hand_over: bool


def may_choose(viewer, seat: int) -> bool:
    """Whether this viewer may skip `seat`'s turn or hand it to a bot: the organiser, or
    a player of another seat; never a spectator, never the seat's own link alone."""
    return viewer.organiser or bool(viewer.seats - {seat})


def view(match: Match, state: engine.State, viewer) -> dict | None:
    """The clock as a viewer sees it (None when the match has none): each seat's bank as
    it stands now, the running one and its deadline, who is out of time, what this viewer
    may do about it, and the latest clock events in words. A seat found out of time is
    written in the log here, once."""
    held = clock_of(match)
    if held is None:
        return None
    now = now_ms()
    seats = seats_of(match)
    out = out_of_time_seat(match, now)
    if out is not None and state.rules.phase != engine.Phase.OVER:
        record(match, ClockEventKind.OUT_OF_TIME, out, match.version)
    else:
        out = None
    running = held.running_seat
    banks = [
        {
            "seat": seat.index,
            "clocked": seat.kind == SeatKind.HUMAN,
            "remaining_ms": clock.remaining(
                held.banks[seat.index], held.started_at if seat.index == running else None, now
            ),
            "running": seat.index == running,
        }
        for seat in seats
    ]
    chooses = out is not None and may_choose(viewer, out)
    names = [seat.name for seat in seats]
    events = list(match.clock_events.order_by("-version", "-at", "-pk")[:SHOWN_EVENTS])
    return {
        "preset": held.preset,
        "increment_ms": held.increment,
        "cap_ms": held.cap,
        "now": round(now),
        "running": running,
        "deadline": (
            round(clock.deadline(held.banks[running], held.started_at))
            if running is not None
            else None
        ),
        "banks": banks,
        "out_of_time": out,
        "may_skip": chooses and engine.skip_kind(state.rules) is not None,
        "may_hand_over": chooses,
        "events": [
            {"version": e.version, "kind": e.kind, "seat": e.seat, "text": event_text(e, names)}
            for e in reversed(events)
        ],
    }
