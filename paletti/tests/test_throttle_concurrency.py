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
    assert {wait for allowed, wait in answers if not allowed} == {55}  # the minute's rest
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
