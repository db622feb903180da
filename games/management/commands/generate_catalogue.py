"""Add synthetic games for benchmarks and demonstrations (see games.generate)."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from games.generate import delete_generated, generate_catalogue
from games.models import Game


class Command(BaseCommand):
    help = (
        "Add N synthetic games (the same ones for the same seed), for benchmarks and demos "
        "only. The seed games and staff records are never touched."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, required=True, help="How many games to add.")
        parser.add_argument("--seed", type=int, default=1, help="Same seed, same games.")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="First remove the games generated before (slugs starting with 'gen-').",
        )

    def handle(self, *args, games, seed, replace, **options):
        if games < 1:
            raise CommandError("--games must be at least 1.")
        if replace:
            self.stdout.write(f"Removed {delete_generated()} generated games.")
        elif Game.objects.filter(slug__startswith=f"gen-{seed}-").exists():
            raise CommandError(
                f"Games generated with seed {seed} exist; use --replace or another --seed."
            )
        started = time.monotonic()
        show = options["verbosity"] > 0

        def progress(done, total):
            if show:
                width = 30
                filled = width * done // total
                bar = "#" * filled + "." * (width - filled)
                rate = done / max(time.monotonic() - started, 1e-9)
                self.stdout.write(f"\r[{bar}] {done}/{total} ({rate:.0f}/s)", ending="")
                sys.stdout.flush()

        try:
            count = generate_catalogue(games=games, seed=seed, progress=progress)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if show:
            self.stdout.write("")
        self.stdout.write(
            self.style.SUCCESS(f"Added {count} games in {time.monotonic() - started:.1f} s.")
        )
