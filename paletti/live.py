"""Following a match live: what wakes an open event stream when a match moves on, and who
is connected.

The waking is catalogue.live's: once an action is committed, the app server that stored it
publishes only the match's id and its new version (`publish`, on the match's channel,
`<prefix>:paletti:match:<id>`); each ASGI process wakes the streams that follow that
match, which then read it from the database (or poll it while Redis is away).
"""

from catalogue import live

TOPIC = live.topic("paletti:match")


def key(match_id) -> str:
    return f"{TOPIC}:{match_id}"


def publish(match_id, version: int) -> None:
    """Say that `match_id` is at `version` now (after the commit: transaction.on_commit)."""
    live.publish(key(match_id), version)


# Presence (sync: in the streams' reading threads) ----------------------------------------

# A device's mark on a seat lasts PRESENCE_SECONDS; its open stream renews it, and reads the
# others', every PRESENCE_REFRESH: a closed tab is seen away 8 to 11 s later (ours).
PRESENCE_SECONDS = 8
PRESENCE_REFRESH = 3.0


def presence_key(match_id, seat: int) -> str:
    return f"{live.limits()['key_prefix']}:paletti:presence:{match_id}:{seat}"


def presence_on() -> bool:
    return bool(live.limits()["redis_url"])


def refresh_presence(match_id, mine, humans) -> dict[int, bool] | None:
    """Mark the seats this device plays (`mine`) as connected, and read which of the
    match's persons' seats (`humans`) are; a seat newly marked wakes the match's other
    streams at once. None while Redis does not answer (presence unknown)."""
    import redis

    if live.redis_paused():
        return None
    try:
        client = live.client()
        pipe = client.pipeline(transaction=False)
        for seat in mine:
            mark = presence_key(match_id, seat)
            pipe.set(mark, "1", ex=PRESENCE_SECONDS, nx=True)
            pipe.expire(mark, PRESENCE_SECONDS)
        created = pipe.execute()[0::2]
        if any(created):
            client.publish(live.channel(key(match_id)), "presence")
        marks = [presence_key(match_id, seat) for seat in humans]
        values = client.mget(marks) if marks else []
    except redis.RedisError as error:
        live.refused(f"the presence of match {match_id}", error)
        return None
    return {seat: value is not None for seat, value in zip(humans, values, strict=True)}
