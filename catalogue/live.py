"""What wakes an open event stream (catalogue.streams) when the thing it follows changes:
a Villa Paletti match (paletti.live), a tournament (games.tournament.live).

The database stays the truth. Once a change is committed, the app server that stored it
publishes only a key and the new version on Redis (`publish`, one channel per followed
thing, `<prefix>:<key>`, a key such as `paletti:match:<id>` or `tournament:<id>`); every
ASGI process listens on the channels of the registered topics with one connection (`Hub`)
and wakes the streams that follow that key, which then read the database. Without Redis
(unset, down or not answering) a stream reads its version from the database every
`poll_seconds` instead; a process that stored the change wakes its own streams at once,
Redis or not.

It lives in the project package, beside the settings and the ASGI entry point, because it
is the site's plumbing and belongs to no domain: games/ may not import paletti/, and both
follow things live through it.
"""

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict

from django.conf import settings

logger = logging.getLogger(__name__)

# After Redis refused a publish, the next ones are skipped for this long: a change never
# waits on a Redis that is down (the streams poll the database meanwhile).
PUBLISH_PAUSE_SECONDS = 5.0
# The hub pings Redis this often and takes it for gone when no answer comes in PING_WAIT.
PING_SECONDS = 5.0
PING_WAIT = 2.0
RECONNECT_SECONDS = 2.0

# The topics streams follow ("paletti:match", "tournament"): the hub subscribes to each.
TOPICS: set[str] = set()


def limits() -> dict:
    return settings.LIVE_STREAMS


def topic(name: str) -> str:
    """Register a topic (at import, by the module whose streams follow it)."""
    TOPICS.add(name)
    return name


def channel(key: str) -> str:
    return f"{limits()['key_prefix']}:{key}"


# Publishing (sync: called by the request that stored the change) --------------------------

_publisher = {"client": None, "paused_until": 0.0}
_publisher_lock = threading.Lock()


def client():
    """This process's Redis client for publishing (and paletti's presence marks)."""
    import redis

    with _publisher_lock:
        if _publisher["client"] is None:
            _publisher["client"] = redis.Redis.from_url(
                limits()["redis_url"], socket_connect_timeout=0.5, socket_timeout=0.5
            )
        return _publisher["client"]


def redis_paused() -> bool:
    """Redis unset, or refused lately: skip it (the streams poll)."""
    return not limits()["redis_url"] or time.monotonic() < _publisher["paused_until"]


def refused(what: str, error) -> None:
    _publisher["paused_until"] = time.monotonic() + PUBLISH_PAUSE_SECONDS
    logger.warning("Redis refused %s: %s", what, error)


def publish(key: str, version) -> None:
    """Say that `key` is at `version` now (after the commit: transaction.on_commit).
    Never raises: a stream that misses it finds the version at its next read."""
    HUB.wake_threadsafe(key)
    if redis_paused():
        return
    import redis

    try:
        client().publish(channel(key), str(version))
    except redis.RedisError as error:
        refused(f"the publish of {key}", error)


# Listening (async: in each ASGI process) ---------------------------------------------------


class Hub:
    """One per process: the streams open in it, by key, each an asyncio.Event set when
    what it follows may have moved on; and one Redis connection subscribed to every
    topic's channels (a pattern each), reconnecting while Redis is away. `live` says
    whether a notification can be counted on now; while it is False the streams poll."""

    def __init__(self):
        self.watchers: dict[str, set[asyncio.Event]] = defaultdict(set)
        self.live = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task | None = None

    # Streams

    @contextlib.contextmanager
    def watch(self, key: str):
        self._start()
        event = asyncio.Event()
        self.watchers[key].add(event)
        try:
            yield event
        finally:
            self.watchers[key].discard(event)
            if not self.watchers[key]:
                del self.watchers[key]

    def wake(self, key: str) -> None:
        for event in self.watchers.get(key, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self.watchers.values():
            for event in events:
                event.set()

    def wake_threadsafe(self, key: str) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.wake, key)

    # Redis

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop or self.task is None or self.task.done():
            self.loop = loop
            self.live = False
            if limits()["redis_url"]:
                self.task = loop.create_task(self._listen_forever())

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 (Redis away: poll, and try again)
                if self.live:
                    logger.warning("Lost Redis for the event streams: %s", error)
            self.live = False
            self.wake_all()  # each stream reads the database now, then polls
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _listen(self) -> None:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(
            limits()["redis_url"], socket_connect_timeout=1, socket_keepalive=True
        )
        pubsub = client.pubsub()
        prefix = channel("")
        subscribed: set[str] = set()
        try:
            self.live = False
            while True:
                # A topic registered since (a module imported late) is subscribed to now.
                for name in TOPICS - subscribed:
                    await asyncio.wait_for(pubsub.psubscribe(f"{prefix}{name}:*"), PING_WAIT)
                    subscribed.add(name)
                if not self.live:
                    self.live = True
                    self.wake_all()  # anything published while we were away is read now
                    pinged, answered = time.monotonic(), time.monotonic()
                message = await pubsub.get_message(timeout=1.0)
                now = time.monotonic()
                if message is not None:
                    answered = now
                    if message["type"] == "pmessage":
                        self.wake(message["channel"].decode()[len(prefix) :])
                if now - pinged >= PING_SECONDS:
                    await asyncio.wait_for(pubsub.ping(), PING_WAIT)
                    pinged = now
                if answered < pinged and now - pinged > PING_WAIT:
                    raise ConnectionError("Redis stopped answering pings")
        finally:
            self.live = False
            with contextlib.suppress(Exception):
                await pubsub.aclose()
                await client.aclose()


HUB = Hub()
