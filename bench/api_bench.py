"""The match API's overhead: an action request end to end against the engine's own time.

Run from the repository root:  .venv/bin/python bench/api_bench.py [--turns N]

For each action of a two-person match (choose colour, touch, pull, place…) it times the
POST through Django's test client (JSON parsing, database read, snapshot load, engine,
snapshot store, response) and, in the same run, the engine alone applying the same action
to the same loaded state. It prints both, their ratio (target ≤ 1.5), and the size of a
place action's response with its frames, raw and gzipped (target ≤ 60 KB gzipped).
The database is a throw-away SQLite file, or DATABASE_URL if set.
"""

import argparse
import gzip
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
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="whole turns to time")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from paletti import engine, services
    from paletti.models import Match

    call_command("migrate", verbosity=0)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    created = client.post(
        reverse("api:paletti-match-list"),
        {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 2024},
        content_type="application/json",
    ).json()
    match_id, state = created["id"], created["state"]
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})

    api_times, engine_times, place_sizes = [], [], []
    turns = 0
    while state["status"] == "playing" and turns < args.turns:
        match = Match.objects.get(pk=match_id)
        loaded = services.load_state(match)
        action = _next_action(state, loaded)
        started = time.perf_counter()
        engine.apply_action(loaded, action)
        engine_times.append(time.perf_counter() - started)

        body = json.dumps({"version": state["version"], "action": action})
        started = time.perf_counter()
        response = client.post(url, body, content_type="application/json")
        api_times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content
        if action["type"] == "place":
            place_sizes.append((len(response.content), len(gzip.compress(response.content))))
            turns += 1
        state = response.json()["state"]

    api_total, engine_total = sum(api_times), sum(engine_times)
    print(f"actions timed: {len(api_times)} over {turns} turns")
    print(
        f"API request end to end: total {api_total * 1000:.1f} ms, "
        f"median {statistics.median(api_times) * 1000:.2f} ms"
    )
    print(
        f"engine alone, same actions: total {engine_total * 1000:.1f} ms, "
        f"median {statistics.median(engine_times) * 1000:.2f} ms"
    )
    print(f"ratio API / engine: {api_total / engine_total:.2f} (target <= 1.5)")
    if place_sizes:
        raw = max(size for size, _ in place_sizes)
        zipped = max(size for _, size in place_sizes)
        print(
            f"largest place response: {raw / 1024:.1f} KB raw, {zipped / 1024:.1f} KB gzipped "
            "(target <= 60 KB gzipped)"
        )


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
