"""The catalogue's latency while one address plays against careful bots as fast as it may.

Run from the repository root:

    .venv/bin/python bench/engine_load.py [--seconds 40] [--players 4] [--limits on|off]

It makes a fresh PostgreSQL database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludotheque_engine_bench), migrates it, loads the seed
games and starts one gunicorn (two workers, production settings over plain HTTP, Redis as
the shared cache when BENCH_REDIS_URL is reachable, default redis://127.0.0.1:6379/0). One
thread reads the catalogue's list page (the cached page anonymous visitors get) for
`--seconds`, alone (idle), then again while `--players` threads from the same address
start matches of a person against three careful bots and play them, each posting its next
action as soon as the last is answered (waiting out any 429). It prints the catalogue's
p50 and p95 in both phases, their ratio, and what the players got. `--limits off` runs the
same with the engine bounds switched off (DJANGO_ENGINE_CONCURRENT and
DJANGO_ENGINE_SECONDS_PER_MINUTE), to see what they prevent.
"""

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.two_servers import HOST, Stats, percentile, postable, redis_url, request  # noqa: E402

PORT = 8811
CAREFUL_TABLE = {
    "players": [{"name": "Ada"}]
    + [{"name": f"Robot {n}", "kind": "bot", "level": "careful"} for n in (1, 2, 3)]
}


def read_catalogue(stats, stop, kind):
    while not stop.is_set():
        request(stats, PORT, "GET", "/fr/games/", kind)


def play(stats, stop):
    while not stop.is_set():
        status, body, headers = request(
            stats, PORT, "POST", "/api/paletti/matches/", "create", CAREFUL_TABLE
        )
        if status != 201:
            stop.wait(min(float(headers.get("Retry-After", 1)), 5) if status == 429 else 1)
            continue
        match_id, state = body["id"], body["state"]
        while not stop.is_set() and state["status"] == "playing":
            if not state["legal_actions"]:
                break
            status, answer, headers = request(
                stats, PORT, "POST", f"/api/paletti/matches/{match_id}/actions/", "action",
                {"version": state["version"], "action": postable(state["legal_actions"][0])},
            )  # fmt: skip
            if status == 200:
                state = answer["state"]
            elif status == 429:
                stop.wait(min(float(headers.get("Retry-After", 1)), 5))
            else:
                status, fresh, _ = request(
                    stats, PORT, "GET", f"/api/paletti/matches/{match_id}/", "read-match"
                )
                if status != 200:
                    break
                state = fresh


def phase(seconds, players):
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=read_catalogue, args=(stats, stop, "catalogue"))]
    threads += [threading.Thread(target=play, args=(stats, stop)) for _ in range(players)]
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--limits", choices=("on", "off"), default="on")
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ludotheque_engine_bench"
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
        "DJANGO_CACHE_KEY_PREFIX": f"engine-bench-{os.getpid()}",
    }
    if args.limits == "off":
        env.update(DJANGO_ENGINE_CONCURRENT="off", DJANGO_ENGINE_SECONDS_PER_MINUTE="off")
    python = str(ROOT / ".venv" / "bin" / "python")
    for command in (["dropdb", "--if-exists", name], ["createdb", name]):
        subprocess.run([*command[:1], "-h", HOST, "-U", "postgres", *command[1:]], check=True)
    commands = (["migrate", "-v0"], ["createcachetable"], ["seed"], ["collectstatic", "--noinput"])
    for command in commands:
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "catalogue.wsgi", "--bind", f"{HOST}:{PORT}",
         "--workers", "2", "--timeout", "30", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        for _ in range(100):
            if request(Stats(), PORT, "GET", "/healthz", "health")[0] == 200:
                break
            time.sleep(0.2)
        else:
            raise SystemExit("the server did not come up")
        phase(3, 0)  # warm the page cache and the connections
        idle = phase(args.seconds, 0)
        loaded = phase(args.seconds, args.players)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    shared = "Redis" if env["DJANGO_REDIS_URL"] else "the database's cache table"
    print(f"engine limits {args.limits}; shared cache: {shared}; {args.players} players, "
          f"one address, a person against 3 careful bots")  # fmt: skip
    p95 = {}
    for label, stats in (("idle", idle), ("loaded", loaded)):
        times = stats.times["catalogue"]
        p95[label] = percentile(times, 0.95)
        p50 = percentile(times, 0.5)
        print(f"  catalogue {label:6} {len(times):5} requests  p50 {p50 * 1000:7.1f} ms"
              f"  p95 {p95[label] * 1000:7.1f} ms")  # fmt: skip
    print(f"  p95 loaded / idle: {p95['loaded'] / p95['idle']:.2f}")
    for kind in ("create", "action"):
        times = loaded.times.get(kind, [])
        print(f"  {kind:9} {len(times):5} answers  p50 {percentile(times, 0.5) * 1000:7.1f} ms")
    codes = {str(code): n for code, n in sorted(loaded.codes.items(), key=str)}
    print(f"  status codes under load: {codes}")
    for line in loaded.errors:
        print("   ", line)


if __name__ == "__main__":
    main()
