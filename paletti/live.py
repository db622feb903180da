"""Following a match live: what wakes an open event stream when a match moves on.

The database stays the truth. Once an action is committed, the app server that stored it
publishes only the match's id and its new version on Redis (`publish`, one channel per
match, `<prefix>:paletti:match:<id>`); every ASGI process listens on those channels with
one connection (`Hub`) and wakes the streams that follow that match, which then read the
match from the database. Without Redis (unset, down or not answering) a stream reads the
match's version from the database every `poll_seconds` instead; a process that stored the
action wakes its own streams at once, Redis or not.
"""

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict

from django.conf import settings

logger = logging.getLogger(__name__)

# After Redis refused a publish, the next ones are skipped for this long: an action never
# waits on a Redis that is down (the streams poll the database meanwhile).
PUBLISH_PAUSE_SECONDS = 5.0
# The hub pings Redis this often and takes it for gone when no answer comes in PING_WAIT.
PING_SECONDS = 5.0
PING_WAIT = 2.0
RECONNECT_SECONDS = 2.0


def limits() -> dict:
    return settings.PALETTI_LIVE


def channel_prefix() -> str:
    return f"{limits()['key_prefix']}:paletti:match:"


def channel(match_id) -> str:
    return f"{channel_prefix()}{match_id}"


# Publishing (sync: called by the request that stored the action) ---------------------------

_publisher = {"client": None, "paused_until": 0.0}
_publisher_lock = threading.Lock()


def _client():
    import redis

    with _publisher_lock:
        if _publisher["client"] is None:
            _publisher["client"] = redis.Redis.from_url(
                limits()["redis_url"], socket_connect_timeout=0.5, socket_timeout=0.5
            )
        return _publisher["client"]


def publish(match_id, version: int) -> None:
    """Say that `match_id` is at `version` now (after the commit: transaction.on_commit).
    Never raises: a stream that misses it finds the version at its next read."""
    HUB.wake_threadsafe(str(match_id))
    if not limits()["redis_url"] or time.monotonic() < _publisher["paused_until"]:
        return
    import redis

    try:
        _client().publish(channel(match_id), str(version))
    except redis.RedisError as error:
        _publisher["paused_until"] = time.monotonic() + PUBLISH_PAUSE_SECONDS
        logger.warning("Redis refused the publish of match %s: %s", match_id, error)


# Listening (async: in each ASGI process) ---------------------------------------------------


class Hub:
    """One per process: the streams open in it, by match, each an asyncio.Event set when
    its match may have moved on; and one Redis connection subscribed to every match's
    channel (a pattern), reconnecting while Redis is away. `live` says whether a
    notification can be counted on now; while it is False the streams poll."""

    def __init__(self):
        self.watchers: dict[str, set[asyncio.Event]] = defaultdict(set)
        self.live = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task | None = None

    # Streams

    @contextlib.contextmanager
    def watch(self, match_id: str):
        self._start()
        event = asyncio.Event()
        self.watchers[match_id].add(event)
        try:
            yield event
        finally:
            self.watchers[match_id].discard(event)
            if not self.watchers[match_id]:
                del self.watchers[match_id]

    def wake(self, match_id: str) -> None:
        for event in self.watchers.get(match_id, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self.watchers.values():
            for event in events:
                event.set()

    def wake_threadsafe(self, match_id: str) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.wake, match_id)

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
                    logger.warning("Lost Redis for the match streams: %s", error)
            self.live = False
            self.wake_all()  # each stream reads the database now, then polls
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _listen(self) -> None:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(
            limits()["redis_url"], socket_connect_timeout=1, socket_keepalive=True
        )
        pubsub = client.pubsub()
        prefix = channel_prefix()
        try:
            await asyncio.wait_for(pubsub.psubscribe(prefix + "*"), PING_WAIT)
            self.live = True
            self.wake_all()  # anything published while we were away is read now
            pinged, answered = time.monotonic(), time.monotonic()
            while True:
                message = await pubsub.get_message(timeout=1.0)
                now = time.monotonic()
                if message is not None:
                    answered = now
                    if message["type"] == "pmessage":
                        name = message["channel"].decode()
                        self.wake(name[len(prefix) :])
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


# Presence (sync: in the streams' reading threads) ----------------------------------------

# A device's mark on a seat lasts PRESENCE_SECONDS; its open stream renews it, and reads the
# others', every PRESENCE_REFRESH: a closed tab is seen away 8 to 11 s later (ours).
PRESENCE_SECONDS = 8
PRESENCE_REFRESH = 3.0


def presence_key(match_id, seat: int) -> str:
    return f"{limits()['key_prefix']}:paletti:presence:{match_id}:{seat}"


def presence_on() -> bool:
    return bool(limits()["redis_url"])


def refresh_presence(match_id, mine, humans) -> dict[int, bool] | None:
    """Mark the seats this device plays (`mine`) as connected, and read which of the
    match's persons' seats (`humans`) are; a seat newly marked wakes the match's other
    streams at once. None while Redis does not answer (presence unknown)."""
    import redis

    if not presence_on() or time.monotonic() < _publisher["paused_until"]:
        return None
    try:
        client = _client()
        pipe = client.pipeline(transaction=False)
        for seat in mine:
            key = presence_key(match_id, seat)
            pipe.set(key, "1", ex=PRESENCE_SECONDS, nx=True)
            pipe.expire(key, PRESENCE_SECONDS)
        created = pipe.execute()[0::2]
        if any(created):
            client.publish(channel(match_id), "presence")
        keys = [presence_key(match_id, seat) for seat in humans]
        values = client.mget(keys) if keys else []
    except redis.RedisError as error:
        _publisher["paused_until"] = time.monotonic() + PUBLISH_PAUSE_SECONDS
        logger.warning("Redis refused the presence of match %s: %s", match_id, error)
        return None
    return {seat: value is not None for seat, value in zip(humans, values, strict=True)}
