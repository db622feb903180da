"""paletti_cleanup removes abandoned and old finished matches, and nothing else."""

import subprocess
import sys
from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from paletti import engine, services
from paletti.models import Match, MatchAction, MatchStatus, Seat

pytestmark = pytest.mark.django_db

TWO = [services.SeatSpec("Ada"), services.SeatSpec("Bo")]


def match(*, status, age):
    created = services.create_match(seats=TWO, seed=1).match
    Match.objects.filter(pk=created.pk).update(status=status, updated_at=timezone.now() - age)
    return created.pk


def run(*args):
    out = StringIO()
    call_command("paletti_cleanup", *args, stdout=out)
    return out.getvalue()


def test_cleanup_removes_abandoned_and_old_finished_matches_only():
    abandoned = match(status=MatchStatus.PLAYING, age=timedelta(hours=30))
    playing = match(status=MatchStatus.PLAYING, age=timedelta(hours=2))
    old_finished = match(status=MatchStatus.FINISHED, age=timedelta(days=100))
    recent_finished = match(status=MatchStatus.FINISHED, age=timedelta(days=10))
    MatchAction.objects.create(match_id=abandoned, number=1, seat=0, action={"type": "pass"})

    assert (
        run("--dry-run")
        == "would delete 1 abandoned, 0 never played and 1 old finished match(es)\n"
    )
    assert Match.objects.count() == 4

    assert (
        run().splitlines()[0] == "deleted 1 abandoned, 0 never played and 1 old finished match(es)"
    )
    assert set(Match.objects.values_list("pk", flat=True)) == {playing, recent_finished}
    assert not Seat.objects.filter(match_id__in=[abandoned, old_finished]).exists()
    assert not MatchAction.objects.filter(match_id=abandoned).exists()
    # What is kept still replays to its stored state.
    kept = Match.objects.get(pk=recent_finished)
    assert engine.state_hash(services.replay_match(kept)) == kept.state_hash


def test_ages_are_configurable_and_zero_keeps_finished_matches():
    match(status=MatchStatus.PLAYING, age=timedelta(hours=3))
    match(status=MatchStatus.FINISHED, age=timedelta(days=400))
    assert run("--idle-hours", "2", "--finished-days", "0").splitlines()[0] == (
        "deleted 1 abandoned, 0 never played and 0 old finished match(es)"
    )
    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--idle-hours", "nan"],
        ["--idle-hours", "inf"],
        ["--finished-days", "nan"],
        ["--finished-days=-inf"],
        ["--idle-hours", "1e400"],
    ],
)
def test_an_age_that_is_no_finite_number_is_refused_and_deletes_nothing(args):
    match(status=MatchStatus.PLAYING, age=timedelta(days=3))
    with pytest.raises(CommandError, match="finite"):
        run(*args)
    assert Match.objects.count() == 1


def test_on_the_command_line_a_bad_age_is_one_clear_line_not_a_traceback():
    command = [sys.executable, "manage.py", "paletti_cleanup", "--idle-hours", "nan"]
    done = subprocess.run(  # noqa: S603 (our own command, fixed arguments)
        command, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "'nan' is not a finite number" in done.stderr


def test_matches_nobody_ever_played_in_go_after_two_hours_by_default():
    """A script starting matches by the hundred leaves them unplayed: the default cron line
    removes them within hours, not after the 24 h an abandoned game is kept."""
    spam = [services.create_match(seats=TWO, seed=n).match.pk for n in range(3)]
    Match.objects.filter(pk__in=spam).update(created_at=timezone.now() - timedelta(hours=3))
    played = services.create_match(seats=TWO, seed=9).match
    Match.objects.filter(pk=played.pk).update(created_at=timezone.now() - timedelta(hours=3))
    MatchAction.objects.create(match=played, number=1, seat=0, action={"type": "pass"})
    fresh = services.create_match(seats=TWO, seed=10).match.pk
    assert (
        run().splitlines()[0] == "deleted 0 abandoned, 3 never played and 0 old finished match(es)"
    )
    assert set(Match.objects.values_list("pk", flat=True)) == {played.pk, fresh}
