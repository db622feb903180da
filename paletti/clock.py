"""The turn clock's rules: Board Game Arena's time bank, as plain Python (no Django).

Each person's seat has a bank of time. It runs only while that seat is to act and the match
waits for it; when the seat's turn ends, an increment is added, up to a cap. A seat whose
bank reaches zero is out of time: nothing happens by itself, the others may then skip its
turn or hand its seat to a bot (paletti.timing). Bots have no clock.

The presets are ours (no seed and no rule of the game speaks of time): "relaxed" leaves a
child a long think on every turn, "quick" suits players who know the game. Times are in
milliseconds throughout.
"""

from dataclasses import dataclass

OFF = "off"
# The test-only preset: accepted only where the settings allow it (browser tests).
TINY = "tiny"


@dataclass(frozen=True)
class Preset:
    """A bank to start with, an increment added after each of the seat's turns, and the
    cap the bank never grows past through increments."""

    initial: int
    increment: int
    cap: int


# Ours (see the module's docstring and docs/devices.md).
PRESETS = {
    "relaxed": Preset(initial=5 * 60_000, increment=30_000, cap=5 * 60_000),
    "quick": Preset(initial=2 * 60_000, increment=15_000, cap=3 * 60_000),
}
TEST_PRESETS = {TINY: Preset(initial=3_000, increment=1_000, cap=3_000)}


def preset(name: str, *, tiny_allowed: bool = False) -> Preset | None:
    """The preset called `name` (None for "off"); KeyError for an unknown one."""
    if name == OFF:
        return None
    if name in PRESETS:
        return PRESETS[name]
    if tiny_allowed and name in TEST_PRESETS:
        return TEST_PRESETS[name]
    raise KeyError(name)


def elapsed(started_at: float, now: float) -> int:
    """The time charged to a seat between the start of its clock (ms since the epoch: may
    lie in the future while the last action is still being animated) and `now`."""
    return max(0, round(now - started_at))


def remaining(bank: int, started_at: float | None, now: float) -> int:
    """What is left of `bank` at `now`: the bank itself while the clock is stopped
    (`started_at` None), never below zero."""
    if started_at is None:
        return max(0, bank)
    return max(0, bank - elapsed(started_at, now))


def out_of_time(bank: int, started_at: float | None, now: float) -> bool:
    """Whether a running bank has reached zero."""
    return started_at is not None and remaining(bank, started_at, now) == 0


def charge(bank: int, started_at: float, now: float) -> int:
    """The bank after the seat acted at `now` (its clock ran from `started_at`)."""
    return remaining(bank, started_at, now)


def add_increment(bank: int, rules: Preset) -> int:
    """The bank after the seat's turn ended: the increment added, capped (a bank already
    above the cap, as a preset may start it, is not cut down)."""
    return max(bank, min(bank + rules.increment, rules.cap))


def deadline(bank: int, started_at: float) -> float:
    """When a running bank reaches zero (ms since the epoch)."""
    return started_at + bank
