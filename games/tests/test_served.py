"""The site as gunicorn serves it (the README's command, gunicorn.conf.py), seen from
outside: a database that hangs holds up only the pages that need it, and requests gunicorn
cannot parse get the API's JSON errors."""

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from csp.utils import build_policy
from django.db import connection
from django.urls import reverse

from games.tests.proxies import FreezableProxy, wait_for_sessions_to_end

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        return listener.getsockname()[1]


def ask(port, path, timeout=60):
    """A visitor's GET on a new connection: (status, seconds); status None on failure."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    try:
        client.request("GET", path, headers={"Accept-Language": "en"})
        response = client.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = None
    finally:
        client.close()
    return status, time.perf_counter() - started


@contextmanager
def gunicorn(tmp_path, database_url, **environ):
    """The README's command run from the checkout (so gunicorn.conf.py applies), DEBUG
    off, its static files collected into `tmp_path`; yields its port."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
        **environ,
    }
    env.pop("DJANGO_PRODUCTION", None)
    manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True)
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "catalogue.wsgi", "--workers", "2"]
        + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while ask(port, reverse("paletti:setup"), timeout=5)[0] != 200:
            assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def visitors_at_once(port, paths: dict, count=16) -> dict:
    """`count` visitors at once, each asking one of `paths` in turn: {kind: [(status, s)]}."""
    kinds = list(paths)
    results = {kind: [] for kind in kinds}
    barrier = threading.Barrier(count)

    def visit(index):
        kind = kinds[index % len(kinds)]
        barrier.wait()
        results[kind].append(ask(port, paths[kind]))

    threads = [threading.Thread(target=visit, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def slowest(outcomes):
    return max(seconds for _, seconds in outcomes)


def statuses(outcomes):
    return {status for status, _ in outcomes}


@pytest.mark.django_db(transaction=True)
def test_a_database_that_hangs_holds_up_only_the_pages_that_need_it(seed, tmp_path):
    """With sync workers, 16 visitors on a database that answered nothing kept the static
    files and the set-up page waiting 11 to 14 s behind the database pages."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server to hang")
    db = connection.settings_dict
    proxy = FreezableProxy(db["HOST"] or "127.0.0.1", db["PORT"] or 5432)
    login = f"{db['USER']}:{db['PASSWORD']}" if db["PASSWORD"] else db["USER"]
    url = f"postgres://{login}@127.0.0.1:{proxy.port}/{db['NAME']}"
    paths = {
        "static": "/static/favicon.svg",
        "set-up": reverse("paletti:setup"),
        "healthz": reverse("healthz"),
        "catalogue": reverse("games:game-list"),
    }
    # The server waits 6 s for a connection: what needs no database must answer in much
    # less, whatever the machine's load, to show that it did not wait behind one.
    wait = 6
    # The pause after an unanswered request outlasts both rounds of visitors however slow
    # the machine (each round ends within 2 * wait): within it nobody waits; after it one
    # request asks the database again, and waits, by design.
    pause = 4 * wait
    try:
        with gunicorn(
            tmp_path,
            url,
            DJANGO_DB_CONNECT_TIMEOUT=str(wait),
            DJANGO_DB_UNAVAILABLE_SECONDS=str(pause),
        ) as port:
            for _ in range(2):  # every thread that answers keeps its connection
                warm = visitors_at_once(port, paths)
            proxy.frozen.set()
            first = visitors_at_once(port, paths)
            then = visitors_at_once(port, paths)
            proxy.frozen.clear()
            deadline = time.monotonic() + pause + 30
            while ask(port, paths["healthz"], timeout=10)[0] != 200:
                assert time.monotonic() < deadline, "the site did not recover"
                time.sleep(0.2)
            back = ask(port, paths["catalogue"])
    finally:
        proxy.close()
        wait_for_sessions_to_end(connection, proxy.server_ports)
    assert all(statuses(outcomes) == {200} for outcomes in warm.values()), warm
    for kind in ("static", "set-up"):
        assert statuses(first[kind]) == {200}, first[kind]
        assert slowest(first[kind]) < wait / 2, (kind, first[kind])
    # The database pages answer 503 once their one wait is over (sync workers queued them
    # one behind another, for several times that).
    for kind in ("healthz", "catalogue"):
        assert statuses(first[kind]) == {503}, first[kind]
        assert slowest(first[kind]) < 2 * wait, (kind, first[kind])
    # Once one request went unanswered, the others answer without waiting at all.
    for kind in ("healthz", "catalogue"):
        assert statuses(then[kind]) == {503}, then[kind]
        assert slowest(then[kind]) < wait / 2, (kind, then[kind])
    assert back[0] == 200


MALFORMED = {
    "a header name with a space": (
        b"GET /api/games/ HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n",
        400,
        "bad_request",
    ),
    "no request line": (b"GARBAGE\r\n\r\n", 400, "bad_request"),
    "too many headers": (
        b"GET /api/games/ HTTP/1.1\r\nHost: localhost\r\n" + b"X-A: b\r\n" * 200 + b"\r\n",
        431,
        "headers_too_large",
    ),
}


def raw(port, data: bytes) -> tuple[int, dict, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def test_requests_gunicorn_cannot_read_get_the_api_json_errors(tmp_path):
    with gunicorn(tmp_path, f"sqlite:///{tmp_path / 'unused.sqlite3'}") as port:
        answers = {name: raw(port, data) for name, (data, _, _) in MALFORMED.items()}
    for name, (_, status, code) in MALFORMED.items():
        got, headers, body = answers[name]
        assert got == status, name
        assert headers["Content-Type"] == "application/json", name
        assert json.loads(body)["code"] == code, name
        assert json.loads(body)["detail"]
        # The site's policy (its directives' order is django-csp's and may vary).
        assert set(headers["Content-Security-Policy"].split("; ")) == set(
            build_policy().split("; ")
        )
        assert headers["X-Frame-Options"] == "DENY"
