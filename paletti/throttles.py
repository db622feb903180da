"""How often one client address may start matches and post actions.

The rates come from settings.PALETTI_THROTTLE_RATES (DJANGO_THROTTLE_* in the environment),
read on each request so that they can be changed without touching code. The address is
catalogue.clients.client_address: the socket's, or behind DJANGO_NUM_PROXIES proxies the
one the outermost trusted proxy saw; never a header the client wrote itself.

A rate "600/min" means at most 600 requests in any 60 seconds, exactly: each counted
request is an entry in a log kept per client and scope (a sliding log), and a request is
let through only if fewer than 600 entries lie within the last 60 s, the check and the
new entry being one atomic step. Where the log lives, every app server sees it:
- on Redis (the default cache is Django's RedisCache): a sorted set, checked and written
  by one Lua script, which Redis runs atomically;
- otherwise in the database (ThrottleEntry), inside a transaction that holds the client's
  key: a PostgreSQL advisory lock, or SQLite's write lock (taken at the transaction's
  start: settings, transaction_mode IMMEDIATE).
Two counters per fixed window, as before, let up to 1.2 times the rate through across a
window's boundary (664 to 729 of 600); counting with the database cache's increments
(a read then a write) let every request through with 8 clients at once.

The engine's own bound (`engine_time`) is kept per match as well as per address. A
library's tables share one address: counted per address alone, one engine request at a
time, the second table's move was refused (429) while the first's was being worked out.
So one request at a time runs per match (and address), a few at once per address (enough
for two tables; more would let one address take every worker by posting in many matches
at once), and the CPU budget stays per address: it is the server's time that is shared
out, and a client who opens more matches gets no more of it.
"""

import math
import secrets
import time
from contextlib import contextmanager
from functools import lru_cache

import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction
from rest_framework.throttling import BaseThrottle

from catalogue.clients import client_address

from .models import ThrottleEntry

# Check the log and, if there is room, add to it; else say when the oldest entry leaves.
# Redis runs a script whole, with nothing in between. Numbers go back as strings (Lua's
# numbers would be cut to integers).
TAKE = """
local key, now, duration, limit, token = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]),
    tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - duration)
if redis.call('ZCARD', key) < limit then
  redis.call('ZADD', key, now, token)
  redis.call('PEXPIRE', key, math.ceil(duration * 1000) + 1000)
  return ''
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + duration - now)
"""


@lru_cache(maxsize=4)
def _redis(location: str) -> redis.Redis:
    # As the cache's own client: give up within a second on a Redis that hangs.
    return redis.Redis.from_url(location, socket_connect_timeout=1, socket_timeout=1)


def _redis_of_cache():
    """The Redis client of the default cache, or None when the cache is not Redis."""
    if not isinstance(caches["default"], RedisCache):
        return None
    location = settings.CACHES["default"]["LOCATION"]
    return _redis(location if isinstance(location, str) else location[0])


def take(key: str, limit: int, duration: float, now: float) -> tuple[str | None, float]:
    """Count one request under `key` if fewer than `limit` were counted in the last
    `duration` seconds: (its token, 0). Otherwise (None, seconds until there is room)."""
    token = secrets.token_hex(16)
    client = _redis_of_cache()
    if client is not None:
        wait = client.eval(
            TAKE, 1, caches["default"].make_key(key), repr(now), duration, limit, token
        )
        return (token, 0.0) if not wait else (None, float(wait))
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])
        ThrottleEntry.objects.filter(key=key, at__lte=now - duration).delete()
        times = list(
            ThrottleEntry.objects.filter(key=key)
            .order_by("at")
            .values_list("at", flat=True)[:limit]
        )
        if len(times) < limit:
            ThrottleEntry.objects.create(key=key, at=now, token=token)
            return token, 0.0
        return None, times[0] + duration - now


def give_back(key: str, token: str) -> None:
    """Take a counted request out of the log (a slot held while work ran)."""
    client = _redis_of_cache()
    if client is not None:
        client.zrem(caches["default"].make_key(key), token)
    else:
        ThrottleEntry.objects.filter(token=token).delete()


def forget_before(moment: float) -> int:
    """Remove the database log's entries older than `moment` (for paletti_cleanup): a
    client that stopped coming leaves its last window's entries behind."""
    deleted, _ = ThrottleEntry.objects.filter(at__lt=moment).delete()
    return deleted


class PalettiThrottle(BaseThrottle):
    """Per client address, in the scope's rate ("120/hour"); no rate means no limit."""

    scope = ""
    timer = time.time

    def __init__(self):
        self.wait_seconds = None

    def get_rate(self):
        return settings.PALETTI_THROTTLE_RATES.get(self.scope) or None

    def get_ident(self, request):
        return client_address(request)

    def allow_request(self, request, view):
        rate = self.get_rate()
        if not rate:
            return True
        limit, duration = parse_rate(rate)
        key = f"throttle:{self.scope}:{self.get_ident(request)}"
        token, wait = take(key, limit, duration, self.timer())
        if token is None:
            self.wait_seconds = wait
        return token is not None

    def wait(self):
        return None if self.wait_seconds is None else max(1, math.ceil(self.wait_seconds))


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """ "600/min" → (600, 60), as DRF reads its rates."""
    number, period = rate.split("/")
    return int(number), PERIODS[period.strip()[0]]


class MatchCreationThrottle(PalettiThrottle):
    scope = "match-creation"


class MatchActionThrottle(PalettiThrottle):
    scope = "match-actions"


class EngineLimit(Exception):
    """The client may not run the engine now: `wait` seconds until it may."""

    def __init__(self, code: str, wait: float):
        super().__init__(code)
        self.code = code
        self.wait = max(1, math.ceil(wait))


@contextmanager
def engine_time(request, match_id):
    """Bound the engine work one client address may cause (settings.PALETTI_ENGINE_LIMITS).

    A request that runs the engine (a person's action and the bots' answers, or the first
    turns of bots in a new match) in match `match_id` may start only
    - while no other engine work of that address runs in that match (`concurrent`,
      default 1: a second post for the same turn could only be refused once the engine
      had run);
    - while fewer than `concurrent_per_address` (default 2) engine requests of that
      address run in all its matches: two tables behind one library's address play at
      once, and a single address cannot start one engine request per match it holds and
      so take every worker;
    - while the address has used less than `seconds_per_minute` of engine CPU time in the
      last minute: the budget stays per address, whatever its tables, since it is the
      server's CPU that it shares out.
    The CPU time the block used is then charged. Otherwise EngineLimit, which the API
    answers with 429 and Retry-After. Each slot is an entry of the throttles' log
    (`take`, exact), given back when the work ends and gone by itself after
    ENGINE_SLOT_SECONDS should a worker die holding it. The CPU time is an estimate over
    the last minute from two per-minute counters in the shared cache; two tables' charges
    are increments of the same counter, which the cache adds atomically."""
    limits = settings.PALETTI_ENGINE_LIMITS
    budget, concurrent = limits.get("seconds_per_minute"), limits.get("concurrent")
    per_address = limits.get("concurrent_per_address")
    if not budget and not concurrent and not per_address:
        yield
        return
    ident = client_address(request)
    slots = []
    try:
        for key, limit in (
            (f"engine:running:{ident}:{match_id}", concurrent),
            (f"engine:running:{ident}", per_address),
        ):
            if limit:
                slot, _ = take(key, limit, ENGINE_SLOT_SECONDS, time.time())
                if slot is None:
                    raise EngineLimit("engine_busy", 1)
                slots.append((key, slot))
        if budget:
            now = time.time()
            window, into = divmod(now, 60)
            spent_ms = cache.get(f"engine:ms:{ident}:{int(window)}", 0)
            previous_ms = cache.get(f"engine:ms:{ident}:{int(window) - 1}", 0)
            if (spent_ms + previous_ms * (1 - into / 60)) / 1000 >= budget:
                raise EngineLimit("engine_budget", 60 - into)
        started = time.thread_time()
        try:
            yield
        finally:
            if budget:
                used_ms = max(1, math.ceil((time.thread_time() - started) * 1000))
                key = f"engine:ms:{ident}:{int(time.time() // 60)}"
                cache.add(key, 0, timeout=121)
                try:
                    cache.incr(key, used_ms)
                except ValueError:
                    cache.add(key, used_ms, timeout=121)
    finally:
        for key, slot in slots:
            give_back(key, slot)


# The longest one engine request may hold its client's slot should its worker die (a
# request with bots costs up to ~2.2 s of CPU; gunicorn kills a worker after 30 s).
ENGINE_SLOT_SECONDS = 60
