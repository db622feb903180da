"""A database that refuses or hangs: 503 with a friendly page (JSON under /api/), a health
check that says so, and recovery by itself when the database is back."""

import time
from contextlib import contextmanager

import pytest
from django.db import OperationalError, close_old_connections, connection
from django.test import Client
from django.urls import reverse

from games.api import GameViewSet
from games.tests.proxies import FreezableProxy


@contextmanager
def database_away():
    """The site's connection pointed at a database that is not there, then restored."""
    original = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "postgresql":
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")  # nothing listens
    else:
        connection.settings_dict["NAME"] = "/nonexistent-directory/db.sqlite3"
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)


@pytest.mark.django_db(transaction=True)
def test_a_database_that_refuses_is_a_503_and_the_site_recovers():
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    with database_away():
        api = client.get(reverse("api:game-list"))
        page = client.get(reverse("games:game-list"))
        health = client.get(reverse("healthz"))
    assert api.status_code == 503
    assert api.json()["code"] == "database_unavailable"
    assert int(api["Retry-After"]) > 0
    assert page.status_code == 503
    assert "The catalogue is resting" in page.content.decode()
    assert health.status_code == 503
    assert health.json()["database"] == "unreachable"
    # Back: the next requests reconnect by themselves.
    assert client.get(reverse("api:game-list")).status_code == 200
    assert client.get(reverse("games:game-list")).status_code == 200
    assert client.get(reverse("healthz")).json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_a_statement_timeout_is_a_503_not_a_500(monkeypatch):
    cancelled = OperationalError("canceling statement due to statement timeout")
    monkeypatch.setattr(GameViewSet, "list", lambda *a, **k: (_ for _ in ()).throw(cancelled))
    client = Client(raise_request_exception=False)
    assert client.get(reverse("api:game-list")).status_code == 503


@pytest.mark.django_db
def test_postgresql_connections_carry_the_timeouts(settings):
    if connection.vendor != "postgresql":
        pytest.skip("the timeouts are PostgreSQL options")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["connect_timeout"] == 3
    assert options["keepalives"] == 1
    assert options["tcp_user_timeout"] == 5000
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "10s"
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "2s"
        with pytest.raises(OperationalError):
            cursor.execute("SET LOCAL statement_timeout = 50; SELECT pg_sleep(1)")


@pytest.mark.django_db(transaction=True)
def test_a_cut_connection_is_replaced_without_an_error(seed):
    """A kept connection the database has cut is replaced: the visitor sees the page."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no connection to cut")
    import psycopg

    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    assert client.get(reverse("games:game-list")).status_code == 200
    old_pid = connection.connection.info.backend_pid
    params = {
        k: v
        for k, v in connection.get_connection_params().items()
        if k in {"host", "port", "user", "dbname", "password"}
    }
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [old_pid])
    close_old_connections()  # what a server does as a request starts (the test client not)
    assert client.get(reverse("games:game-list")).status_code == 200
    assert connection.connection.info.backend_pid != old_pid


@contextmanager
def database_behind(proxy_factory):
    original = dict(connection.settings_dict)
    connection.close()
    proxy = proxy_factory(original["HOST"] or "127.0.0.1", original["PORT"] or 5432)
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port))
    try:
        yield proxy
    finally:
        connection.close()
        proxy.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)


def timed(client, url):
    started = time.perf_counter()
    response = client.get(url)
    return response, time.perf_counter() - started


@pytest.mark.django_db(transaction=True)
def test_a_database_that_hangs_is_a_503_within_seconds_and_db_free_pages_answer(settings, seed):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server to hang")
    # Bounds are several times each timeout, so that a busy machine does not fail the test;
    # the health check's bound stays under the page's timeout, to show it uses its own.
    settings.DB_CLIENT_TIMEOUT_SECONDS = 4
    settings.HEALTHZ_DB_TIMEOUT_SECONDS = 0.5
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    catalogue = reverse("games:game-list")
    with database_behind(FreezableProxy) as proxy:
        assert client.get(catalogue).status_code == 200  # a warm connection
        proxy.frozen.set()
        page, page_took = timed(client, catalogue)
        setup, setup_took = timed(client, reverse("paletti:setup"))  # needs no database
        connection.close()
        proxy.frozen.clear()
        assert client.get(reverse("healthz")).status_code == 200  # warm again
        proxy.frozen.set()
        health, health_took = timed(client, reverse("healthz"))
        connection.close()
        proxy.frozen.clear()
        back = client.get(catalogue)
    assert page.status_code == 503
    assert int(page["Retry-After"]) > 0
    assert page_took < 16, page_took
    assert (setup.status_code, setup_took < 4) == (200, True), setup_took
    assert health.status_code == 503
    assert health_took < 3, health_took
    assert back.status_code == 200
