"""Throttle counts that hold when requests arrive at the same time, on a cache every app
server shares (Redis through Django's RedisCache, as in production)."""

import os
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.db import connections
from django.test import RequestFactory

from paletti.throttles import MatchActionThrottle

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("DJANGO_REDIS_URL", "redis://127.0.0.1:6379/0")
FIXED_TIME = 60 * 29_000_000 + 5.0  # 5 s into a minute: no window boundary crossed


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture
def redis_cache(settings):
    if not redis_answers():
        pytest.skip(f"no Redis server at {REDIS_URL}")
    prefix = f"test-throttle-{uuid.uuid4().hex}"
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
        },
    }
    yield cache
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


class FixedTimeActionThrottle(MatchActionThrottle):
    timer = staticmethod(lambda: FIXED_TIME)


def allowed_among(requests: int, threads: int) -> int:
    factory = RequestFactory()

    def one(_):
        request = factory.post("/api/paletti/matches/x/actions/", REMOTE_ADDR="192.0.2.77")
        return FixedTimeActionThrottle().allow_request(request, None)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return sum(pool.map(one, range(requests)))


@pytest.mark.parametrize("threads", [4, 8])
def test_a_limit_holds_with_requests_at_the_same_time(redis_cache, settings, threads):
    """800 posts, `threads` at a time, against 600/min: exactly 600 pass."""
    settings.PALETTI_THROTTLE_RATES = {"match-actions": "600/min"}
    assert allowed_among(800, threads) == 600


def test_refused_requests_are_not_counted_and_another_address_is_apart(redis_cache, settings):
    settings.PALETTI_THROTTLE_RATES = {"match-actions": "3/min"}
    factory = RequestFactory()

    def post(address):
        throttle = FixedTimeActionThrottle()
        request = factory.post("/", REMOTE_ADDR=address)
        return throttle.allow_request(request, None), throttle.wait()

    answers = [post("192.0.2.1") for _ in range(6)]
    assert [allowed for allowed, _ in answers] == [True, True, True, False, False, False]
    # Room again when the first of the three leaves the last 60 s.
    assert {wait for allowed, wait in answers if not allowed} == {60}
    assert post("192.0.2.2")[0] is True


def run_django(code: str, **env) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update(DJANGO_SETTINGS_MODULE="catalogue.settings", **env)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_counts_in_redis_when_configured_and_in_the_database_otherwise():
    if not redis_answers():
        pytest.skip(f"no Redis server at {REDIS_URL}")
    prefix = f"test-settings-{uuid.uuid4().hex}"
    code = (
        "from django.core.cache import caches; cache = caches['default']; "
        "cache.set('probe', 7, 30); print(type(cache).__name__, cache.get('probe'))"
    )
    assert run_django(code, DJANGO_REDIS_URL=REDIS_URL, DJANGO_CACHE_KEY_PREFIX=prefix) == (
        "RedisCache 7"
    )
    client = redis.Redis.from_url(REDIS_URL)
    assert list(client.scan_iter(f"{prefix}:*"))  # it went to that Redis
    client.delete(*client.scan_iter(f"{prefix}:*"))
    code = "from django.core.cache import caches; print(type(caches['default']).__name__)"
    assert run_django(code) == "DatabaseCache"


@pytest.fixture(params=["redis", "database"])
def throttle_log(request, settings):
    """Where the throttles count: Redis, or (no Redis cache) the database's log."""
    if request.param == "redis":
        request.getfixturevalue("redis_cache")
    else:
        settings.CACHES = {
            **settings.CACHES,
            # The configuration a newcomer runs: the database's cache table.
            "default": {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "django_cache",
            },
        }
    return request.param


class Clock:
    def __init__(self, now):
        self.now = now


def posts_let_through(clock, times: int, address="192.0.2.90") -> int:
    factory = RequestFactory()
    throttle_class = type("Timed", (MatchActionThrottle,), {"timer": lambda self: clock.now})
    request = factory.post("/", REMOTE_ADDR=address)
    return sum(throttle_class().allow_request(request, None) for _ in range(times))


@pytest.mark.django_db(transaction=True)
def test_a_rate_holds_in_any_minute_across_a_boundary(throttle_log, settings):
    """600 posts in the last second of a minute, then 600 more 20 s later: the second
    burst lies in the same 60 s as the first, so none of it passes until the first has
    left the last 60 s. (Two per-minute counters let 200 of them through.)"""
    settings.PALETTI_THROTTLE_RATES = {"match-actions": "60/min"}
    start = 60 * 29_000_000
    clock = Clock(start + 59.0)
    assert posts_let_through(clock, 60) == 60
    clock.now = start + 80.0
    assert posts_let_through(clock, 60) == 0
    clock.now = start + 118.9
    assert posts_let_through(clock, 5) == 0
    clock.now = start + 119.1  # the first burst has left the last 60 s
    assert posts_let_through(clock, 80) == 60


@pytest.mark.django_db(transaction=True)
def test_a_rate_holds_with_clients_at_the_same_time_wherever_it_counts(throttle_log, settings):
    settings.PALETTI_THROTTLE_RATES = {"match-actions": "20/min"}
    clock = Clock(FIXED_TIME)
    factory = RequestFactory()
    throttle_class = type("Timed", (MatchActionThrottle,), {"timer": lambda self: clock.now})

    def one(_):
        try:
            request = factory.post("/", REMOTE_ADDR="192.0.2.91")
            return throttle_class().allow_request(request, None)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sum(pool.map(one, range(40))) == 20
