"""The project's settings plus one bare JSON view: the load benchmark's baseline."""

from catalogue.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bench_urls"
