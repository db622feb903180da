"""Remove abandoned and old Villa Paletti matches; meant for cron."""

import argparse
import math
import time
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from paletti.services import remove_old_matches, remove_outdated_matches
from paletti.throttles import PERIODS, forget_before

# Longer than this is "for ever" in practice and still fits in a timedelta.
MAX_DAYS = 100 * 365


def finite_number(text: str) -> float:
    """A number of hours or days: "nan" and "inf" parse as floats but are no age. The
    error is argparse's, so that the command line prints a usage line, not a traceback
    (call_command turns it into a CommandError)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number.") from None
    if not math.isfinite(value) or abs(value) > MAX_DAYS * 24:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a finite number of at most {MAX_DAYS * 24}."
        )
    return value


class Command(BaseCommand):
    help = (
        "Delete unfinished matches idle longer than --idle-hours, unfinished matches no "
        "person ever acted in older than --unplayed-hours, and finished matches older than "
        "--finished-days (0 keeps them), and the throttles' log entries older than a day. "
        "Run it from cron, e.g. hourly."
    )

    def add_arguments(self, parser):
        parser.add_argument("--idle-hours", type=finite_number, default=24.0)
        parser.add_argument("--finished-days", type=finite_number, default=90.0)
        parser.add_argument(
            "--unplayed-hours",
            type=finite_number,
            default=2.0,
            help="unfinished matches in which no person ever acted, this old (0 keeps them)",
        )
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")
        parser.add_argument(
            "--outdated",
            action="store_true",
            help="also delete the matches stored by an earlier engine (no longer playable)",
        )

    def handle(self, *args, **options):
        if options["idle_hours"] <= 0 or options["finished_days"] < 0:
            raise CommandError("--idle-hours must be positive and --finished-days not negative.")
        if options["unplayed_hours"] < 0:
            raise CommandError("--unplayed-hours must not be negative.")
        unplayed = options["unplayed_hours"]
        finished = options["finished_days"]
        result = remove_old_matches(
            idle=timedelta(hours=options["idle_hours"]),
            finished_after=timedelta(days=finished) if finished else None,
            unplayed=timedelta(hours=unplayed) if unplayed else None,
            dry_run=options["dry_run"],
        )
        verb = "would delete" if options["dry_run"] else "deleted"
        self.stdout.write(
            f"{verb} {result.abandoned} abandoned, {result.unplayed} never played and "
            f"{result.finished} old finished match(es)"
        )
        if options["outdated"]:
            count = remove_outdated_matches(dry_run=options["dry_run"])
            self.stdout.write(f"{verb} {count} match(es) stored by an earlier engine")
        if not options["dry_run"]:
            # No rate counts over more than its period: older entries count for nothing.
            forgotten = forget_before(time.time() - max(PERIODS.values()))
            self.stdout.write(f"deleted {forgotten} throttle log entries older than a day")
