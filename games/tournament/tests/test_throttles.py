"""The public join page is throttled per client address: a script cannot fill a
tournament with invented players nor try codes without end; a clear 429 says when to
come back, and nobody is registered by a refused request."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def join_url(tournament):
    with translation.override("en"):
        return reverse("tournament:join", kwargs={"code": tournament.code})


def test_registrations_beyond_the_rate_get_a_429_and_register_nobody(tournament, settings):
    settings.TOURNAMENT_THROTTLE_RATES = {"tournament-registration": "3/hour"}
    phone = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="en")
    for name in ("Ada", "Bruno", "Chloé"):
        assert phone.post(join_url(tournament), {"name": name, "age": 9}).status_code == 302
    refused = phone.post(join_url(tournament), {"name": "Dorota", "age": 9})
    assert refused.status_code == 429
    assert 3000 < int(refused["Retry-After"]) <= 3600
    assert b"Too many requests came from this network" in refused.content
    assert not Player.objects.filter(name="Dorota").exists()
    # Reading the page is another scope, unlimited here; another address registers.
    assert phone.get(join_url(tournament)).status_code == 200
    other = Client(REMOTE_ADDR="198.51.100.4")
    assert other.post(join_url(tournament), {"name": "Dorota", "age": 9}).status_code == 302


def test_hostile_posts_count_too_and_are_refused_clearly(tournament, settings):
    settings.TOURNAMENT_THROTTLE_RATES = {"tournament-registration": "2/hour"}
    script = Client(REMOTE_ADDR="203.0.113.9")
    assert script.post(join_url(tournament), {"name": "x" * 500, "age": "old"}).status_code == 400
    assert script.post(join_url(tournament), {"age": -1}).status_code == 400
    assert script.post(join_url(tournament), {"name": "Emil", "age": 9}).status_code == 429
    assert not tournament.players.exists()


def test_trying_codes_is_throttled_as_reading_the_page(tournament, settings):
    settings.TOURNAMENT_THROTTLE_RATES = {"tournament-join": "2/min"}
    script = Client(REMOTE_ADDR="203.0.113.10")
    with translation.override("en"):
        guesses = [reverse("tournament:join", kwargs={"code": f"guess{i}"}) for i in range(3)]
    assert [script.get(g).status_code for g in guesses] == [404, 404, 429]
    assert script.get(join_url(tournament)).status_code == 429


def test_the_default_rates_let_a_venue_register_its_players_from_one_network(tournament, settings):
    """The site's own default rates (the settings module's): 64 players, the most a
    tournament takes, each opening the page and registering behind one address."""
    from catalogue import settings as site

    settings.TOURNAMENT_THROTTLE_RATES = site.TOURNAMENT_THROTTLE_RATES
    venue = Client(REMOTE_ADDR="192.0.2.1")
    for i in range(64):
        assert venue.get(join_url(tournament)).status_code == 200
        assert venue.post(join_url(tournament), {"name": f"P{i}", "age": 9}).status_code == 302
    assert tournament.players.count() == 64
