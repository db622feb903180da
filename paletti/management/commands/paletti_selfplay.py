"""Headless Villa Paletti matches between bots."""

import json

from django.core.management.base import BaseCommand, CommandError

from paletti.engine.bots import LEVELS
from paletti.engine.selfplay import run, totals


class Command(BaseCommand):
    help = "Play Villa Paletti bot matches headless and print one line per match, then totals."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        parser.add_argument("--level", default="careful", choices=LEVELS)
        parser.add_argument("--tremor", type=float, default=0.0, help="hand tremor in mm")
        parser.add_argument("--setup", default="default", choices=("default", "random"))
        parser.add_argument(
            "--seal-start", default="green", choices=("green", "blue"), help="blue: Polish"
        )
        parser.add_argument("--json", action="store_true", help="one JSON object per line")

    def handle(self, *args, **options):
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1.")
        match_options = {
            "tremor": options["tremor"],
            "setup": options["setup"],
            "seal_start": options["seal_start"],
        }
        reports = []
        for report in run(
            options["matches"],
            options["seed"],
            options["players"],
            options["level"],
            match_options,
        ):
            reports.append(report)
            if options["json"]:
                self.stdout.write(json.dumps(report))
            else:
                fell = (
                    f"fell on {report['collapse_level']} (player {report['collapse_by']})"
                    if report["collapsed"]
                    else "stood"
                )
                self.stdout.write(
                    f"seed {report['seed']}: {report['actions']} actions, highest "
                    f"{report['highest_platform']}, {fell}, end {report['end_reason']}, "
                    f"winner {report['winner']}, hash {report['hash'][:16]}, "
                    f"{report['seconds']} s (slowest decision {report['slowest_decision']} s)"
                )
        summary = totals(reports)
        if options["json"]:
            self.stdout.write(json.dumps({"totals": summary}))
        else:
            self.stdout.write(
                f"totals: {summary['matches']} matches, {summary['mean_actions']} actions on "
                f"average, {summary['reached_green']} reached green, {summary['collapses']} "
                f"collapsed, {summary['no_winner']} without winner, highest "
                f"{summary['highest']}, slowest decision {summary['slowest_decision']} s, "
                f"{summary['seconds']} s"
            )
