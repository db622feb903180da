"""A database that refuses or hangs: 503 with a friendly page (JSON under /api/), a health
check that says so, and recovery by itself when the database is back."""

import threading
import time
from contextlib import contextmanager

import pytest
from django.core.signals import request_finished, request_started
from django.db import OperationalError, close_old_connections, connection
from django.test import Client
from django.urls import reverse

from catalogue.postgresql.availability import Availability, availability
from games.api import GameViewSet
from games.tests.proxies import FreezableProxy, wait_for_sessions_to_end


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
    assert options["connect_timeout"] == 2
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
        availability.reset()  # the next test's database answers
        wait_for_sessions_to_end(connection, proxy.server_ports)


def visit(client, url):
    """A request as a server makes it: old connections checked first (the test client
    does not), so a kept connection gets its health check."""
    close_old_connections()
    return client.get(url)


def timed(client, url):
    started = time.perf_counter()
    response = visit(client, url)
    return response, time.perf_counter() - started


@pytest.mark.django_db(transaction=True)
def test_a_database_that_hangs_is_a_503_within_seconds_then_at_once_until_it_answers(
    settings, seed
):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server to hang")
    connect_bound = settings.DB_CONNECT_TIMEOUT_SECONDS
    settings.DB_UNAVAILABLE_SECONDS = 3
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    catalogue = reverse("games:game-list")
    with database_behind(FreezableProxy) as proxy:
        assert visit(client, catalogue).status_code == 200  # a warm connection
        proxy.frozen.set()
        page, page_took = timed(client, catalogue)
        # The health check of the kept connection went unanswered: the database is taken
        # for down, and for a pause every request answers without waiting.
        again, again_took = timed(client, catalogue)
        health, health_took = timed(client, reverse("healthz"))
        setup, setup_took = timed(client, reverse("paletti:setup"))  # needs no database
        proxy.frozen.clear()
        time.sleep(settings.DB_UNAVAILABLE_SECONDS)
        back = visit(client, catalogue)
        health_back = visit(client, reverse("healthz"))
    # Bounds are several times each timeout, so that a busy machine does not fail the test.
    assert page.status_code == 503
    assert int(page["Retry-After"]) > 0
    assert page_took < 4 * connect_bound, page_took
    # Faster than any wait for the database could have been.
    assert (again.status_code, again_took < connect_bound) == (503, True), again_took
    assert (health.status_code, health_took < connect_bound) == (503, True), health_took
    assert health.json()["database"] == "unreachable"
    assert (setup.status_code, setup_took < connect_bound) == (200, True), setup_took
    assert back.status_code == 200
    assert health_back.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_hangs_is_cut_and_the_database_not_taken_for_down(settings):
    """A long statement says nothing of the database as a whole: letting it stop every
    request of the process would let one slow request take every page down."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server to hang")
    settings.DB_CLIENT_TIMEOUT_SECONDS = 1
    with database_behind(FreezableProxy) as proxy:
        request_started.send(sender=None)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")  # connected, health checked
                proxy.frozen.set()
                started = time.perf_counter()
                with pytest.raises(OperationalError):
                    cursor.execute("SELECT 1")
                took = time.perf_counter() - started
            assert not availability.down()
        finally:
            request_finished.send(sender=None)
    assert 1 <= took < 8, took


@pytest.mark.django_db(transaction=True)
def test_healthz_is_a_503_while_a_table_is_locked_against_reading(settings, seed):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's table locks")
    import psycopg

    client = Client(raise_request_exception=False)
    params = {
        k: v
        for k, v in connection.get_connection_params().items()
        if k in {"host", "port", "user", "dbname", "password"}
    }
    with psycopg.connect(**params) as other:
        other.execute("LOCK TABLE games_game IN SHARE MODE")  # writers wait, readers not
        assert client.get(reverse("healthz")).status_code == 200
        other.execute("LOCK TABLE games_game IN ACCESS EXCLUSIVE MODE")
        health, took = timed(client, reverse("healthz"))
        page = client.get(reverse("games:game-list"))
        other.rollback()
    assert health.status_code == 503
    assert health.json()["database"] == "locked"
    assert took < 4 * settings.HEALTHZ_DB_TIMEOUT_SECONDS, took
    assert page.status_code == 503
    assert client.get(reverse("healthz")).json() == {"status": "ok", "database": "ok"}


class TestAvailability:
    """The process's memory of a database that stopped answering."""

    def test_after_an_unanswered_question_nobody_asks_during_the_pause(self, settings):
        settings.DB_UNAVAILABLE_SECONDS = 60
        memory = Availability()
        assert memory.admit()
        memory.unanswered()
        assert memory.down()
        assert not memory.admit()

    def test_after_the_pause_one_asks_and_an_answer_lets_everybody_in(self, settings):
        settings.DB_UNAVAILABLE_SECONDS = 0.05
        memory = Availability()
        memory.unanswered()
        time.sleep(0.1)
        assert not memory.down()
        assert memory.admit()  # this thread asks
        others = []
        thread = threading.Thread(target=lambda: others.append(memory.admit()))
        thread.start()
        thread.join()
        assert others == [False]  # while it waits for its answer
        memory.answered()
        thread = threading.Thread(target=lambda: others.append(memory.admit()))
        thread.start()
        thread.join()
        assert others == [False, True]

    def test_an_asker_left_unanswered_again_starts_another_pause(self, settings):
        settings.DB_UNAVAILABLE_SECONDS = 0.05
        memory = Availability()
        memory.unanswered()
        time.sleep(0.1)
        assert memory.admit()
        settings.DB_UNAVAILABLE_SECONDS = 60
        memory.unanswered()
        assert not memory.admit()

    def test_an_asker_refused_at_once_lets_another_ask(self, settings):
        settings.DB_UNAVAILABLE_SECONDS = 0.05
        memory = Availability()
        memory.unanswered()
        time.sleep(0.1)
        assert memory.admit()
        memory.gave_up()
        others = []
        thread = threading.Thread(target=lambda: others.append(memory.admit()))
        thread.start()
        thread.join()
        assert others == [True]

    def test_no_pause_when_it_is_set_to_zero(self, settings):
        settings.DB_UNAVAILABLE_SECONDS = 0
        memory = Availability()
        memory.unanswered()
        assert memory.admit() and not memory.down()
