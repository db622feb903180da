"""Matches followed live: delivery from an action's commit to a device on the other server,
memory per open stream, and the catalogue's p95 with 200 open streams against idle.

Run from the repository root:

    .venv/bin/python bench/live_bench.py [--streams 200] [--matches 10] [--seconds 40]

It makes a fresh PostgreSQL database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ludotheque_live_bench; dropped and created), loads the
seed games and starts, on 127.0.0.1 only, the two servers of the README's deployment:
gunicorn (port 8821, two workers: pages and actions) and uvicorn (port 8822: the streams),
production settings, Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/0) for the
throttles and the notifications. Then:

1. idle: the catalogue's pages and API, read by 4 clients for `--phase-seconds`, on gunicorn;
2. `--streams` spectator streams opened on uvicorn, spread over `--matches` matches (two
   persons on the organiser's device each), and uvicorn's resident memory before and after;
3. the same catalogue reads again while those streams stay open;
4. and again while each match also gets one action a second on gunicorn (the engine's
   work there competes with the catalogue); each event's arrival is noted.

It prints the catalogue's p50 and p95 in each phase (the ratios to idle), the memory
per open stream, and the delivery to the streams (the other server): from the action's
answer (the commit comes just before it) and from the action's sending (an upper bound,
with the engine's work), p50 and p95, and how many events arrived of those expected.
"""

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.two_servers import postable, redis_url  # noqa: E402

HOST = "127.0.0.1"
PAGES, STREAMS = 8821, 8822
CATALOGUE = ["/fr/games/", "/fr/games/?players=3&age=8", "/fr/games/villa-paletti/",
             "/api/games/?players=3", "/api/games/alhambra/", "/api/esar/"]  # fmt: skip


def call(port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    sent = {"Host": "localhost", "Accept-Language": "en", **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    parsed = json.loads(payload) if payload[:1] in (b"{", b"[") else None
    return response.status, parsed


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def rss_kib(pid: int) -> int:
    """Resident memory of a process and its children (uvicorn's worker), in KiB."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def read_catalogue(seconds, clients=4):
    times, lock, stop = [], threading.Lock(), time.monotonic() + seconds

    def client(index):
        n = index
        while time.monotonic() < stop:
            started = time.perf_counter()
            status, _ = call(PAGES, "GET", CATALOGUE[n % len(CATALOGUE)])
            elapsed = time.perf_counter() - started
            if status == 200:
                with lock:
                    times.append(elapsed)
            n += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


class Spectator(threading.Thread):
    """One open stream; notes when each version arrives."""

    def __init__(self, match_id, token, arrivals, since):
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection(HOST, STREAMS, timeout=120)
        path = f"/api/paletti/matches/{match_id}/stream/?since={since}"
        self.connection.request("GET", path, headers={"Host": "localhost", "X-Seat-Token": token})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.match_id, self.arrivals = match_id, arrivals

    def run(self):
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    version = int(line[4:])
                    self.arrivals.append((self.match_id, version, time.monotonic()))
        except (OSError, ValueError, AttributeError):
            return  # closed at the end of the bench

    def close(self):
        # Shut the socket first: the reading thread holds the response until then.
        with contextlib.suppress(OSError):
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()


def play(matches, stop, sent_at, answered_at):
    """One action a second in each match, on gunicorn, noting when each was sent and answered."""
    rng = random.Random(1)
    while not stop.is_set():
        tick = time.monotonic()
        for match in matches:
            if match["finished"]:
                continue
            headers = {"X-Seat-Token": match["token"]}
            path = f"/api/paletti/matches/{match['id']}/"
            _, state = call(PAGES, "GET", path, headers=headers)
            if state["status"] != "playing" or not state["legal_actions"]:
                match["finished"] = True
                continue
            action = postable(rng.choice(state["legal_actions"]))
            before = time.monotonic()
            body = {"version": state["version"], "action": action}
            status, answer = call(PAGES, "POST", path + "actions/", body, headers)
            after = time.monotonic()
            if status == 200:
                version = answer["state"]["version"]
                sent_at[(match["id"], version)] = before
                answered_at[(match["id"], version)] = after
        stop.wait(max(0.0, 1.0 - (time.monotonic() - tick)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--phase-seconds", type=float, default=30)
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ludotheque_live_bench"
    )
    name = url.rsplit("/", 1)[1]
    redis = redis_url()
    if not redis:
        raise SystemExit("this bench needs Redis (BENCH_REDIS_URL)")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "catalogue.settings",
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": "bench-only-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_REDIS_URL": redis,
        "DJANGO_CACHE_KEY_PREFIX": f"live-bench-{os.getpid()}",
        "DJANGO_ENGINE_CONCURRENT": "off",
        "DJANGO_ENGINE_SECONDS_PER_MINUTE": "off",
        "DJANGO_THROTTLE_MATCH_ACTIONS": "100000/min",
        "DJANGO_THROTTLE_MATCH_CREATION": "100000/hour",
    }
    python = str(ROOT / ".venv" / "bin" / "python")
    for command in (["dropdb", "--if-exists", name], ["createdb", name]):
        subprocess.run([*command[:1], "-h", HOST, "-U", "postgres", *command[1:]], check=True)
    setup = (["migrate", "-v0"], ["createcachetable"], ["seed"], ["collectstatic", "--noinput"])
    for command in setup:
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    pages = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "catalogue.wsgi", "--bind", f"{HOST}:{PAGES}",
         "--workers", "2", "--log-level", "warning"], cwd=ROOT, env=env,
    )  # fmt: skip
    streams = subprocess.Popen(
        [str(ROOT / ".venv/bin/uvicorn"), "catalogue.asgi:application", "--host", HOST,
         "--port", str(STREAMS), "--log-level", "warning", "--no-access-log"], cwd=ROOT, env=env,
    )  # fmt: skip
    spectators = []
    try:
        for port in (PAGES, STREAMS):
            for _ in range(100):
                try:
                    if call(port, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.2)
            else:
                raise SystemExit(f"server on port {port} did not come up")
        read_catalogue(3)  # warm both workers' caches
        idle = read_catalogue(args.phase_seconds)

        players = {"players": [{"name": "Ada"}, {"name": "Bo"}]}
        matches = []
        for _ in range(args.matches):
            status, body = call(PAGES, "POST", "/api/paletti/matches/", players)
            assert status == 201, body
            spectator = next(link for link in body["links"] if link["seat"] is None)
            matches.append({
                "id": body["id"], "token": body["organiser_token"], "finished": False,
                "spectator": spectator["url"].split("#", 1)[1], "version": body["state"]["version"],
            })  # fmt: skip
        time.sleep(1)
        before = rss_kib(streams.pid)
        arrivals = []
        for n in range(args.streams):
            match = matches[n % len(matches)]
            spectator = Spectator(match["id"], match["spectator"], arrivals, match["version"])
            if spectator.status != 200:
                raise SystemExit(f"stream {n} refused: {spectator.status}")
            spectator.start()
            spectators.append(spectator)
        time.sleep(3)
        after = rss_kib(streams.pid)

        streaming = read_catalogue(args.phase_seconds)
        stop, sent_at, answered_at = threading.Event(), {}, {}
        player = threading.Thread(target=play, args=(matches, stop, sent_at, answered_at))
        player.start()
        loaded = read_catalogue(args.phase_seconds)
        stop.set()
        player.join()
        time.sleep(2)  # the last events arrive
    finally:
        for spectator in spectators:
            spectator.close()
        for server in (pages, streams):
            server.terminate()
        for server in (pages, streams):
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()

    per_match = {}
    for match in matches:
        per_match[match["id"]] = sum(1 for s in spectators if s.match_id == match["id"])
    from_answer, from_sending, expected = [], [], 0
    for (match_id, version), answered in answered_at.items():
        expected += per_match[match_id]
        for arrived_match, arrived_version, at in arrivals:
            if arrived_match == match_id and arrived_version == version:
                from_answer.append(at - answered)
                from_sending.append(at - sent_at[(match_id, version)])

    def ms(values, fraction):
        return percentile(values, fraction) * 1000

    print(f"{args.streams} spectator streams on uvicorn over {args.matches} matches; actions"
          f" on gunicorn: {len(answered_at)} in {args.phase_seconds:.0f} s")  # fmt: skip
    print("| what | p50 | p95 |")
    print("| --- | --- | --- |")
    print(f"| catalogue, idle ({len(idle)} reads) |"
          f" {ms(idle, 0.5):.1f} ms | {ms(idle, 0.95):.1f} ms |")  # fmt: skip
    print(f"| catalogue, {args.streams} open streams ({len(streaming)} reads) |"
          f" {ms(streaming, 0.5):.1f} ms | {ms(streaming, 0.95):.1f} ms |")  # fmt: skip
    print(f"| catalogue, {args.streams} open streams and the actions ({len(loaded)} reads) |"
          f" {ms(loaded, 0.5):.1f} ms | {ms(loaded, 0.95):.1f} ms |")  # fmt: skip
    print(f"| delivery to a stream on the other server, from the action's answer |"
          f" {ms(from_answer, 0.5):.0f} ms | {ms(from_answer, 0.95):.0f} ms |")  # fmt: skip
    print(f"| delivery, from the action's sending (with the engine's work) |"
          f" {ms(from_sending, 0.5):.0f} ms | {ms(from_sending, 0.95):.0f} ms |")  # fmt: skip
    idle_p95 = percentile(idle, 0.95) or 1
    print(f"catalogue p95, {args.streams} open streams / idle:"
          f" {percentile(streaming, 0.95) / idle_p95:.2f}x; with the actions too:"
          f" {percentile(loaded, 0.95) / idle_p95:.2f}x")  # fmt: skip
    print(f"events received: {len(from_answer)} of {expected} expected;"
          f" uvicorn's memory: {before / 1024:.1f} MiB with no stream,"
          f" {after / 1024:.1f} MiB with {args.streams}:"
          f" {(after - before) / max(1, args.streams):.0f} KiB per open stream")  # fmt: skip
    if len(from_answer) < expected:
        print("some events did not arrive")


if __name__ == "__main__":
    main()
