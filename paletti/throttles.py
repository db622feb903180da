"""How often one client address may start matches and post actions.

The rates come from settings.PALETTI_THROTTLE_RATES (DJANGO_THROTTLE_* in the environment),
read on each request so that they can be changed without touching code. The address is
catalogue.clients.client_address: the socket's, or behind DJANGO_NUM_PROXIES proxies the
one the outermost trusted proxy saw; never a header the client wrote itself.

The counts live in Django's default cache, which every app server shares (settings.CACHES:
Redis in production, else a table of the database). DRF's own throttle reads a list of
timestamps, appends and writes it back: two requests at once each write their own list
and one of them is lost (800 posts passed a 600/minute limit with 8 at a time). Here each
request is one atomic increment of a counter per window (`cache.add` then `cache.incr`,
single commands on Redis), and the count is the current window's plus the previous
window's share of the time still inside the last `duration` seconds (a sliding window,
estimated from two counters). A refused request is taken back out of the count.
"""

import math
import time
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from catalogue.clients import client_address


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
        now = self.timer()
        window, into = divmod(now, duration)
        key = f"throttle:{self.scope}:{self.get_ident(request)}:{int(window)}"
        previous_key = f"throttle:{self.scope}:{self.get_ident(request)}:{int(window) - 1}"
        count = _increment(key, timeout=2 * duration + 1)
        previous = cache.get(previous_key, 0)
        share = 1 - into / duration  # of the previous window still within `duration`
        if count + previous * share <= limit:
            return True
        _take_back(key)
        if count > limit or not previous:
            self.wait_seconds = duration - into
        else:
            # The previous window's share must fall below what the current one leaves.
            free_share = (limit - count + 1) / previous
            self.wait_seconds = max(0.0, (share - free_share) * duration)
        return False

    def wait(self):
        return None if self.wait_seconds is None else max(1, math.ceil(self.wait_seconds))


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """ "600/min" → (600, 60), as DRF reads its rates."""
    number, period = rate.split("/")
    return int(number), PERIODS[period.strip()[0]]


def _take_back(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:  # expired meanwhile: nothing to take back
        pass


def _increment(key: str, *, timeout: int) -> int:
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two commands: this request opens it
        cache.add(key, 1, timeout=timeout)
        return 1


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
def engine_time(request):
    """Bound the engine work one client address may cause (settings.PALETTI_ENGINE_LIMITS).

    A request that runs the engine (a person's action and the bots' answers, or the first
    turns of bots in a new match) may start only while the address has no other engine
    work under way (`concurrent`, default 1: with two workers a server always keeps one
    for everybody else) and has used less than `seconds_per_minute` of engine CPU time in
    the last minute; the CPU time the block used is then charged. Otherwise EngineLimit,
    which the API answers with 429 and Retry-After. Both counts live in the shared cache,
    so every app server sees them."""
    limits = settings.PALETTI_ENGINE_LIMITS
    budget, concurrent = limits.get("seconds_per_minute"), limits.get("concurrent")
    if not budget and not concurrent:
        yield
        return
    ident = client_address(request)
    running_key = f"engine:running:{ident}"
    if concurrent:
        # Expires by itself should a worker die holding it.
        if _increment(running_key, timeout=ENGINE_SLOT_SECONDS) > concurrent:
            _take_back(running_key)
            raise EngineLimit("engine_busy", 1)
    try:
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
        if concurrent:
            _take_back(running_key)


# The longest one engine request may hold its client's slot should its worker die (a
# request with bots costs up to ~2.2 s of CPU; gunicorn kills a worker after 30 s).
ENGINE_SLOT_SECONDS = 60
