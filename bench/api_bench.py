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

--compare-statements also plays R more identical matches whose requests read and store the
turn through the hand-written SQL of paletti/statements.py instead of the ORM, interleaved
with the ORM's request by request, and prints both medians and their difference (issue:
keep the hand-written statements only if the ORM makes a request more than 3 ms slower).
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
        "--compare-statements",
        action="store_true",
        help="also time the requests with paletti/statements.py instead of the ORM",
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
        api_times, engine_times, place_sizes, turns, other_times = _measure(
            application, players, args.turns, args.replicas, args.compare_statements
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
        if other_times:
            orm, sql = statistics.median(api_times), statistics.median(other_times)
            differences = [a - b for a, b in zip(api_times, other_times, strict=True)]
            print(
                f"  same requests with paletti/statements.py: total "
                f"{sum(other_times) * 1000:.1f} ms, median {sql * 1000:.2f} ms"
            )
            print(
                f"  ORM minus statements: medians {(orm - sql) * 1000:+.2f} ms, "
                f"median per action {statistics.median(differences) * 1000:+.2f} ms "
                f"(keep the statements only above +3 ms)"
            )
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
    many more identical matches are played through paletti/statements.py, each request
    right after its ORM twin (in alternating order), and their medians kept too."""
    from django.urls import reverse

    from paletti import engine, services
    from paletti.models import Match

    variants = [("orm", contextlib.nullcontext)]
    if compare:
        variants.append(("statements", _through_statements))
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
    api_times, other_times, engine_times, place_sizes = [], [], [], []
    turns = 0
    while state["status"] == "playing" and turns < max_turns:
        action = None
        samples, engine_samples, hashes = {name: [] for name, _ in variants}, [], set()
        for position, (name, match_id, url) in enumerate(matches):
            if compare and position // 2 % 2:  # ORM first, then statements first, ...
                name, match_id, url = matches[position ^ 1]
            if name == "orm":
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
            with patches[name]():
                started = time.perf_counter()
                status, content = _post(application, url, body)
                samples[name].append(time.perf_counter() - started)
            assert status.startswith("200"), content
            hashes.add(Match.objects.values_list("state_hash", flat=True).get(pk=match_id))
        assert len(hashes) == 1, "the identical matches have drifted apart"
        api_times.append(statistics.median(samples["orm"]))
        if compare:
            other_times.append(statistics.median(samples["statements"]))
        engine_times.append(tuple(map(statistics.median, zip(*engine_samples, strict=True))))
        if action["type"] == "place":
            place_sizes.append((len(content), len(gzip.compress(content))))
            turns += 1
        state = json.loads(content)["state"]
    return api_times, engine_times, place_sizes, turns, other_times


@contextlib.contextmanager
def _through_statements():
    """The match API reading and storing a turn with paletti/statements.py, as it did
    before it went back to the ORM."""
    from unittest import mock

    from django.utils import timezone

    from paletti import services, statements
    from paletti.models import MatchAction, MatchStatus

    def get_match(match_id):
        match, seats = statements.read_match(match_id)
        match._seat_list = seats
        return match

    def store(match, state, log, version):
        finished = state.rules["phase"] == "over"
        data, digest = services.engine.snapshot_and_hash(state)
        fields = {
            "version": version + len(log),
            "snapshot": data,
            "state_hash": digest,
            "status": MatchStatus.FINISHED if finished else MatchStatus.PLAYING,
            "updated_at": timezone.now(),
        }
        entries = [
            MatchAction(match=match, number=version + i + 1, seat=seat, action=a, by_bot=bot)
            for i, (seat, a, bot) in enumerate(log)
        ]
        if not statements.store_turn(match.pk, version, fields, entries):
            raise AssertionError("the bench's matches are played one request at a time")
        for name, value in fields.items():
            setattr(match, name, value)

    with mock.patch.object(services, "get_match", get_match):
        with mock.patch.object(services, "_store", store):
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
