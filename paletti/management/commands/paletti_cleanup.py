"""Remove abandoned and old Villa Paletti matches; meant for cron."""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from paletti.services import remove_old_matches, remove_outdated_matches


class Command(BaseCommand):
    help = (
        "Delete unfinished matches idle longer than --idle-hours and finished matches "
        "older than --finished-days (0 keeps them). Run it from cron, e.g. hourly."
    )

    def add_arguments(self, parser):
        parser.add_argument("--idle-hours", type=float, default=24.0)
        parser.add_argument("--finished-days", type=float, default=90.0)
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")
        parser.add_argument(
            "--outdated",
            action="store_true",
            help="also delete the matches stored by an earlier engine (no longer playable)",
        )

    def handle(self, *args, **options):
        if options["idle_hours"] <= 0 or options["finished_days"] < 0:
            raise CommandError("--idle-hours must be positive and --finished-days not negative.")
        finished = options["finished_days"]
        result = remove_old_matches(
            idle=timedelta(hours=options["idle_hours"]),
            finished_after=timedelta(days=finished) if finished else None,
            dry_run=options["dry_run"],
        )
        verb = "would delete" if options["dry_run"] else "deleted"
        self.stdout.write(
            f"{verb} {result.abandoned} abandoned and {result.finished} old finished match(es)"
        )
        if options["outdated"]:
            count = remove_outdated_matches(dry_run=options["dry_run"])
            self.stdout.write(f"{verb} {count} match(es) stored by an earlier engine")
