"""Match creation and actions are throttled per client address."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from catalogue import settings as project_settings
from paletti.models import Match

pytestmark = pytest.mark.django_db

TWO_PEOPLE = {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def create(api, address):
    return api.post(
        reverse("api:paletti-match-list"), TWO_PEOPLE, format="json", REMOTE_ADDR=address
    )


def test_match_creation_is_throttled_per_address(settings):
    settings.PALETTI_THROTTLE_RATES = {"match-creation": "3/hour"}
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    assert [create(api, "10.0.0.1").status_code for _ in range(3)] == [201, 201, 201]
    refused = create(api, "10.0.0.1")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "throttled" in refused.json()["detail"]
    assert create(api, "10.0.0.2").status_code == 201  # another school
    assert Match.objects.count() == 4


def test_actions_are_throttled_and_reading_is_not(settings):
    settings.PALETTI_THROTTLE_RATES = {"match-actions": "2/min"}
    api = APIClient()
    created = create(api, "10.0.0.1").json()
    url = reverse("api:paletti-match-actions", kwargs={"match_id": created["id"]})
    bad = {"version": 99, "action": {"type": "pass"}}
    codes = [api.post(url, bad, format="json").status_code for _ in range(3)]
    assert codes == [409, 409, 429]
    detail = reverse("api:paletti-match-detail", kwargs={"match_id": created["id"]})
    assert api.get(detail).status_code == 200


def test_the_default_rates_let_a_class_of_30_behind_one_address_play(settings):
    """15 matches started at once, then 300 requests within the minute: none refused."""
    settings.PALETTI_THROTTLE_RATES = project_settings.PALETTI_THROTTLE_RATES
    api = APIClient()
    created = [create(api, "10.0.0.1") for _ in range(15)]
    assert {response.status_code for response in created} == {201}
    url = reverse("api:paletti-match-actions", kwargs={"match_id": created[0].json()["id"]})
    stale = {"version": 99, "action": {"type": "pass"}}
    codes = {api.post(url, stale, format="json").status_code for _ in range(300)}
    assert codes == {409}


def test_behind_a_proxy_each_client_is_counted_apart(settings):
    settings.PALETTI_THROTTLE_RATES = {"match-creation": "1/hour"}
    settings.NUM_PROXIES = 1
    api = APIClient()

    def via_proxy(client):
        return api.post(
            reverse("api:paletti-match-list"),
            TWO_PEOPLE,
            format="json",
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR=client,
        ).status_code

    assert [via_proxy("192.0.2.1"), via_proxy("192.0.2.2"), via_proxy("192.0.2.1")] == [
        201,
        201,
        429,
    ]


def test_a_client_cannot_choose_its_address_by_default(settings):
    """Without DJANGO_NUM_PROXIES, X-Forwarded-For is the client's own writing: ignored."""
    settings.PALETTI_THROTTLE_RATES = {"match-creation": "2/hour"}
    api = APIClient()

    def spoofing(forwarded):
        return api.post(
            reverse("api:paletti-match-list"),
            TWO_PEOPLE,
            format="json",
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=forwarded,
        ).status_code

    long_header = ", ".join(f"198.51.100.{n}" for n in range(1, 40))  # ~600 characters
    codes = [spoofing("192.0.2.1"), spoofing("192.0.2.2"), spoofing("192.0.2.3")]
    codes += [spoofing(long_header), spoofing("not an address"), spoofing("")]
    assert codes == [201, 201, 429, 429, 429, 429]
    assert Match.objects.count() == 2


def test_behind_a_proxy_a_forged_entry_counts_as_the_proxy_saw_it(settings):
    """Entries left of the ones trusted proxies appended are the client's: ignored, and a
    value that is no address at all falls back to the socket's address, never a 500."""
    settings.PALETTI_THROTTLE_RATES = {"match-creation": "1/hour"}
    settings.NUM_PROXIES = 1
    api = APIClient()

    def via_proxy(forwarded):
        return api.post(
            reverse("api:paletti-match-list"),
            TWO_PEOPLE,
            format="json",
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR=forwarded,
        ).status_code

    assert via_proxy("192.0.2.50, 192.0.2.1") == 201
    assert via_proxy("192.0.2.51, 192.0.2.1") == 429  # the same client, another forgery
    assert via_proxy("<script>") == 201  # counted as the proxy's own address
    assert via_proxy("x" * 300) == 429
