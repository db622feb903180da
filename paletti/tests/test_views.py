"""The set-up and play pages render, an unknown match is a 404, and a match is shown only
to a device holding one of its keys."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from paletti import services


def two_people_match():
    return services.create_match(
        seats=[services.SeatSpec("Ada", "human", ""), services.SeatSpec("Bob", "human", "")],
        options={},
        seed=1,
    )


def en_url(name, **kwargs):
    with translation.override("en"):
        return reverse(name, kwargs=kwargs or None)


@pytest.mark.django_db
def test_setup_page_has_the_form(client):
    response = client.get(en_url("paletti:setup") + "?seed=7")
    assert response.status_code == 200
    content = response.content.decode()
    assert 'id="paletti-setup"' in content
    assert 'name="seed" value="7"' in content
    assert 'for="player-0-name"' in content


@pytest.mark.django_db
def test_setup_ignores_a_bad_seed(client):
    response = client.get(en_url("paletti:setup") + "?seed=abc")
    assert response.status_code == 200
    assert 'name="seed"' not in response.content.decode()


@pytest.mark.django_db
def test_match_page_and_unknown_match(client):
    body = client.post(
        reverse("api:paletti-match-list"),
        {"players": [{"name": "Ada"}, {"name": "Bob"}], "seed": 1},
        content_type="application/json",
    ).json()
    response = client.get(en_url("paletti:match", match_id=body["id"]))
    assert response.status_code == 200
    assert 'id="villa"' in response.content.decode()
    assert client.get(en_url("paletti:match", match_id=uuid.uuid4())).status_code == 404


@pytest.mark.django_db
def test_a_match_page_without_a_key_says_how_to_get_one(client):
    outcome = two_people_match()
    with translation.override("en"):
        response = client.get(outcome.match.get_absolute_url())
    assert response.status_code == 403
    assert "links its organiser hands out" in response.content.decode()
    assert 'id="villa"' not in response.content.decode()


def test_javascript_catalog_is_served(client):
    response = client.get(en_url("paletti:jsi18n"))
    assert response.status_code == 200
    assert "gettext" in response.content.decode()


@pytest.mark.django_db
def test_staff_can_look_at_a_match_but_not_change_it(admin_client):
    outcome = two_people_match()
    change = reverse("admin:paletti_match_change", args=[outcome.match.pk])
    response = admin_client.get(change)
    assert response.status_code == 200
    assert "Ada" in response.content.decode()
    assert admin_client.get(reverse("admin:paletti_match_add")).status_code == 403
