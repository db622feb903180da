"""Matches in the database around the engine: create, play an action, let bots answer.

Every action starts from the stored snapshot and ends by storing a new one with the
version it was chosen at as a condition, so two posts for the same turn apply once.
"""

import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from . import engine, store
from .models import Match, MatchAction, MatchStatus, Seat, SeatKind

# A safety net, far above any real sequence of bot turns between two human turns.
MAX_BOT_ACTIONS = 400


class MatchError(Exception):
    """A request the match cannot take; `code` names the reason for the web layer."""

    def __init__(self, code: str, reason: str, **params):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params


class StaleVersion(MatchError):
    def __init__(self, current: int):
        super().__init__("stale_version", "The match has moved on.", current=current)
        self.current = current


@dataclass
class Outcome:
    match: Match
    state: engine.State
    frames: list = field(default_factory=list)
    events: list = field(default_factory=list)
    steps: list = field(default_factory=list)


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = SeatKind.HUMAN
    level: str = ""


def create_match(*, seats: list[SeatSpec], options: dict | None = None, seed: int | None = None):
    """A new match with its seats; bots who act first play at once."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**62)
    state = engine.new_match(seed, [s.name for s in seats], options or {})
    snapshot, digest = engine.snapshot_and_hash(state)
    with transaction.atomic():
        match = Match.objects.create(
            seed=seed, options=state.rules["options"], snapshot=snapshot, state_hash=digest
        )
        Seat.objects.bulk_create(
            Seat(match=match, index=i, name=s.name, kind=s.kind, level=s.level)
            for i, s in enumerate(seats)
        )
    store.with_seats(match)
    if not _bot_to_act(match, state):
        return Outcome(match=match, state=state)
    turn = run_engine(match, state, None, version=0)
    _store(match, turn.state, turn.log, 0)
    return Outcome(
        match=match, state=turn.state, frames=turn.frames, events=turn.events, steps=turn.steps
    )


def get_match(match_id) -> Match:
    """A match with its seats. Raises Match.DoesNotExist for an unknown id."""
    return store.read_match(match_id)


def load_state(match: Match) -> engine.State:
    return engine.load(bytes(match.snapshot))


def play(*, match: Match, version: int, action: dict) -> Outcome:
    """Apply a person's action chosen at `version`, then every bot turn that follows.

    Raises StaleVersion when the match has moved on, engine.IllegalAction when the rules
    refuse the action (the match is then unchanged), MatchError for a bot's seat.
    """
    if version != match.version:
        raise StaleVersion(match.version)
    state = load_state(match)
    to_act = state.rules["to_act"]
    if to_act is not None and _seats(match)[to_act].kind == SeatKind.BOT:
        raise MatchError("bot_to_act", "A bot is to act, not a person.")
    turn = run_engine(match, state, action, version)
    _store(match, turn.state, turn.log, version)
    return Outcome(
        match=match, state=turn.state, frames=turn.frames, events=turn.events, steps=turn.steps
    )


@dataclass
class EngineTurn:
    state: engine.State
    frames: list
    events: list
    log: list  # (seat, action, by_bot) in order
    # One entry per action, in order: who acted and which frames and events are its own,
    # so that a page can tell the bots' actions one at a time.
    steps: list = field(default_factory=list)


def _step(state: engine.State, seat: int, action: dict, by_bot: bool, frames, events) -> dict:
    """An action of this request: the seat, the action's type (and column or colour), the
    slices [start, end) of the request's frames and events it produced."""
    step = {
        "seat": seat,
        "by_bot": by_bot,
        "type": action.get("type"),
        "frames": frames,
        "events": events,
    }
    for key in ("column", "colour"):
        if key in action:
            step[key] = action[key]
    if action.get("type") == "pass":
        # A seal holder who passes keeps the seal: a new platform restarts the count.
        step["held_seal"] = state.rules["seal"]["holder"] == seat
    return step


def run_engine(match: Match, state: engine.State, action: dict | None, version: int):
    """The engine's whole work for one request, without the database: the person's
    action (if any), then bots until a person must act. Deterministic: each bot decision
    draws from its own stream seeded by the match's seed and the action's number."""
    frames, events, log, steps = [], [], [], []
    if action is not None:
        result = engine.apply_action(state, action)
        frames, events = list(result.frames), list(result.events)
        seat = state.rules["to_act"]
        log.append((seat, dict(action), False))
        steps.append(_step(state, seat, action, False, [0, len(frames)], [0, len(events)]))
        state = result.state
    seats = _seats(match)
    offset = _end_time(frames)
    for _ in range(MAX_BOT_ACTIONS):
        if not _bot_to_act(match, state, seats):
            break
        seat = state.rules["to_act"]
        rng = random.Random(f"{match.seed}:bot:{version + len(log)}")  # noqa: S311
        bot_action = engine.choose_action(state, seats[seat].level, rng)
        result = engine.apply_action(state, bot_action)
        first_frame, first_event = len(frames), len(events)
        frames.extend(_shifted(result.frames, offset))
        offset = _end_time(frames)
        events.extend(result.events)
        log.append((seat, bot_action, True))
        steps.append(
            _step(
                state,
                seat,
                bot_action,
                True,
                [first_frame, len(frames)],
                [first_event, len(events)],
            )
        )
        state = result.state
    return EngineTurn(state=state, frames=frames, events=events, log=log, steps=steps)


def _store(match, state, log, version):
    finished = state.rules["phase"] == "over"
    data, digest = engine.snapshot_and_hash(state)
    fields = {
        "version": version + len(log),
        "snapshot": data,
        "state_hash": digest,
        "status": MatchStatus.FINISHED if finished else MatchStatus.PLAYING,
        "updated_at": timezone.now(),
    }
    entries = [
        MatchAction(match=match, number=version + i + 1, seat=seat, action=a, by_bot=bot)
        for i, (seat, a, bot) in enumerate(log)
    ]
    if not store.store_turn(match.pk, version, fields, entries):
        # Another post chosen at the same version got there first.
        current = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        raise StaleVersion(current)
    for name, value in fields.items():
        setattr(match, name, value)


def replay_match(match: Match) -> engine.State:
    """The match rebuilt from its seed, seats, options and log: must equal the snapshot."""
    names = [seat.name for seat in _seats(match)]
    log = list(match.actions.order_by("number").values_list("action", flat=True))
    return engine.replay(match.seed, names, match.options, log)


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in order, read once per request."""
    return _seats(match)


def _seats(match: Match) -> list[Seat]:
    return store.seats_of(match)


def _bot_to_act(match, state, seats=None) -> bool:
    seats = seats or _seats(match)
    to_act = state.rules["to_act"]
    return state.rules["phase"] != "over" and to_act is not None and seats[to_act].is_bot


def _end_time(frames: list) -> float:
    return frames[-1]["t"] if frames else 0.0


def _shifted(frames: list, offset: float) -> list:
    if not offset:
        return list(frames)
    return [{**frame, "t": round(frame["t"] + offset, 4)} for frame in frames]


@dataclass(frozen=True)
class Cleanup:
    abandoned: int
    finished: int


def remove_old_matches(
    *, idle: timedelta, finished_after: timedelta | None, dry_run: bool = False, batch: int = 500
) -> Cleanup:
    """Delete matches nobody plays any more: unfinished ones untouched for longer than
    `idle`, finished ones older than `finished_after` (None keeps them for ever). A match
    kept is kept whole: its seed, seats, options and action log are what its replay needs.
    Deletes in batches so that no statement runs into the database's statement timeout."""
    now = timezone.now()
    abandoned = Match.objects.filter(status=MatchStatus.PLAYING, updated_at__lt=now - idle)
    old = Match.objects.none()
    if finished_after is not None:
        old = Match.objects.filter(status=MatchStatus.FINISHED, updated_at__lt=now - finished_after)
    counts = {}
    for name, queryset in (("abandoned", abandoned), ("finished", old)):
        ids = list(queryset.values_list("pk", flat=True))
        counts[name] = len(ids)
        if not dry_run:
            for start in range(0, len(ids), batch):
                Match.objects.filter(pk__in=ids[start : start + batch]).delete()
    return Cleanup(**counts)
