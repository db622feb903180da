"""Two app servers over one PostgreSQL: catalogue browsing and 50 matches played at once.

Run from the repository root:

    .venv/bin/python bench/two_servers.py [--seconds 60] [--matches 50] [--browsers 8]

It makes a fresh PostgreSQL database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludotheque_bench; dropped and created), migrates it,
loads the seed games, and starts two gunicorn instances on 127.0.0.1 only (ports 8801 and
8802, two workers each, production settings but plain HTTP, the default throttles, Redis as
the shared cache when BENCH_REDIS_URL answers, default redis://127.0.0.1:6379/0). The engine's
per-address bounds (DJANGO_ENGINE_CONCURRENT, DJANGO_ENGINE_SECONDS_PER_MINUTE) are off
unless `--engine-limits on`: every client here shares one address, where 50 real players
would have many (bench/engine_load.py measures those bounds). Every
client alternates between the two servers, as behind a load balancer: `--browsers` threads
read catalogue pages and the API, `--matches` threads each start a match (a person against
an easy bot) and play it to its end through the API, a random legal action at a time,
reloading on 409 and waiting out 429. It stops after `--seconds` (and kills both servers
whatever happens), then checks every match in the database: its stored actions are
numbered 1..version with no gap or double, their count is what the clients saw, and the
match replays from its seed and log to its stored state hash. It prints throughput, p50
and p99 latencies per kind of request, the 429s, the 5xx and any other errors.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from paletti.engine import placement_spots  # noqa: E402

PORTS = (8801, 8802)
HOST = "127.0.0.1"


def postable(action: dict) -> dict:
    """A listed action as posted: a placement at the middle point of its listed area."""
    if action["type"] != "place":
        return action
    spots = placement_spots(action)
    return spots[len(spots) // 2]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times = defaultdict(list)
        self.codes = defaultdict(int)
        self.errors = []

    def record(self, kind, status, seconds):
        with self.lock:
            self.times[kind].append(seconds)
            self.codes[status] += 1

    def error(self, text, transport=True):
        with self.lock:
            if len(self.errors) < 10:
                self.errors.append(text)
            if transport:
                self.codes["error"] += 1


def request(stats, port, method, path, kind, body=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    headers = {"Host": "localhost", "Accept-Language": "en"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    started = time.perf_counter()
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
    except OSError as error:
        stats.error(f"{kind}: {error!r}")
        return None, None, {}
    finally:
        connection.close()
    stats.record(kind, response.status, time.perf_counter() - started)
    if response.status >= 500:
        stats.error(f"{kind}: {response.status} {payload[:200]!r}", transport=False)
    try:
        parsed = (
            json.loads(payload)
            if payload and b"json" in (response.getheader("Content-Type") or "").encode()
            else None
        )
    except ValueError:
        parsed = None
    return response.status, parsed, dict(response.getheaders())


def browse(stats, stop, index):
    paths = [
        ("page", "/fr/games/"),
        ("page", "/fr/games/?players=3&age=8"),
        ("page", "/fr/games/villa-paletti/"),
        ("api-read", "/api/games/?players=3"),
        ("api-read", "/api/games/alhambra/"),
        ("api-read", "/api/esar/"),
    ]
    n = index
    while not stop.is_set():
        kind, path = paths[n % len(paths)]
        request(stats, PORTS[n % 2], "GET", path, kind)
        n += 1


def play(stats, stop, index, seen):
    rng = random.Random(index)
    players = {"players": [{"name": f"P{index}"}, {"name": "Bot", "kind": "bot", "level": "easy"}]}
    n = index
    status, body, headers = None, None, {}
    while not stop.is_set():
        status, body, headers = request(
            stats, PORTS[n % 2], "POST", "/api/paletti/matches/", "create", players
        )
        n += 1
        if status == 201:
            break
        stop.wait(float(headers.get("Retry-After", 1)) if status == 429 else 1)
    if status != 201:
        return
    match_id, state = body["id"], body["state"]
    seen[match_id] = state["version"]
    while not stop.is_set() and state["status"] != "finished" and state["legal_actions"]:
        action = postable(rng.choice(state["legal_actions"]))
        path = f"/api/paletti/matches/{match_id}/actions/"
        status, body, headers = request(
            stats, PORTS[n % 2], "POST", path, "action",
            {"version": state["version"], "action": action},
        )  # fmt: skip
        n += 1
        if status == 200:
            state = body["state"]
            seen[match_id] = state["version"]
        elif status == 429:
            stop.wait(min(float(headers.get("Retry-After", 1)), 5))
        else:  # 409 or a refusal: read the match again
            status, fresh, _ = request(
                stats, PORTS[n % 2], "GET", f"/api/paletti/matches/{match_id}/", "read-match"
            )
            if status == 200:
                state = fresh
                seen[match_id] = state["version"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


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
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--browsers", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--engine-limits", choices=("on", "off"), default="off")
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ludotheque_bench"
    )
    name = url.rsplit("/", 1)[1]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "catalogue.settings",
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": "bench-only-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_REDIS_URL": redis_url(),
        "DJANGO_CACHE_KEY_PREFIX": f"two-servers-{os.getpid()}",
    }
    if args.engine_limits == "off":
        env.update(DJANGO_ENGINE_CONCURRENT="off", DJANGO_ENGINE_SECONDS_PER_MINUTE="off")
    python = str(ROOT / ".venv" / "bin" / "python")
    for command in (["dropdb", "--if-exists", name], ["createdb", name]):
        subprocess.run([*command[:1], "-h", HOST, "-U", "postgres", *command[1:]], check=True)
    commands = (["migrate", "-v0"], ["createcachetable"], ["seed"], ["collectstatic", "--noinput"])
    for command in commands:
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    servers = [
        subprocess.Popen(
            [
                str(ROOT / ".venv" / "bin" / "gunicorn"),
                "catalogue.wsgi",
                "--bind",
                f"{HOST}:{port}",
                "--workers",
                str(args.workers),
                "--timeout",
                "30",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )  # fmt: skip
        for port in PORTS
    ]
    stats, stop, seen = Stats(), threading.Event(), {}
    try:
        for port in PORTS:
            for _ in range(100):
                if request(Stats(), port, "GET", "/healthz", "health")[0] == 200:
                    break
                time.sleep(0.2)
            else:
                raise SystemExit(f"server on port {port} did not come up")
        threads = [
            threading.Thread(target=browse, args=(stats, stop, i)) for i in range(args.browsers)
        ] + [
            threading.Thread(target=play, args=(stats, stop, i, seen)) for i in range(args.matches)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        stop.wait(args.seconds)
        stop.set()
        for thread in threads:
            thread.join(timeout=90)
        elapsed = time.perf_counter() - started
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()

    report(stats, elapsed, seen, env)


def report(stats, elapsed, seen, env):
    total = sum(len(v) for v in stats.times.values())
    print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:.1f} requests/s over 2 servers")
    for kind, times in sorted(stats.times.items()):
        print(
            f"  {kind:10} {len(times):6} requests  p50 {statistics.median(times) * 1000:7.1f} ms"
            f"  p99 {percentile(times, 0.99) * 1000:7.1f} ms"
        )
    codes = {str(code): count for code, count in sorted(stats.codes.items(), key=str)}
    server_errors = sum(n for code, n in stats.codes.items() if str(code).startswith("5"))
    print(f"  status codes: {codes}")
    print(f"  429 (throttled): {stats.codes.get(429, 0)}   5xx: {server_errors}"
          f"   transport errors: {stats.codes.get('error', 0)}")  # fmt: skip
    for line in stats.errors:
        print("   ", line)

    os.environ.update({k: v for k, v in env.items() if k == "DATABASE_URL"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
    import django

    django.setup()
    from paletti import engine, services
    from paletti.models import Match, MatchStatus

    lost = duplicated = mismatched = mismatched_finished = 0
    matches = Match.objects.prefetch_related("actions")
    for match in matches:
        numbers = sorted(a.number for a in match.actions.all())
        if numbers != list(range(1, match.version + 1)):
            duplicated += len(numbers) != len(set(numbers))
            lost += 1
        if seen.get(str(match.id), match.version) > match.version:
            lost += 1
        if engine.state_hash(services.replay_match(match)) != match.state_hash:
            mismatched += 1
            mismatched_finished += match.status == MatchStatus.FINISHED
    finished = matches.filter(status=MatchStatus.FINISHED).count()
    print(
        f"  matches: {matches.count()} ({finished} finished); actions stored:"
        f" {sum(m.version for m in matches)}; lost or gapped: {lost}; duplicated: {duplicated};"
        f" not replaying to their stored hash: {mismatched} ({mismatched_finished} of them"
        " finished)"
    )


if __name__ == "__main__":
    main()
