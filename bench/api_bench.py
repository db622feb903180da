"""The match API's overhead: an action request end to end against the engine's own time.

Run from the repository root:  .venv/bin/python bench/api_bench.py [--turns N] [--replicas R]

For each action of a match (choose colour, touch, pull, place…) it times the POST through
the project's WSGI application, as a WSGI server calls it (middleware, JSON parsing,
database read, engine, conditional write, JSON response), and, in the same run, the engine
alone doing the same work: load the stored snapshot, apply the same action, let the bots
answer when a bot plays next, and encode the new snapshot and its hash (docs/paletti.md: every
action starts from a freshly loaded snapshot and ends with a stored one).

Timings on a shared machine are noisy, so the bench plays R identical matches (same seed,
same players, same actions; their state hashes are checked equal after every action) and
keeps, for each action, the median over the replicas on each side. Two matches: two
people, and a person against a careful bot. It prints both totals, their ratio (target
<= 1.5), and the size of a place action's response with its frames, raw and gzipped
(target <= 60 KB gzipped). The database is a throw-away SQLite file, or DATABASE_URL if set;
DEBUG is off, as in production.

--compare-orm also plays R more identical matches whose requests read and store the turn
with ordinary ORM queries instead of the written-out statements of paletti/statements.py
(the ORM code is in _through_the_orm below), each request right after its twin, and prints
both medians, their difference, the CPU time per request and the time of one database round
trip. Issue 9 asked to keep the written-out statements only if the ORM made a request more
than 3 ms slower at the median. Three runs with --compare-orm --turns 6 --replicas 3 on
PostgreSQL, on the shared 2-core machine (load average 11 to 13), medians in ms:

    match         statements   ORM     ORM minus statements:         CPU per request:
                                       medians   per action (median)  ORM minus statements
    two people    76.0         87.6    +11.7     +9.4                 +2.1
                  92.8         125.0   +32.2     +15.8                +2.4
                  115.4        116.1   +0.7      +11.6                +2.9
    careful bot   83.4         117.7   +34.3     +5.5                 +3.8
                  116.0        99.3    -16.7     +17.4                +2.8
                  69.3         94.3    +25.0     +13.0                +4.3

The medians of the whole runs swing with the machine's load; the per-action differences,
each request timed right after its twin, are +5.5 to +17.4 ms, and the ORM's extra Python
alone is 2 to 4 ms of CPU a request. On SQLite, in one run: medians 40.2 against 43.5 ms
(two people) and 48.8 against 52.4 ms (careful bot), +5.0 and +8.7 ms per action, +2.0 and
+2.4 ms of CPU. So the statements stay. The rest of the ORM's cost is
three more round trips (BEGIN, a separate INSERT, COMMIT, where PostgreSQL takes one
statement). An earlier version of this comparison timed the project's request right after
the engine's own timing, which penalised whichever side that was (the ORM: +6.9 to +36.5 ms
per action; the statements: +2.7 and +3.5 ms); the engine is now timed first.
"""

import argparse
import contextlib
import gzip
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
# As deployed: with DEBUG on, Django also records every SQL statement of every request.
os.environ.setdefault("DJANGO_DEBUG", "0")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="whole turns to time")
    parser.add_argument("--replicas", type=int, default=5, help="identical matches per side")
    parser.add_argument(
        "--compare-orm",
        action="store_true",
        help="also time the same requests with ORM queries instead of paletti/statements.py",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    from catalogue.wsgi import application

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)  # the throttles' counts
    people = [{"name": "Ada"}, {"name": "Bo"}]
    versus_bot = [{"name": "Ada"}, {"name": "Robot", "kind": "bot", "level": "careful"}]
    for title, players in (("two people", people), ("a person against a careful bot", versus_bot)):
        api_times, engine_times, place_sizes, turns, compared = _measure(
            application, players, args.turns, args.replicas, args.compare_orm
        )
        api_total = sum(api_times)
        engine_total = sum(whole for whole, _ in engine_times)
        apply_total = sum(applying for _, applying in engine_times)
        print(
            f"{title}: {len(api_times)} action requests over {turns} turns, "
            f"median of {args.replicas} identical matches for each"
        )
        print(
            f"  API request end to end: total {api_total * 1000:.1f} ms, "
            f"median {statistics.median(api_times) * 1000:.2f} ms"
        )
        print(
            f"  engine alone, same work: total {engine_total * 1000:.1f} ms, "
            f"median {statistics.median(whole for whole, _ in engine_times) * 1000:.2f} ms"
        )
        print(f"  ratio API / engine: {api_total / engine_total:.2f} (target <= 1.5)")
        print(
            f"  of which applying the actions, without the snapshot's decoding and encoding: "
            f"{apply_total * 1000:.1f} ms; ratio API / that: {api_total / apply_total:.2f}"
        )
        if compared:
            _print_comparison(api_times, compared)
        if place_sizes:
            raw = max(size for size, _ in place_sizes)
            zipped = max(size for _, size in place_sizes)
            print(
                f"  largest place response: {raw / 1024:.1f} KB raw, "
                f"{zipped / 1024:.1f} KB gzipped (target <= 60 KB gzipped)"
            )


def _measure(application, players, max_turns, replicas, compare):
    """For each action: the engine's work for it and the request carrying it, timed on each
    of `replicas` identical matches; the median of each side is kept. With `compare`, as
    many more identical matches are played through the ORM, each request right after its
    twin (in alternating order), and their medians kept too."""
    from django.urls import reverse

    from paletti import engine, services
    from paletti.models import Match

    variants = [("project", contextlib.nullcontext)]
    if compare:
        variants.append(("orm", _through_the_orm))
    body = json.dumps({"players": players, "seed": 2024})
    matches, state = [], None  # (variant, match id, actions URL)
    for _ in range(replicas):
        for name, _patch in variants:
            _, created = _post(application, reverse("api:paletti-match-list"), body)
            created = json.loads(created)
            url = reverse("api:paletti-match-actions", kwargs={"match_id": created["id"]})
            matches.append((name, created["id"], url))
            state = created["state"]
    patches = dict(variants)
    api_times, engine_times, place_sizes = [], [], []
    compared = {"cpu": [], "orm": [], "orm_cpu": []} if compare else {}
    turns = 0
    while state["status"] == "playing" and turns < max_turns:
        action = None
        samples, engine_samples, hashes = {name: [] for name, _ in variants}, [], set()
        # The engine's side first, so that every request follows another request: a request
        # timed right after the engine's burst of work is slower on a loaded machine.
        for _name, match_id, _url in matches[:: len(variants)]:
            match = services.get_match(match_id)  # read before the clock: not the engine's
            if action is None:
                action = _next_action(state, services.load_state(match))
            stored = bytes(match.snapshot)
            started = time.perf_counter()
            loaded = engine.load(stored)
            applying = time.perf_counter()
            turn = services.run_engine(match, loaded, action, match.version)
            applied = time.perf_counter()
            engine.snapshot_and_hash(turn.state)
            engine_samples.append((time.perf_counter() - started, applied - applying))
        body = json.dumps({"version": state["version"], "action": action})
        for position in range(len(matches)):
            # Each replica's pair in turn; which of the two goes first alternates with the
            # replica and with the action.
            if compare and (position // 2 + len(api_times)) % 2:
                position ^= 1
            name, match_id, url = matches[position]
            with patches[name]():
                started, cpu = time.perf_counter(), time.process_time()
                status, content = _post(application, url, body)
                samples[name].append((time.perf_counter() - started, time.process_time() - cpu))
            assert status.startswith("200"), content
            hashes.add(Match.objects.values_list("state_hash", flat=True).get(pk=match_id))
        assert len(hashes) == 1, "the identical matches have drifted apart"
        api_times.append(statistics.median(wall for wall, _ in samples["project"]))
        if compare:
            compared["cpu"].append(statistics.median(cpu for _, cpu in samples["project"]))
            orm = samples["orm"]
            compared["orm"].append(statistics.median(wall for wall, _ in orm))
            compared["orm_cpu"].append(statistics.median(cpu for _, cpu in orm))
        engine_times.append(tuple(map(statistics.median, zip(*engine_samples, strict=True))))
        if action["type"] == "place":
            place_sizes.append((len(content), len(gzip.compress(content))))
            turns += 1
        state = json.loads(content)["state"]
    if compare:
        compared["round_trip"] = _round_trip()
    return api_times, engine_times, place_sizes, turns, compared


def _print_comparison(api_times, compared):
    """The project's requests (paletti/statements.py) against the same through the ORM."""
    sql, orm = statistics.median(api_times), statistics.median(compared["orm"])
    paired = [b - a for a, b in zip(api_times, compared["orm"], strict=True)]
    print(
        f"  same requests through ORM queries: total "
        f"{sum(compared['orm']) * 1000:.1f} ms, median {orm * 1000:.2f} ms"
    )
    print(
        f"  ORM minus statements: {(orm - sql) * 1000:+.2f} ms between the medians, "
        f"{statistics.median(paired) * 1000:+.2f} ms median of the per-action differences "
        f"(the statements stay only above +3 ms)"
    )
    sql_cpu = statistics.median(compared["cpu"])
    orm_cpu = statistics.median(compared["orm_cpu"])
    print(
        f"  CPU time of this process per request, median: statements {sql_cpu * 1000:.2f} ms, "
        f"ORM {orm_cpu * 1000:.2f} ms; one database round trip (SELECT 1) "
        f"{compared['round_trip'] * 1000:.2f} ms at the median"
    )


def _round_trip(times=50):
    """The median time of one trivial statement: what each extra statement costs here."""
    from django.db import connection

    samples = []
    with connection.cursor() as cursor:
        for _ in range(times):
            started = time.perf_counter()
            cursor.execute("SELECT 1")
            cursor.fetchone()
            samples.append(time.perf_counter() - started)
    return statistics.median(samples)


@contextlib.contextmanager
def _through_the_orm():
    """The match API reading and storing a turn with ordinary ORM queries instead of
    paletti/statements.py: the seats with their match in one select_related query; the
    turn as one conditional update and one bulk_create of the log, in a transaction."""
    from unittest import mock

    from django.db import transaction

    from paletti import statements
    from paletti.models import Match, MatchAction, Seat

    def read_match(match_id):
        query = Seat.objects.select_related("match").filter(match_id=match_id)
        seats = list(query.order_by("index"))
        if not seats:
            raise Match.DoesNotExist(match_id)
        match = seats[0].match
        for seat in seats:
            seat.match = match
        return match, seats

    def store_turn(match_id, version, values, log):
        with transaction.atomic():
            if not Match.objects.filter(pk=match_id, version=version).update(**values):
                return False
            MatchAction.objects.bulk_create(log)
        return True

    with mock.patch.object(statements, "read_match", read_match):
        with mock.patch.object(statements, "store_turn", store_turn):
            yield


def _post(application, path, body):
    """POST a JSON body through the WSGI application, as a WSGI server would."""
    data = body.encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "HTTP_ACCEPT_LANGUAGE": "en",
        "HTTP_HOST": "127.0.0.1",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = status

    content = b"".join(application(environ, start_response))
    return answer["status"], content


def _next_action(state, loaded):
    """A sensible move for whoever is to act: mid-platform placements, outer columns."""
    from paletti import engine

    listed = state["legal_actions"]
    kinds = {a["type"] for a in listed}
    if "place" in kinds:
        places = [a for a in listed if a["type"] == "place"]
        return places[len(places) // 2]
    if "touch" in kinds:
        return engine.choose_action(loaded, "careful", __import__("random").Random(1))
    for preferred in ("pull", "choose_colour", "decline", "lay_platform", "pass"):
        for action in listed:
            if action["type"] == preferred:
                return action
    return listed[0]


if __name__ == "__main__":
    main()
