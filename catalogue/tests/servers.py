"""Real servers for the event streams' tests (catalogue.streams): uvicorn processes over
the test database, with or without Redis, and a client that notes when each event comes."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import redis
import requests
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("DJANGO_REDIS_URL", "redis://127.0.0.1:6379/0")
# Nothing listens there: Redis is down for the notifications (the throttles count in the
# database, as without DJANGO_REDIS_URL).
NO_REDIS = "redis://127.0.0.1:1/0"


def events_of(text: str) -> list[dict]:
    """The events of an SSE body: each {"id", "event", "data"} (comments dropped)."""
    found = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, value = line.split(":", 1)
            fields[name] = value.removeprefix(" ")
        if "event" in fields:
            fields["data"] = json.loads(fields["data"])
            found.append(fields)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, host = settings["USER"] or "postgres", settings["HOST"] or "127.0.0.1"
    return f"postgres://{user}@{host}:{settings['PORT'] or 5432}/{settings['NAME']}"


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


class Server:
    def __init__(self, redis_url: str, prefix: str, **extra):
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        env.update(
            DJANGO_SETTINGS_MODULE="catalogue.settings",
            DATABASE_URL=database_url(),
            DJANGO_LIVE_REDIS_URL=redis_url,
            DJANGO_CACHE_KEY_PREFIX=prefix,
            # The polling fallback at its production period; notifications need none.
            DJANGO_STREAM_POLL_SECONDS="1",
            **extra,
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "catalogue.asgi:application",
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT, env=env,
        )  # fmt: skip
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(150):
            try:
                requests.get(self.url + "/healthz", timeout=20)
                return
            except requests.RequestException:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("uvicorn did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Listener(threading.Thread):
    """Reads a stream in the background, noting when each event arrives."""

    def __init__(self, url, headers):
        super().__init__(daemon=True)
        self.response = requests.get(url, headers=headers, stream=True, timeout=30)
        self.received = []  # (time.monotonic(), event)
        self.opened = threading.Event()

    def run(self):
        block = []
        self.opened.set()
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line:
                    block.append(line)
                    continue
                for event in events_of("\n".join(block) + "\n\n"):
                    self.received.append((time.monotonic(), event))
                block = []
        except (requests.RequestException, AttributeError, ValueError):
            pass  # closed by the test

    def wait_for(self, version, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for at, event in self.received:
                if event["event"] == "update" and int(event["id"]) >= version:
                    return at, event
            time.sleep(0.01)
        return None, None

    def close(self):
        # The reading thread waits in recv() until the server next writes (a keep-alive
        # comment every 15 s): shutting the socket ends that wait at once.
        connection = getattr(self.response.raw, "connection", None)
        sock = getattr(connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed by the server
        self.response.close()
