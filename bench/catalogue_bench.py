"""The catalogue at scale: the code before a change and after it, side by side.

Absolute times differ threefold between machines, so the bench compares two checkouts
of the project on the same machine and the same data: ``--before`` is another worktree
(``git worktree add /tmp/before <commit>``, with its own ``.venv`` link), each side with
its own databases holding the same catalogue (the after side's a copy of the before
side's, migrated by the after code). Run from the repository root:

    .venv/bin/python bench/catalogue_bench.py --before /tmp/before \\
        --small-before postgres://…/ludo_small --small postgres://…/ludo_small_after \\
        --large-before postgres://…/ludo_large --large postgres://…/ludo_large_after \\
        [--seconds 3] [--rounds 3]

1. In-process, through the WSGI application with DEBUG off: a fixed set of 49 API
   queries (common and rare words in four languages, typos, filters alone and combined,
   orderings, deep pages: 40 and 45 of 20 results), each run 5 times, and 11 suggestion
   prefixes, each run 20 times, on the small (1 000 games) and the large catalogue, for
   each side, the sides taking turns (``--search-rounds``, timings pooled); this file's
   code measures both checkouts, each in its own Python. Targets:
   text search p95 and suggestions p95 at the large size within 1.25x of before (after ÷
   before), text p95 large ÷ small <= 3.
2. Under load: gunicorn (2 sync workers, production settings) on 127.0.0.1 for each side
   on the small catalogue, with a bare JsonResponse view in the same server as the
   baseline; each target is loaded for ``--seconds`` by 4 keep-alive client threads in
   ``--slices`` turns with the bare view on the same server, the two sides taking each
   target in turn in an order that changes every round; medians of ``--rounds``. Targets
   (after): list page >= 0.15x the bare view uncached and >= 0.5x from the cache, API
   list >= 0.4x. This part runs on SQLite too: ``--skip-search`` with ``sqlite:///…``
   URLs for ``--small-before`` and ``--small`` (the large catalogues are not needed).

``--prepare`` builds the before side's databases with the before code (created if the
server has none of that name, then migrate, seed games, ``generate_catalogue``) and the
after side's as copies migrated by this code.
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
from urllib.parse import urlencode, urlparse

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
# A suggestion takes 3 to 6 ms, and one pause of the machine is a 20 ms outlier: with 5
# runs of 11 prefixes the p95 was the third slowest of 55 and measured such pauses (the
# same code 0.77 to 1.54 times itself). 20 runs make it the 11th slowest of 220.
SUGGESTION_REPEATS = 20


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


# ----------------------------------------------------------------------------- phase 1


def search_phase(tree, database_url):
    """Runs in a child process bound to one checkout and one database; prints its timings
    as JSON. Both sides are measured by this function, so by the same queries and repeats."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
    os.environ["DJANGO_DEBUG"] = "0"
    os.chdir(tree)
    sys.path.insert(0, tree)
    import django

    django.setup()
    from django.test import Client

    from games.models import Game

    client = Client()
    # A session cookie keeps the anonymous cache (games.caching) out: the repeats measure
    # the search, not a cache hit.
    client.cookies["sessionid"] = "bench-search-without-the-page-cache"

    def timed(path, params, repeats=REPEATS):
        url = f"{path}?{urlencode(params)}"
        client.get(url)  # warm: the measured runs are the repeats
        times = []
        for _ in range(repeats):
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
        suggestions += timed("/api/games/suggest/", {"q": prefix}, SUGGESTION_REPEATS)
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


def run_search(tree, database_url):
    """This bench's search phase run by ``tree``'s Python on ``tree``'s code, on
    ``database_url``."""
    output = subprocess.run(
        [
            _python(tree),
            str(Path(__file__).resolve()),
            "--phase",
            "search",
            "--tree",
            str(tree),
            "--database",
            database_url,
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def _python(tree):
    return str(Path(tree) / ".venv" / "bin" / "python")


# ----------------------------------------------------------------------------- phase 2


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(tree, database_url, port):
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
        [_python(tree), "manage.py", "collectstatic", "--noinput", "-v0"],
        check=True,
        cwd=tree,
        env=env,
    )
    process = subprocess.Popen(
        [
            str(Path(_python(tree)).parent / "gunicorn"),
            "catalogue.wsgi",
            # The same server on both sides, whatever a tree's gunicorn.conf.py says.
            "--workers",
            "2",
            "--worker-class",
            "sync",
            "--threads",
            "1",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=tree,
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
    """Requests answered on 127.0.0.1 by keep-alive clients stopping after ``seconds``,
    and the time they took."""
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
    return sum(counts), time.monotonic() - started


TARGETS = {
    "list uncached": ("/fr/games/?players=4", True),
    "list cached": ("/fr/games/?players=4", False),
    "API list": ("/api/games/?players=4", False),
    "rules side by side": ("/fr/games/villa-paletti/rules/compare/?left=fr&right=da", True),
}


def interleaved(port, path, seconds, headers, slices):
    """The target's rate ÷ the bare view's, the two loaded in turn in ``slices`` slices
    each (``seconds`` in all for each): on a shared machine the load of other work
    changes within seconds, and a target measured after its baseline, each for the whole
    time, read that change as theirs (one round's ratio 0.077 between two of 0.132)."""
    counts = {"bare": [0, 0.0], "target": [0, 0.0]}
    for _slice in range(slices):
        for name, url, sent in (("bare", "/bench/bare/", None), ("target", path, headers)):
            done, took = load(port, url, seconds / slices, sent)
            counts[name][0] += done
            counts[name][1] += took
    bare = counts["bare"][0] / counts["bare"][1]
    return bare, counts["target"][0] / counts["target"][1] / bare


def run_load(sides, seconds, rounds, slices=1):
    """Each target's requests per second as a fraction of the bare view's on the same
    server, for each side (``{name: (tree, database URL)}``): the median over ``rounds``.
    The servers run side by side (an idle one takes no CPU); each target is loaded in
    turn with the bare view on the same server (``interleaved``), and on one side right
    after the other, the order of the sides changing each round: a slow spell of the
    machine then falls on a target and its baseline, and on both sides."""
    uncached = {"Cookie": "sessionid=bench-visitor-with-a-session"}  # bypasses the page cache
    servers = {}
    try:
        for name, (tree, url) in sides.items():
            port = free_port()
            servers[name] = (port, start_gunicorn(tree, url, port))
        for port, _server in servers.values():
            load(port, "/bench/bare/", 1)  # warm both workers
            load(port, "/fr/games/", 1)
        measured = {name: {"bare": [], **{target: [] for target in TARGETS}} for name in servers}
        for round_ in range(rounds):
            names = list(servers) if round_ % 2 == 0 else list(reversed(servers))
            for target, (path, bypass) in TARGETS.items():
                for name in names:
                    port = servers[name][0]
                    headers = uncached if bypass else None
                    bare, ratio = interleaved(port, path, seconds, headers, slices)
                    measured[name]["bare"].append(bare)
                    measured[name][target].append(ratio)
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


def create_if_missing(database_url):
    """Create the PostgreSQL database of ``database_url`` when the server has none of that
    name (the before side's; the after side's are copies, made by ``copy_and_migrate``)."""
    url = urlparse(database_url)
    server, name = f"{url.scheme}://{url.netloc}/postgres", url.path[1:]
    found = subprocess.run(
        ["psql", server, "-At", "-v", f"name={name}"],
        input="SELECT 1 FROM pg_database WHERE datname = :'name'",
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not found:
        subprocess.run(["psql", server, "-qc", f'CREATE DATABASE "{name}"'], check=True)


def prepare(tree, database_url, games):
    create_if_missing(database_url)
    env = {**os.environ, "DATABASE_URL": database_url}
    manage = [_python(tree), "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], check=True, cwd=tree, env=env)
    subprocess.run([*manage, "seed", "-v0"], check=True, cwd=tree, env=env)
    subprocess.run(
        [*manage, "generate_catalogue", "--games", str(games - 3), "--seed", "1", "--replace"],
        check=True,
        cwd=tree,
        env=env,
    )


def copy_and_migrate(source_url, copy_url):
    """The after side's database: a copy of the before side's, migrated by this code."""
    source, copy = urlparse(source_url), urlparse(copy_url)
    server = f"{source.scheme}://{source.netloc}/postgres"
    for statement in (
        f'DROP DATABASE IF EXISTS "{copy.path[1:]}"',
        f'CREATE DATABASE "{copy.path[1:]}" TEMPLATE "{source.path[1:]}"',
    ):
        subprocess.run(["psql", server, "-qc", statement], check=True)
    env = {**os.environ, "DATABASE_URL": copy_url}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], check=True, cwd=ROOT, env=env)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phase", choices=["search"], help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--tree", default=str(ROOT), help=argparse.SUPPRESS)
    parser.add_argument("--before", help="the other worktree: the code before")
    for size, games in (("small", "1 000 games"), ("large", "the large catalogue")):
        parser.add_argument(f"--{size}-before", help=f"PostgreSQL URL, {games}, before")
        parser.add_argument(f"--{size}", help=f"PostgreSQL URL, {games}, after")
    parser.add_argument("--large-games", type=int, default=100_000)
    parser.add_argument("--prepare", action="store_true", help="build the databases first")
    parser.add_argument("--seconds", type=float, default=3, help="load per target and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of load (medians)")
    parser.add_argument(
        "--slices", type=int, default=6, help="turns of a target and the bare view per round"
    )
    parser.add_argument("--skip-search", action="store_true", help="only the load part")
    parser.add_argument(
        "--search-rounds", type=int, default=2, help="in-process runs per side and size"
    )
    parser.add_argument("--skip-load", action="store_true", help="only the in-process part")
    args = parser.parse_args()
    if args.phase == "search":
        search_phase(args.tree, args.database)
        return
    needed = ("before", "small_before", "small")
    if not args.skip_search or args.prepare:
        needed += ("large_before", "large")
    if not all(getattr(args, name) for name in needed):
        parser.error(f"needed: {', '.join('--' + name.replace('_', '-') for name in needed)}")
    if args.prepare:
        for size, games in (("small", 1000), ("large", args.large_games)):
            prepare(args.before, getattr(args, f"{size}_before"), games)
            copy_and_migrate(getattr(args, f"{size}_before"), getattr(args, size))
    sides = {"before": args.before, "after": str(ROOT)}
    if not args.skip_search:
        report_search(args, sides)
    if not args.skip_load:
        report_load(args, sides)


def report_search(args, sides):
    """Each size's runs alternate between the sides (``--search-rounds``, the order
    changing every round) and each side's timings are pooled: one side run alone in a busy
    minute of a shared machine once measured its suggestions 7 times slower than the other
    with the same code."""
    results = {side: {} for side in sides}
    for size in ("small", "large"):
        for round_ in range(args.search_rounds):
            names = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in names:
                url = getattr(args, size if side == "after" else f"{size}_before")
                result = run_search(sides[side], url)
                pooled = results[side].get(size)
                if pooled is None:
                    results[side][size] = result
                else:
                    for key in ("text", "all", "suggestions"):
                        pooled[key] += result[key]
                    pooled["slowest"] = result["slowest"]
    queries = results["after"]["small"]["queries"]
    print(f"In-process API queries ({queries} queries x {REPEATS} runs), PostgreSQL:")
    p95 = {}
    for side, sizes in results.items():
        for size, result in sizes.items():
            text, suggestions = result["text"], result["suggestions"]
            p95[side, size] = percentile(text, 0.95), percentile(suggestions, 0.95)
            print(
                f"  {side:<6} {result['games']:>7} games:"
                f" text p50 {percentile(text, 0.5) * 1e3:6.1f} ms,"
                f" p95 {p95[side, size][0] * 1e3:6.1f} ms;"
                f" all p95 {percentile(result['all'], 0.95) * 1e3:6.1f} ms;"
                f" suggestions p95 {p95[side, size][1] * 1e3:5.1f} ms"
            )
    for side in sides:
        ratio = p95[side, "large"][0] / p95[side, "small"][0]
        print(f"  {side}: text p95 large / small {ratio:.2f} (target <= 3)")
    text = p95["after", "large"][0] / p95["before", "large"][0]
    suggestions = p95["after", "large"][1] / p95["before", "large"][1]
    print(f"  large catalogue, after / before: text p95 {text:.2f} (target <= 1.25),")
    print(f"    suggestions p95 {suggestions:.2f} (target <= 1.25)")
    for side in sides:
        print(f"  {side}, slowest at the large size (median ms):", end="")
        slowest = results[side]["large"]["slowest"]
        print("".join(f"\n    {query or '(no filter)'}: {ms * 1e3:.0f}" for query, ms in slowest))


def report_load(args, sides):
    print(
        f"\nUnder load, gunicorn 2 workers on 127.0.0.1, {args.seconds:.0f} s per target in"
        f" {args.slices} turns with the bare view, median of {args.rounds} rounds,"
        f" {urlparse(args.small).scheme or 'sqlite'}, 1 000 games:"
    )
    rates = run_load(
        {
            side: (tree, args.small if side == "after" else args.small_before)
            for side, tree in sides.items()
        },
        args.seconds,
        args.rounds,
        args.slices,
    )
    targets = {"list uncached": 0.15, "list cached": 0.5, "API list": 0.4}
    for side, measured in rates.items():
        print(f"  {side}: bare JSON view {measured['bare']:.0f} req/s")
        for name in TARGETS:
            target = f" (target >= {targets[name]})" if name in targets and side == "after" else ""
            rounds = ", ".join(f"{ratio:.3f}" for ratio in measured["rounds"][name])
            print(f"    {name:<20} {measured[name]:.3f}x bare{target}  [rounds: {rounds}]")
    for name in TARGETS:
        ratio = rates["after"][name] / rates["before"][name]
        print(f"  {name}: after / before {ratio:.2f}")


if __name__ == "__main__":
    main()
