"""Repeated failed admin logins lock that user name out from that address (django-axes)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_repeated_failed_admin_logins_lock_out(client):
    User.objects.create_superuser("admin", password="the right one")
    url = reverse("admin:login")
    codes = [client.post(url, {"username": "admin", "password": "wrong"}).status_code]
    codes += [client.post(url, {"username": "admin", "password": "wrong"}).status_code]
    assert codes == [200, 200]  # the form again, with its error
    for _ in range(3):
        client.post(url, {"username": "admin", "password": "wrong"})
    locked = client.post(url, {"username": "admin", "password": "the right one"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    other = client.post(
        url, {"username": "admin", "password": "the right one"}, REMOTE_ADDR="10.1.1.1"
    )
    assert other.status_code == 302  # the same person from another address gets in


def wrong_then_right(client, url, **headers):
    codes = [
        client.post(url, {"username": "admin", "password": "wrong"}, **headers).status_code
        for _ in range(5)
    ]
    right = client.post(url, {"username": "admin", "password": "the right one"}, **headers)
    return codes, right.status_code


def test_a_forged_forwarded_for_header_neither_escapes_nor_places_a_lockout(client):
    """By default (DJANGO_NUM_PROXIES unset) the socket's address is the client's."""
    User.objects.create_superuser("admin", password="the right one")
    url = reverse("admin:login")
    for n in range(5):  # each failure claims another address
        client.post(
            url,
            {"username": "admin", "password": "wrong"},
            REMOTE_ADDR="203.0.113.9",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    escaped = client.post(
        url,
        {"username": "admin", "password": "the right one"},
        REMOTE_ADDR="203.0.113.9",
        HTTP_X_FORWARDED_FOR="192.0.2.200",
    )
    assert escaped.status_code == 429
    # An attacker naming the victim's address in the header locked only itself out.
    victim = Client()
    response = victim.post(
        url, {"username": "admin", "password": "the right one"}, REMOTE_ADDR="198.51.100.20"
    )
    assert response.status_code == 302


def test_a_lockout_placed_through_a_forged_header_does_not_reach_the_named_address(client):
    User.objects.create_superuser("admin", password="the right one")
    url = reverse("admin:login")
    codes, _ = wrong_then_right(
        client, url, REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.20"
    )
    assert codes == [200, 200, 200, 200, 429]
    victim = Client()
    response = victim.post(
        url, {"username": "admin", "password": "the right one"}, REMOTE_ADDR="198.51.100.20"
    )
    assert response.status_code == 302


@pytest.mark.parametrize("forwarded", ["not-an-address", "x" * 300, "1.2.3.4, <b>"])
def test_a_forwarded_for_value_that_is_no_address_is_never_a_500(client, settings, forwarded):
    settings.NUM_PROXIES = 1
    User.objects.create_superuser("admin", password="the right one")
    url = reverse("admin:login")
    codes, right = wrong_then_right(
        client, url, REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=forwarded
    )
    assert codes == [200, 200, 200, 200, 429]  # counted, at the proxy's own address
    assert right == 429
