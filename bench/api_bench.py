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

The match store reads and writes through the ORM (paletti/store.py) rather than
written-out statements, which measured 5 to 17 ms faster per action on PostgreSQL under
heavy load (2 to 4 ms of CPU) but were code a newcomer could not safely change; this bench
says what an action request costs with the ORM.
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
        api_times, engine_times, place_sizes, turns = _measure(
            application, players, args.turns, args.replicas
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
        if place_sizes:
            raw = max(size for size, _ in place_sizes)
            zipped = max(size for _, size in place_sizes)
            print(
                f"  largest place response: {raw / 1024:.1f} KB raw, "
                f"{zipped / 1024:.1f} KB gzipped (target <= 60 KB gzipped)"
            )


def _measure(application, players, max_turns, replicas):
    """For each action: the engine's work for it and the request carrying it, timed on each
    of `replicas` identical matches; the median of each side is kept."""
    from django.urls import reverse

    from paletti import engine, services
    from paletti.models import Match

    variants = [("project", contextlib.nullcontext)]
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
            name, match_id, url = matches[position]
            with patches[name]():
                started, cpu = time.perf_counter(), time.process_time()
                status, content = _post(application, url, body)
                samples[name].append((time.perf_counter() - started, time.process_time() - cpu))
            assert status.startswith("200"), content
            hashes.add(Match.objects.values_list("state_hash", flat=True).get(pk=match_id))
        assert len(hashes) == 1, "the identical matches have drifted apart"
        api_times.append(statistics.median(wall for wall, _ in samples["project"]))
        engine_times.append(tuple(map(statistics.median, zip(*engine_samples, strict=True))))
        if action["type"] == "place":
            place_sizes.append((len(content), len(gzip.compress(content))))
            turns += 1
        state = json.loads(content)["state"]
    return api_times, engine_times, place_sizes, turns


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
        places = engine.placement_spots(next(a for a in listed if a["type"] == "place"))
        return places[len(places) // 2]
    if "touch" in kinds:
        return engine.choose_action(loaded, "careful", __import__("random").Random(1))
    if "lay_platform" in kinds:
        # Listed in 2-D, row by row from the front: the middle one lies mid-villa.
        lays = [a for a in listed if a["type"] == "lay_platform"]
        return lays[len(lays) // 2]
    for preferred in ("pull", "choose_colour", "decline", "lay_platform", "pass"):
        for action in listed:
            if action["type"] == preferred:
                return action
    return listed[0]


if __name__ == "__main__":
    main()
