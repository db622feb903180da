"""The catalogue at scale: search times at two catalogue sizes, and pages under load.

Run from the repository root, with databases prepared once (``--prepare`` migrates them,
loads the seed games and generates the synthetic ones: about 13 minutes for 100 000 games
on PostgreSQL on a 2-core machine):

    .venv/bin/python bench/catalogue_bench.py \\
        --small postgres://postgres@127.0.0.1:5432/ludo_small \\
        --large postgres://postgres@127.0.0.1:5432/ludo_large --large-games 100000 \\
        --sqlite /tmp/ludo_small.sqlite3 [--prepare] [--seconds 3] [--rounds 3]

1. In-process, through the WSGI application with DEBUG off: a fixed set of 49 API
   queries (common and rare words in four languages, typos, filters alone and combined,
   orderings, deep pages: 40 and 45 of 20 results, the deepest both
   sizes have), each run 5 times, on the small (1 000 games) and the large
   catalogue; p50 and p95 of the text searches and of all queries, the ratio large ÷ small,
   and the suggestions' p95. Targets: text search p95 <= 25 ms, suggestions p95 <= 10 ms,
   p95 large ÷ p95 small <= 3.
2. Under load: gunicorn (2 sync workers, production settings) on 127.0.0.1, and a bare
   JsonResponse view in the same server as the baseline, each target loaded for
   ``--seconds`` by 4 keep-alive client threads that stop by themselves; requests per
   second as a fraction of the bare view's measured just before on the same server, the
   PostgreSQL and the SQLite server taking each target in turn, in ``--rounds`` rounds;
   medians. Targets: list page
   >= 0.2 uncached and >= 0.5 from the cache, API list >= 0.4; the list page on
   PostgreSQL ÷ on SQLite >= 0.9 (the median of the rounds' ratios).
"""

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

TEXT_QUERIES = [
    {"q": q}
    for q in [
        # common words, four languages
        "joueurs", "cartes", "plateau", "spillere", "kort", "gracze", "karty", "players",
        "cards", "tiles",
        # rarer words, titles, people, publishers
        "alchimiste", "czarodzieja", "labyrint", "carcassonne", "payne", "zoch", "kowalski",
        "søjler", "kolumny", "kolumna", "jardins epices", "zamek smoka", "chateau dragons",
        "golden traders", "villa paletti",
        # typos and prefixes
        "paleti", "palleti", "alhambar", "chateu", "troldens hemmelihed", "alham",
    ]
]  # fmt: skip
COMBINED = [
    {"q": "joueurs", "players": 4},
    {"q": "kort", "age": 8, "duration_max": 45},
    {"q": "cartes", "ordering": "-duration"},
    {"q": "joueurs", "page": 40},
    {"q": "karty", "language": "pl"},
]
FILTERS = [
    {"players": 4},
    {"players": 7},
    {"age": 8},
    {"duration_max": 30},
    {"esar": "A"},
    {"language": "da"},
    {"players": 5, "age": 10, "duration_max": 60},
    {"ordering": "-duration"},
    {"ordering": "players"},
    {"page": 45},
    {"page": 45, "ordering": "-year"},
    {},
    {"esar": "A 404", "players": 2},
]
SUGGESTIONS = ["pa", "pal", "vil", "tro", "zam", "cha", "jard", "kor", "alh", "paleti", "gold"]
REPEATS = 5


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


# ----------------------------------------------------------------------------- phase 1


def search_phase(database_url):
    """Runs in a child process bound to one database; prints its timings as JSON."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
    os.environ["DJANGO_DEBUG"] = "0"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.test import Client

    from games.models import Game

    client = Client()
    # A session cookie keeps the anonymous cache (games.caching) out: the repeats measure
    # the search, not a cache hit.
    client.cookies["sessionid"] = "bench-search-without-the-page-cache"

    def timed(path, params):
        url = f"{path}?{urlencode(params)}"
        client.get(url)  # warm: the measured runs are the repeats
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - started)
            assert response.status_code == 200, (url, response.status_code)
        return times

    text, other, medians = [], [], {}
    for params in TEXT_QUERIES + COMBINED:
        times = timed("/api/games/", params)
        text += times
        medians[urlencode(params)] = sorted(times)[len(times) // 2]
    for params in FILTERS:
        times = timed("/api/games/", params)
        other += times
        medians[urlencode(params)] = sorted(times)[len(times) // 2]
    suggestions = []
    for prefix in SUGGESTIONS:
        suggestions += timed("/api/games/suggest/", {"q": prefix})
    print(
        json.dumps(
            {
                "games": Game.objects.count(),
                "queries": len(TEXT_QUERIES + COMBINED + FILTERS),
                "text": text,
                "all": text + other,
                "suggestions": suggestions,
                "slowest": sorted(medians.items(), key=lambda item: -item[1])[:5],
            }
        )
    )


def run_search(database_url):
    output = subprocess.run(
        [PYTHON, __file__, "--phase", "search", "--database", database_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- phase 2


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(database_url, port):
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.bench_settings",
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": "bench-only-" + os.urandom(16).hex(),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
    }
    # Production settings serve hashed static files: they must be collected first.
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], check=True, cwd=ROOT, env=env
    )
    process = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "catalogue.wsgi",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("gunicorn did not start")


def load(port, path, seconds, headers=None, threads=4):
    """Requests per second on 127.0.0.1 by keep-alive clients stopping after ``seconds``."""
    counts = [0] * threads
    errors = []
    deadline = time.monotonic() + seconds

    def worker(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < deadline:
            connection.request("GET", path, headers={"Accept-Encoding": "gzip", **(headers or {})})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
                return
            counts[index] += 1
        connection.close()

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    started = time.monotonic()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise RuntimeError(f"{path}: HTTP {errors[0]}")
    return sum(counts) / (time.monotonic() - started)


TARGETS = {
    "list uncached": ("/fr/games/?players=4", True),
    "list cached": ("/fr/games/?players=4", False),
    "API list": ("/api/games/?players=4", False),
    "rules side by side": ("/fr/games/villa-paletti/rules/compare/?left=fr&right=da", True),
}


def run_load(database_urls, seconds, rounds):
    """Each target's requests per second as a fraction of the bare view's on the same
    server, for each database: the median over ``rounds`` rounds. The servers run side by
    side (an idle one takes no CPU). Each target is loaded right after the bare view on
    the same server, and on one database right after the other, the order of the
    databases changing each round: a slow spell of the machine then falls on a target and
    its baseline, and on both databases, instead of on one of them (with the baseline
    measured once per round, the bare views of two identical servers differed by up to
    9 %, and so did the PostgreSQL ÷ SQLite ratio)."""
    uncached = {"Cookie": "sessionid=bench-visitor-with-a-session"}  # bypasses the page cache
    servers = {}
    try:
        for name, url in database_urls.items():
            port = free_port()
            servers[name] = (port, start_gunicorn(url, port))
        for port, _server in servers.values():
            load(port, "/bench/bare/", 1)  # warm both workers
            load(port, "/fr/games/", 1)
        measured = {name: {"bare": [], **{target: [] for target in TARGETS}} for name in servers}
        for round_ in range(rounds):
            names = list(servers) if round_ % 2 == 0 else list(reversed(servers))
            for target, (path, bypass) in TARGETS.items():
                for name in names:
                    port = servers[name][0]
                    bare = load(port, "/bench/bare/", seconds)
                    measured[name]["bare"].append(bare)
                    rate = load(port, path, seconds, uncached if bypass else None)
                    measured[name][target].append(rate / bare)
    finally:
        for _port, server in servers.values():
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    return {
        name: {key: percentile(values, 0.5) for key, values in results.items()}
        | {"rounds": results}
        for name, results in measured.items()
    }


# ----------------------------------------------------------------------------- main


def prepare(database_url, games):
    env = {**os.environ, "DATABASE_URL": database_url}
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], check=True, cwd=ROOT, env=env)
    subprocess.run([*manage, "seed", "-v0"], check=True, cwd=ROOT, env=env)
    subprocess.run(
        [*manage, "generate_catalogue", "--games", str(games - 3), "--seed", "1", "--replace"],
        check=True,
        cwd=ROOT,
        env=env,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phase", choices=["search"], help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--small", required=False, help="PostgreSQL URL, 1 000 games")
    parser.add_argument("--large", required=False, help="PostgreSQL URL, the large catalogue")
    parser.add_argument("--large-games", type=int, default=100_000)
    parser.add_argument("--sqlite", help="SQLite file with 1 000 games (list page PG ÷ SQLite)")
    parser.add_argument("--prepare", action="store_true", help="build the databases first")
    parser.add_argument("--seconds", type=float, default=3, help="load per target and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of load (medians)")
    parser.add_argument("--skip-search", action="store_true", help="only the load part")
    args = parser.parse_args()
    if args.phase == "search":
        search_phase(args.database)
        return
    if not (args.small and args.large and args.sqlite):
        parser.error("--small, --large and --sqlite are required")
    sqlite_url = f"sqlite:///{Path(args.sqlite).resolve()}"
    if args.prepare:
        prepare(args.small, 1000)
        prepare(sqlite_url, 1000)
        prepare(args.large, args.large_games)

    if not args.skip_search:
        report_search(args)
    report_load(args, sqlite_url)


def report_search(args):
    small, large = run_search(args.small), run_search(args.large)
    print(f"In-process API queries ({small['queries']} queries x {REPEATS} runs), PostgreSQL:")
    for result in (small, large):
        print(
            f"  {result['games']:>7} games:"
            f" text p50 {percentile(result['text'], 0.5) * 1e3:6.1f} ms,"
            f" p95 {percentile(result['text'], 0.95) * 1e3:6.1f} ms;"
            f" all p95 {percentile(result['all'], 0.95) * 1e3:6.1f} ms;"
            f" suggestions p95 {percentile(result['suggestions'], 0.95) * 1e3:5.1f} ms"
        )
    ratio = percentile(large["text"], 0.95) / percentile(small["text"], 0.95)
    print(f"  text p95 large / small: {ratio:.2f} (target <= 3)")
    print(
        f"  text p95 at {large['games']} games: {percentile(large['text'], 0.95) * 1e3:.1f} ms"
        f" (target <= 25); suggestions p95"
        f" {percentile(large['suggestions'], 0.95) * 1e3:.1f} ms (target <= 10)"
    )

    print("  slowest at the large size (median ms):", end="")
    print(
        "".join(f"\n    {query or '(no filter)'}: {ms * 1e3:.0f}" for query, ms in large["slowest"])
    )


def report_load(args, sqlite_url):
    print(
        f"\nUnder load, gunicorn 2 workers on 127.0.0.1, {args.seconds:.0f} s per target,"
        f" median of {args.rounds} rounds:"
    )
    rates = run_load({"PostgreSQL": args.small, "SQLite": sqlite_url}, args.seconds, args.rounds)
    targets = {"list uncached": 0.2, "list cached": 0.5, "API list": 0.4}
    for backend, measured in rates.items():
        print(f"  {backend}: bare JSON view {measured['bare']:.0f} req/s")
        for name in TARGETS:
            target = f" (target >= {targets[name]})" if name in targets else ""
            rounds = ", ".join(f"{ratio:.3f}" for ratio in measured["rounds"][name])
            print(f"    {name:<20} {measured[name]:.3f}x bare{target}  [rounds: {rounds}]")
    pg, lite = rates["PostgreSQL"]["rounds"], rates["SQLite"]["rounds"]
    per_round = [p / s for p, s in zip(pg["list uncached"], lite["list uncached"], strict=True)]
    print(
        "  list page, PostgreSQL / SQLite, each against its own bare view: "
        f"{percentile(per_round, 0.5):.2f} (target >= 0.9)"
        f"  [rounds: {', '.join(f'{r:.2f}' for r in per_round)}]"
    )


if __name__ == "__main__":
    main()
