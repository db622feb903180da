from django.core.management.base import BaseCommand

from games.lending.retention import anonymise


class Command(BaseCommand):
    help = (
        "Anonymise loans returned, and households whose membership ended, longer ago than "
        "LENDING_RETENTION_DAYS (default two years). Meant for cron, once a day."
    )

    def handle(self, *args, **options):
        done = anonymise()
        self.stdout.write(f"{done.loans} loan(s) and {done.households} household(s) anonymised.")
