"""Fixtures shared by every test module."""

from pathlib import Path

import pytest
from django.core.management import call_command

from catalogue.testing import reaches_the_database

SEED_FIXTURES = ["fixtures/games.json"]


@pytest.fixture(autouse=True)
def _no_throttling(settings):
    """Tests post far faster than any class would; the throttles' own tests set rates."""
    settings.PALETTI_THROTTLE_RATES = {}
    settings.TOURNAMENT_THROTTLE_RATES = {}
    settings.PALETTI_ENGINE_LIMITS = {}


@pytest.fixture(autouse=True)
def _commits_applied_at_once(request, monkeypatch):
    """A test's writes run in a transaction that is rolled back, never committed: what
    the site does once a transaction commits (reindex the games it changed, bump the
    catalogue's version: games.signals) is done at once instead. Tests marked with real
    transactions commit, and keep the site's own behaviour."""
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        return
    monkeypatch.setattr("games.signals.on_commit", lambda callback: callback())


@pytest.fixture(autouse=True)
def empty_page_cache():
    """Each test's database starts from the same catalogue version: forget cached pages."""
    from django.core.cache import caches

    caches["pages"].clear()


@pytest.fixture(autouse=True)
def _no_language_left_active():
    """Each test starts in the settings' language: a request or a command of an earlier
    test on the same thread may have left its own language active."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def seed(db):
    """The three seed games with their ESAR categories and people. The categories come
    with the migrations; a transactional test before this one may have flushed them."""
    from games.esar import ensure_facet_a

    ensure_facet_a()
    call_command("loaddata", *SEED_FIXTURES, verbosity=0)


def pytest_sessionfinish(session, exitstatus):
    """Remove the SQLite test database's WAL side files, which Django leaves behind."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        for suffix in ("-wal", "-shm"):
            Path(name + suffix).unlink(missing_ok=True)


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="Run only the tests that reach the database (CI runs these again on PostgreSQL; "
        "the engine's and the other pure tests give the same answer on any database).",
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    kept, dropped = [], []
    for item in items:
        (kept if reaches_the_database(item) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
