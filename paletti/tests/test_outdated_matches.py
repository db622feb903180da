"""A match stored by an earlier engine (RULES_VERSION 1 or 2: a pickled pymunk world) says
plainly that it can no longer be played, on its page and in the API, never a 500; the
cleanup command can remove such matches."""

import zlib
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from paletti import services
from paletti.models import Match

pytestmark = pytest.mark.django_db

TWO = [services.SeatSpec("Ada"), services.SeatSpec("Bo")]


@pytest.fixture
def outdated():
    """A match as the previous release stored it: "VPAL3", then compressed bytes that
    hold a pickle this engine never reads; no keys (seats had none then)."""
    match = services.create_match(seats=TWO, seed=4).match
    Match.objects.filter(pk=match.pk).update(
        snapshot=b"VPAL3" + zlib.compress(b"\x00\x00\x00\x02{}" + b"\x80\x05pickled world"),
        organiser_digest="",
        spectator_digest="",
    )
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize(
    "language, words",
    [("en", "can no longer be played"), ("fr", "ne peut plus être jouée"), ("pl", "nie można")],
)
def test_the_page_of_an_outdated_match_says_it_can_no_longer_be_played(
    client, outdated, language, words
):
    with translation.override(language):
        url = reverse("paletti:match", kwargs={"match_id": outdated.pk})
        setup = reverse("paletti:setup")
    response = client.get(url)
    assert response.status_code == 410
    assert words in response.content.decode()
    assert setup in response.content.decode()


def test_the_api_answers_410_for_an_outdated_match_and_changes_nothing(outdated):
    api = APIClient()
    detail = api.get(reverse("api:paletti-match-detail", kwargs={"match_id": outdated.pk}))
    assert detail.status_code == 410 and detail.json()["code"] == "outdated_match"
    action = api.post(
        reverse("api:paletti-match-actions", kwargs={"match_id": outdated.pk}),
        {"version": 0, "action": {"type": "pass"}},
        format="json",
    )
    assert action.status_code == 410
    assert Match.objects.get(pk=outdated.pk).version == outdated.version


def test_a_current_match_is_playable_and_an_outdated_one_is_not(outdated):
    current = services.create_match(seats=TWO, seed=5).match
    assert services.playable(current) and not services.playable(outdated)
    assert services.outdated_matches() == [outdated.pk]


def test_cleanup_removes_outdated_matches_when_asked(outdated):
    current = services.create_match(seats=TWO, seed=5).match
    out = StringIO()
    call_command("paletti_cleanup", stdout=out)
    assert Match.objects.filter(pk=outdated.pk).exists()
    call_command("paletti_cleanup", "--outdated", stdout=out)
    assert not Match.objects.filter(pk=outdated.pk).exists()
    assert Match.objects.filter(pk=current.pk).exists()
    assert "1 match(es) stored by an earlier engine" in out.getvalue()
