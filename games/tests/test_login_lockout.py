"""Repeated failed admin logins lock that user name out from that address (django-axes)."""

import pytest
from django.contrib.auth.models import User
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
