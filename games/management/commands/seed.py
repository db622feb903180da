"""Load the seed catalogue (ESAR vocabulary, the three games, rule summaries) once.

Run by the README's run command on every start, so it never overwrites what staff have
edited: the records are loaded only into an empty catalogue, unless --force is given.
"""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from games.esar import ensure_facet_a
from games.models import Game

FIXTURES = ["games.json", "rule_summaries.json", "contents.json"]


class Command(BaseCommand):
    help = "Load the seed games into an empty catalogue."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Load even if the catalogue has games."
        )

    def handle(self, *args, force=False, **options):
        if Game.objects.exists() and not force:
            self.stdout.write("The catalogue already has games; seed data left alone.")
            return
        ensure_facet_a()  # there since the migrations, unless the database was flushed
        fixtures_dir = Path(settings.BASE_DIR) / "fixtures"
        paths = [str(fixtures_dir / name) for name in FIXTURES]
        call_command("loaddata", *paths, verbosity=options.get("verbosity", 1))
