"""Matches in the database around the engine: create, play an action, let bots answer.

Every action starts from the stored snapshot and ends by storing a new one with the
version it was chosen at as a condition, so two posts for the same turn apply once.
"""

import random
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from . import engine, live, store, timing
from .models import Match, MatchAction, MatchStatus, Seat, SeatDevice, SeatKind
from .seats import Secrets, digest, issue, new_secret
from .signals import match_moved, match_over

# A safety net, far above any real sequence of bot turns between two human turns.
MAX_BOT_ACTIONS = 400
# How far back a device that follows the match is shown what happened (catch_up): further
# behind, it is shown the state as it is, without the moves' animation.
CATCH_UP_ACTIONS = 40


def _no_meter(_match_id):
    return nullcontext()


class MatchError(Exception):
    """A request the match cannot take; `code` names the reason for the web layer."""

    def __init__(self, code: str, reason: str, **params):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params


class OutcomeUnknown(Exception):
    """The database stopped answering while a write was under way: it may have been
    stored or not. `match_id` says which match to read to find out."""

    def __init__(self, match_id):
        super().__init__(f"The outcome of the write to match {match_id} is unknown.")
        self.match_id = match_id


class MatchGone(MatchError):
    """The match was deleted (by the cleanup, or staff) while this request played."""

    def __init__(self):
        super().__init__("match_gone", "The match no longer exists.")


class StaleVersion(MatchError):
    def __init__(self, current: int):
        super().__init__("stale_version", "The match has moved on.", current=current)
        self.current = current


class NotYourSeat(MatchError):
    """The seat to act is not one the requester may act for; nothing was applied."""

    def __init__(self, seat: int):
        super().__init__("not_your_seat", "Another seat is to act.", seat=seat)
        self.seat = seat


@dataclass
class Outcome:
    match: Match
    state: engine.State
    frames: list = field(default_factory=list)
    events: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    # A new match whose bots played first: the state before their actions, which the
    # frames start from.
    opening: engine.State | None = None
    # A new match's secrets in clear (seats.Secrets), to hand to its organiser once.
    secrets: Secrets | None = None


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = SeatKind.HUMAN
    level: str = ""
    # A person plays on the organiser's device (shared) or on their own (a link).
    device: str = SeatDevice.SHARED


def create_match(
    *,
    seats: list[SeatSpec],
    options: dict | None = None,
    seed: int | None = None,
    listed: bool = False,
    meter=_no_meter,
    clock: str = "off",
):
    """A new match with its seats and secrets (`Outcome.secrets`, paletti.seats: the
    organiser's, the spectators' and one per person on their own device); bots who act
    first play at once (within `meter(match_id)`).

    The bots' first turns are played before anything is written, and the match, its seats
    and those turns are stored in one transaction: a database that drops in between leaves
    no match waiting at version 0 for a bot that never plays."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**62)
    state = engine.new_match(seed, [s.name for s in seats], options or {})
    match = Match(seed=seed, options=state.rules.options.to_json(), listed=listed)
    seat_rows = [
        Seat(match=match, index=i, name=s.name, kind=s.kind, level=s.level, device=s.device)
        for i, s in enumerate(seats)
    ]
    issued = issue(match, seat_rows)
    turn = None
    if _bot_to_act(match, state, seat_rows):
        with meter(match.pk):
            turn = run_engine(match, state, None, version=0, seats=seat_rows)
    final = turn.state if turn else state
    match.snapshot, match.state_hash = engine.snapshot_and_hash(final)
    match.version = len(turn.log) if turn else 0
    if final.rules.phase == engine.Phase.OVER:
        match.status = MatchStatus.FINISHED
    with _outcome_unknown_on_failure(match.pk), transaction.atomic():
        match.save(force_insert=True)
        Seat.objects.bulk_create(seat_rows)
        if turn:
            MatchAction.objects.bulk_create(_log_rows(match, 0, turn.log))
        store.with_seats(match)
        timing.start(match, clock, final, turn.frames if turn else [])
    if not turn:
        return Outcome(match=match, state=state, secrets=issued)
    return Outcome(
        match=match,
        state=turn.state,
        frames=turn.frames,
        events=turn.events,
        steps=turn.steps,
        opening=state,
        secrets=issued,
    )


def get_match(match_id) -> Match:
    """A match with its seats. Raises Match.DoesNotExist for an unknown id."""
    return store.read_match(match_id)


def load_state(match: Match) -> engine.State:
    """The match's stored state; engine.OutdatedSnapshot if an earlier engine stored it."""
    return engine.load(bytes(match.snapshot))


def playable(match: Match) -> bool:
    """Whether this engine can go on with the match (not one stored by an earlier one)."""
    return not engine.outdated(match.snapshot[:8])


def outdated_matches():
    """The ids of the matches stored by an earlier engine (they can no longer be played)."""
    rows = Match.objects.only("pk", "snapshot").iterator(chunk_size=200)
    return [match.pk for match in rows if not playable(match)]


def play(
    *,
    match: Match,
    version: int,
    action: dict,
    acting_for: frozenset[int] | None = None,
    meter=_no_meter,
    by_clock: bool = False,
) -> Outcome:
    """Apply a person's action chosen at `version`, then every bot turn that follows.

    `acting_for`: the seats the requester may act for (paletti.seats.Viewer; None: any).
    `meter(match_id)` wraps the engine's work (the web layer bounds each client's share).
    Raises StaleVersion when the match has moved on, NotYourSeat when the seat to act is
    not in `acting_for`, engine.IllegalAction when the rules refuse the action, MatchError
    for a bot's seat; the match is then unchanged. A `skip` is the turn clock's alone
    (`by_clock`: paletti.timeouts), never a player's.
    """
    if action.get("type") == "skip" and not by_clock:
        raise MatchError("skip_by_clock", "A turn is skipped only when its seat is out of time.")
    if version != match.version:
        raise StaleVersion(match.version)
    state = load_state(match)
    to_act = state.rules.to_act
    if to_act is not None and _seats(match)[to_act].kind == SeatKind.BOT:
        raise MatchError("bot_to_act", "A bot is to act, not a person.")
    if acting_for is not None and to_act is not None and to_act not in acting_for:
        raise NotYourSeat(to_act)
    with meter(match.pk):
        turn = run_engine(match, state, action, version)
    _store(match, turn.state, turn.log, version)
    timing.after_turn(match, turn.state, turn.frames, turn.turn_ends)
    return Outcome(
        match=match, state=turn.state, frames=turn.frames, events=turn.events, steps=turn.steps
    )


def let_bots_play(*, match: Match, meter=_no_meter) -> Outcome:
    """The bots' turns from the match as it stands (a seat just handed to a bot), stored
    like a person's action's answer; StaleVersion if another request moved it on."""
    version = match.version
    state = load_state(match)
    with meter(match.pk):
        turn = run_engine(match, state, None, version)
    if turn.log:
        _store(match, turn.state, turn.log, version)
    timing.after_turn(match, turn.state, turn.frames, turn.turn_ends)
    return Outcome(
        match=match, state=turn.state, frames=turn.frames, events=turn.events, steps=turn.steps
    )


@dataclass
class EngineTurn:
    state: engine.State
    frames: list
    events: list
    log: list  # (seat, action, by_bot, told) in order
    # One entry per action, in order: who acted and which frames and events are its own,
    # so that a page can tell the bots' actions one at a time.
    steps: list = field(default_factory=list)
    # The seats whose turn ended, in order (the turn clock adds their increment).
    turn_ends: list = field(default_factory=list)


def _told(state: engine.State, seat: int, action: dict, by_bot: bool, result) -> dict:
    """What an action showed, as the log keeps it: its own frames (from t = 0) and events,
    its step (the seat, the action's type, and column or colour) and the hash of the
    state it led to, which a replay's rebuilt state must equal (paletti.replays)."""
    step = {"seat": seat, "by_bot": by_bot, "type": action.get("type")}
    for key in ("column", "colour"):
        if key in action:
            step[key] = action[key]
    if action.get("type") == "pass":
        # A seal holder who passes keeps the seal: a new platform restarts the count.
        step["held_seal"] = state.rules.seal.holder == seat
    return {
        "frames": list(result.frames),
        "events": list(result.events),
        "step": step,
        "hash": engine.state_hash(result.state),
    }


def join_told(told: list[dict]) -> tuple[list, list, list]:
    """Actions' frames, events and steps as one answer: the frames one after another in
    time, each step with the slices [start, end) of the frames and events that are its own."""
    frames, events, steps = [], [], []
    for shown in told:
        first_frame, first_event = len(frames), len(events)
        frames.extend(_shifted(shown["frames"], _end_time(frames)))
        events.extend(shown["events"])
        steps.append(
            {
                **shown["step"],
                "frames": [first_frame, len(frames)],
                "events": [first_event, len(events)],
            }
        )
    return frames, events, steps


def run_engine(
    match: Match,
    state: engine.State,
    action: dict | None,
    version: int,
    seats: list[Seat] | None = None,
):
    """The engine's whole work for one request, without the database: the person's
    action (if any), then bots until a person must act. Deterministic: each bot decision
    draws from its own stream seeded by the match's seed and the action's number."""
    log, turn_ends = [], []
    if action is not None:
        result = engine.apply_action(state, action)
        seat = state.rules.to_act
        log.append((seat, dict(action), False, _told(state, seat, action, False, result)))
        turn_ends.extend(_turn_ended(state, result))
        state = result.state
    seats = seats if seats is not None else _seats(match)
    for _ in range(MAX_BOT_ACTIONS):
        if not _bot_to_act(match, state, seats):
            break
        seat = state.rules.to_act
        rng = random.Random(f"{match.seed}:bot:{version + len(log)}")  # noqa: S311
        bot_action = engine.choose_action(state, seats[seat].level, rng)
        result = engine.apply_action(state, bot_action)
        log.append((seat, bot_action, True, _told(state, seat, bot_action, True, result)))
        turn_ends.extend(_turn_ended(state, result))
        state = result.state
    frames, events, steps = join_told([told for *_, told in log])
    return EngineTurn(
        state=state, frames=frames, events=events, log=log, steps=steps, turn_ends=turn_ends
    )


def _turn_ended(before: engine.State, result) -> list[int]:
    """The builder whose turn this action ended ([] if none): the turn moved to another
    seat, the game ended, or the others were passed over back to the same builder."""
    turn = before.rules.turn
    after = result.state.rules
    if turn is None or before.rules.phase == engine.Phase.OVER:
        return []
    skipped = any(e.get("code") == "player_skipped" for e in result.events)
    return [turn] if after.turn != turn or after.phase == engine.Phase.OVER or skipped else []


def _log_rows(match, version, log) -> list[MatchAction]:
    return [
        MatchAction(match=match, number=version + i + 1, seat=seat, action=a, by_bot=bot, told=told)
        for i, (seat, a, bot, told) in enumerate(log)
    ]


@dataclass
class CatchUp:
    """What happened in a match after a version a device saw: the frames, events and
    steps of those actions, joined as one answer."""

    frames: list
    events: list
    steps: list


def catch_up(match: Match, since: int) -> CatchUp | None:
    """The actions after version `since`, as one answer, for a device that saw the match
    at `since` and follows it: None when there is nothing after it, when it lies more than
    CATCH_UP_ACTIONS back, or when one of those actions was stored without what it showed."""
    if not 0 <= since < match.version or match.version - since > CATCH_UP_ACTIONS:
        return None
    told = list(
        match.actions.filter(number__gt=since).order_by("number").values_list("told", flat=True)
    )
    if len(told) != match.version - since or not all(told):
        return None
    return CatchUp(*join_told(told))


def replace_link(*, match: Match, seat: int | None) -> str:
    """A new secret for a seat's link (`seat`: its index) or the spectators' (None): the
    old link stops working at once. Returns the new secret, in clear, once."""
    secret = new_secret()
    if seat is None:
        Match.objects.filter(pk=match.pk).update(spectator_digest=digest(secret))
        match.spectator_digest = digest(secret)
        transaction.on_commit(lambda: live.publish(match.pk, match.version))
        return secret
    row = next(s for s in _seats(match) if s.index == seat)
    if not row.key_digest:
        raise MatchError("no_link", "This seat plays on the shared device.")
    row.key_digest = digest(secret)
    row.save(update_fields=["key_digest"])
    # Streams opened with the old link end at once (they check their keys when woken).
    transaction.on_commit(lambda: live.publish(match.pk, match.version))
    return secret


def _store(match, state, log, version):
    finished = state.rules.phase == engine.Phase.OVER
    data, digest = engine.snapshot_and_hash(state)
    fields = {
        "version": version + len(log),
        "snapshot": data,
        "state_hash": digest,
        "status": MatchStatus.FINISHED if finished else MatchStatus.PLAYING,
        "updated_at": timezone.now(),
    }
    entries = _log_rows(match, version, log)
    with _outcome_unknown_on_failure(match.pk):
        stored = store.store_turn(match.pk, version, fields, entries)
    if not stored:
        # Another post chosen at the same version got there first, or the match is gone.
        current = Match.objects.filter(pk=match.pk).values_list("version", flat=True).first()
        if current is None:
            raise MatchGone
        raise StaleVersion(current)
    for name, value in fields.items():
        setattr(match, name, value)
    # Only the id and the version: a stream reads the rest from the database.
    version_now = fields["version"]
    transaction.on_commit(lambda: live.publish(match.pk, version_now))
    match_moved.send(sender=Match, match=match)
    if finished:
        match_over.send(sender=Match, match=match, state=state)


@contextmanager
def _outcome_unknown_on_failure(match_id):
    """A write whose connection fails may have committed (the server can commit and the
    answer be lost): say that the outcome is unknown rather than that nothing happened."""
    try:
        yield
    except (OperationalError, InterfaceError) as error:
        raise OutcomeUnknown(match_id) from error


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
    to_act = state.rules.to_act
    return state.rules.phase != engine.Phase.OVER and to_act is not None and seats[to_act].is_bot


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
    unplayed: int = 0


def remove_old_matches(
    *,
    idle: timedelta,
    finished_after: timedelta | None,
    unplayed: timedelta | None = None,
    dry_run: bool = False,
    batch: int = 500,
) -> Cleanup:
    """Delete matches nobody plays any more: unfinished ones untouched for longer than
    `idle`, unfinished ones in which no person ever acted created longer than `unplayed`
    ago (matches started and left, or started by the hundred by a script), finished ones
    older than `finished_after` (None keeps them for ever). A match kept is kept whole:
    its seed, seats, options and action log are what its replay needs. Deletes in batches
    so that no statement runs into the database's statement timeout."""
    now = timezone.now()
    never_played = Match.objects.none()
    if unplayed is not None:
        never_played = Match.objects.filter(
            status=MatchStatus.PLAYING, created_at__lt=now - unplayed, updated_at__gte=now - idle
        ).exclude(actions__by_bot=False)
    abandoned = Match.objects.filter(status=MatchStatus.PLAYING, updated_at__lt=now - idle)
    old = Match.objects.none()
    if finished_after is not None:
        old = Match.objects.filter(status=MatchStatus.FINISHED, updated_at__lt=now - finished_after)
    counts = {}
    for name, queryset in (("abandoned", abandoned), ("unplayed", never_played), ("finished", old)):
        ids = list(queryset.values_list("pk", flat=True))
        counts[name] = len(ids)
        if not dry_run:
            for start in range(0, len(ids), batch):
                Match.objects.filter(pk__in=ids[start : start + batch]).delete()
    return Cleanup(**counts)


def remove_outdated_matches(*, dry_run: bool = False, batch: int = 500) -> int:
    """Delete the matches an earlier engine stored (they can no longer be played)."""
    ids = outdated_matches()
    if not dry_run:
        for start in range(0, len(ids), batch):
            Match.objects.filter(pk__in=ids[start : start + batch]).delete()
    return len(ids)
