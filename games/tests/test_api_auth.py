"""The API authenticates with the session or a staff member's token, never a password."""

import base64
from unittest import mock

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import Group, User
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

NEW_GAME = {
    "title": "Dobble",
    "slug": "dobble",
    "esar": "A 400",
    "min_players": 2,
    "max_players": 8,
    "min_age": 6,
    "duration_minutes": 15,
}


@pytest.fixture
def volunteer():
    user = User.objects.create_user("vol", password="correct horse battery", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    return user


def basic(username, password):
    raw = f"{username}:{password}".encode()
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(raw).decode()}


def test_a_password_header_costs_no_hash_and_writes_nothing(seed, volunteer):
    api = APIClient()
    with (
        mock.patch.object(PBKDF2PasswordHasher, "verify") as verify,
        mock.patch.object(PBKDF2PasswordHasher, "encode") as encode,
    ):
        for name in ("vol", "nobody-at-all", "a\x00b"):
            listing = api.get(reverse("api:game-list"), **basic(name, "correct horse battery"))
            assert listing.status_code == 200
            written = api.post(
                reverse("api:game-list"),
                NEW_GAME,
                format="json",
                **basic(name, "correct horse battery"),
            )
            assert written.status_code in (401, 403)
    assert verify.call_count == 0
    assert encode.call_count == 0
    assert not Game.objects.filter(slug="dobble").exists()


def test_a_staff_token_writes(seed, volunteer):
    token = Token.objects.create(user=volunteer)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.post(reverse("api:game-list"), NEW_GAME, format="json")
    assert response.status_code == 201, response.json()
    assert api.delete(reverse("api:game-detail", kwargs={"slug": "dobble"})).status_code == 403


def test_a_forged_token_is_401(seed):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40, HTTP_ACCEPT_LANGUAGE="en")
    response = api.post(reverse("api:game-list"), NEW_GAME, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["detail"] == "Invalid token."


def test_the_session_still_writes_with_csrf(seed, volunteer):
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(volunteer)
    refused = api.post(reverse("api:game-list"), NEW_GAME, format="json")
    assert refused.status_code == 403  # no CSRF token
    api.get(reverse("admin:index"))  # the admin sets the CSRF cookie
    csrf = api.cookies["csrftoken"].value
    done = api.post(reverse("api:game-list"), NEW_GAME, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert done.status_code == 201
