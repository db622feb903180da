"""A database that accepts connections and answers nothing, seen from outside.

Run from the repository root:

    .venv/bin/python bench/hung_database.py [--rounds 3] [--visitors 16] [--checkout PATH]

It makes a fresh PostgreSQL database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludotheque_hung_bench; dropped and created), migrates it,
loads the seed games, collects the static files, and starts gunicorn on 127.0.0.1:8811 with
the README's command (`--gunicorn-args`, default "--workers 2 --timeout 30"; the checkout's
gunicorn.conf.py, when it has one, adds the rest) and production settings (DEBUG off, a
secret key, allowed hosts, HTTPS said by the X-Forwarded-Proto header a balancer would
send), Redis as the shared cache when BENCH_REDIS_URL answers (default
redis://127.0.0.1:6379/0). The server reaches PostgreSQL through a TCP proxy in this
process that can freeze: connections stay open, bytes are taken in and held, nothing is
answered (games/tests/proxies.py).

Each round, with the database frozen from a warm start:
- `wave`: `--visitors` clients at once, each asking one of a static file, the Villa Paletti
  set-up page (no database), /healthz, a catalogue page and the admin's login page, in
  turn; then a second wave at once after the first (`wave 2`);
- `alone`: /healthz alone, then the catalogue page alone, each from a fresh freeze;
- `locked`: the database answering, but the catalogue's tables held by another session
  (`LOCK TABLE … IN ACCESS EXCLUSIVE MODE`): /healthz alone, then the catalogue page.
It prints, for each figure, the median over the rounds of the slowest answer of that kind
and the status codes seen. `--checkout` serves another worktree's code (before a change)
with its own .venv, measured by this script and proxy.
"""

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from games.tests.proxies import FreezableProxy  # noqa: E402

HOST, PORT = "127.0.0.1", 8811
PATHS = {
    "static file": "/static/favicon.svg",
    "set-up page": "/en/paletti/",
    "healthz": "/healthz",
    "catalogue page": "/en/games/",
    "admin login": "/en/admin/login/",
}
LOCKED_TABLES = ("games_game", "games_catalogueversion")


def ask(path, timeout=90):
    """One visitor: a new connection, one GET; (status, seconds), status None on failure."""
    connection = http.client.HTTPConnection(HOST, PORT, timeout=timeout)
    headers = {"Host": "localhost", "Accept-Language": "en", "X-Forwarded-Proto": "https"}
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = None
    finally:
        connection.close()
    return status, time.perf_counter() - started


def wave(visitors, kinds=tuple(PATHS)):
    """`visitors` clients at once, each asking one kind in turn: {kind: [(status, s)]}."""
    kinds = list(kinds)
    results = defaultdict(list)
    lock = threading.Lock()
    barrier = threading.Barrier(visitors)

    def visit(index):
        kind = kinds[index % len(kinds)]
        barrier.wait()
        outcome = ask(PATHS[kind])
        with lock:
            results[kind].append(outcome)

    threads = [threading.Thread(target=visit, args=(i,)) for i in range(visitors)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def wait_healthy(visitors=16, seconds=90):
    """Until three waves of /healthz in a row all answer 200: each server process keeps its
    own memory of a database that did not answer, so one 200 says nothing of the others."""
    deadline = time.monotonic() + seconds
    in_a_row = 0
    while in_a_row < 3:
        if time.monotonic() > deadline:
            raise SystemExit("the server did not become healthy")
        codes = [
            status for outcomes in wave(visitors, ["healthz"]).values() for status, _ in outcomes
        ]
        in_a_row = in_a_row + 1 if set(codes) == {200} else 0
        time.sleep(0.2)


def warm(visitors):
    """Every kind asked, `visitors` at once, twice: each worker and thread that answers has
    its kept database connection, as on a server in use."""
    for _ in range(2):
        wave(visitors)
    wait_healthy()


def one_round(proxy, visitors, direct_params):
    figures = defaultdict(list)  # "phase: kind" → [(status, seconds)]
    warm(visitors)
    proxy.frozen.set()
    for phase in ("wave", "wave 2"):
        outcomes = wave(visitors)
        for kind in PATHS:
            figures[f"{phase}: {kind}"] += outcomes[kind]
    for kind in ("healthz", "catalogue page"):
        proxy.frozen.clear()
        wait_healthy()
        warm(visitors)
        proxy.frozen.set()
        figures[f"alone: {kind}"].append(ask(PATHS[kind]))
    proxy.frozen.clear()
    wait_healthy()
    warm(visitors)
    import psycopg

    with psycopg.connect(**direct_params) as locker:
        locker.execute(f"LOCK TABLE {', '.join(LOCKED_TABLES)} IN ACCESS EXCLUSIVE MODE")
        for kind in ("healthz", "catalogue page"):
            figures[f"locked: {kind}"].append(ask(PATHS[kind]))
        locker.rollback()
    wait_healthy()
    return figures


def redis_url():
    url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception:  # noqa: BLE001 (no Redis: the database's cache table)
        return ""
    return url


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--visitors", type=int, default=16)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the code to serve")
    parser.add_argument("--gunicorn-args", default="--workers 2 --timeout 30")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ludotheque_hung_bench"
    )
    import dj_database_url

    database = dj_database_url.parse(url)
    direct = {
        "host": database["HOST"] or "127.0.0.1",
        "port": int(database["PORT"] or 5432),
        "user": database["USER"] or "postgres",
        "dbname": database["NAME"],
    }
    if database["PASSWORD"]:
        direct["password"] = database["PASSWORD"]
    proxy = FreezableProxy(direct["host"], direct["port"])
    proxied = url.replace(f"{direct['host']}:{direct['port']}", f"127.0.0.1:{proxy.port}")
    if proxied == url:
        raise SystemExit("BENCH_DATABASE_URL must name its host and port")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "catalogue.settings",
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": "bench-only-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "localhost",
        "DJANGO_REDIS_URL": redis_url(),
        "DJANGO_CACHE_KEY_PREFIX": f"hung-database-{os.getpid()}",
    }
    python = str(checkout / ".venv" / "bin" / "python")
    for command in (["dropdb", "--if-exists", direct["dbname"]], ["createdb", direct["dbname"]]):
        subprocess.run(
            [*command[:1], "-h", direct["host"], "-p", str(direct["port"]), "-U", direct["user"]]
            + command[1:],
            check=True,
        )
    commands = (["migrate", "-v0"], ["createcachetable"], ["seed"], ["collectstatic", "--noinput"])
    for command in commands:
        subprocess.run([python, "manage.py", *command], cwd=checkout, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    gunicorn = [str(checkout / ".venv" / "bin" / "gunicorn"), "catalogue.wsgi"]
    gunicorn += [*args.gunicorn_args.split(), "--bind", f"{HOST}:{PORT}", "--log-level", "error"]
    log_path = Path(tempfile.gettempdir()) / f"hung-database-{os.getpid()}.log"
    print("serving", checkout, "with:", " ".join(gunicorn[1:]), "\nits log:", log_path)
    log = log_path.open("w")
    server = subprocess.Popen(
        gunicorn,
        cwd=checkout,
        env={**env, "DATABASE_URL": proxied},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    rounds = []
    try:
        wait_healthy()
        for number in range(args.rounds):
            rounds.append(one_round(proxy, args.visitors, direct))
            print(f"round {number + 1} of {args.rounds} done", flush=True)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        proxy.close()
    report(rounds)


def report(rounds):
    print(f"\nslowest answer of each kind, median of {len(rounds)} rounds (s); statuses seen")
    for figure in rounds[0]:
        slowest = [max(seconds for _, seconds in r[figure]) for r in rounds]
        statuses = sorted({str(status) for r in rounds for status, _ in r[figure]})
        print(f"  {figure:28} {statistics.median(slowest):6.2f}   {' '.join(statuses)}")


if __name__ == "__main__":
    main()
