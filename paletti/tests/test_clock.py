"""The time bank's rules (paletti.clock), pure: what is charged, the increment and its
cap, when a seat is out of time."""

import pytest

from paletti import clock


def test_a_running_bank_is_charged_the_time_since_its_clock_started():
    assert clock.charge(10_000, started_at=50_000, now=54_000) == 6_000


def test_time_before_the_clock_starts_is_never_charged():
    # The clock starts when the last answer's animation ends: a seat that acts before
    # then (it saw the end sooner) is charged nothing.
    assert clock.charge(10_000, started_at=55_000, now=54_000) == 10_000
    assert clock.remaining(10_000, started_at=55_000, now=54_000) == 10_000


def test_a_bank_never_goes_below_zero():
    assert clock.charge(3_000, started_at=0, now=60_000) == 0


def test_a_stopped_clock_keeps_its_bank():
    assert clock.remaining(7_000, started_at=None, now=10**12) == 7_000
    assert not clock.out_of_time(0, started_at=None, now=10**12)


def test_the_increment_is_added_up_to_the_cap():
    quick = clock.PRESETS["quick"]
    assert clock.add_increment(100_000, quick) == 115_000
    assert clock.add_increment(170_000, quick) == quick.cap == 180_000
    assert clock.add_increment(0, quick) == 15_000


def test_a_seat_is_out_of_time_when_its_running_bank_reaches_zero():
    assert not clock.out_of_time(3_000, started_at=1_000, now=3_999)
    assert clock.out_of_time(3_000, started_at=1_000, now=4_000)
    assert clock.deadline(3_000, started_at=1_000) == 4_000


def test_presets_off_and_the_test_only_one():
    assert clock.preset("off") is None
    assert clock.preset("relaxed").initial == 5 * 60_000
    with pytest.raises(KeyError):
        clock.preset(clock.TINY)
    assert clock.preset(clock.TINY, tiny_allowed=True).initial == 3_000
