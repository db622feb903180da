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
        parser.add_argument(
            "--levels",
            help="one level per seat, comma-separated (e.g. careful,easy); overrides --level",
        )
        parser.add_argument("--tremor", type=float, default=0.0, help="hand tremor in mm")
        parser.add_argument("--setup", default="default", choices=("default", "random"))
        parser.add_argument(
            "--seal-start", default="green", choices=("green", "blue"), help="blue: Polish"
        )
        parser.add_argument("--json", action="store_true", help="one JSON object per line")
        parser.add_argument(
            "--check-reload",
            action="store_true",
            help="apply every action to the live state and to its reload from the store and "
            "count different outcomes; audit every stored platform's load against the hull "
            "of its supports (slower)",
        )

    def handle(self, *args, **options):
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1.")
        match_options = {
            "tremor": options["tremor"],
            "setup": options["setup"],
            "seal_start": options["seal_start"],
        }
        level = options["level"]
        if options["levels"]:
            level = options["levels"].split(",")
            if len(level) != options["players"] or not set(level) <= set(LEVELS):
                raise CommandError(
                    f"--levels needs {options['players']} of {', '.join(LEVELS)}, comma-separated."
                )
        reports = []
        for report in run(
            options["matches"],
            options["seed"],
            options["players"],
            level,
            match_options,
            options["check_reload"],
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
                    f"{report['seconds']} s (slowest decision {report['slowest_decision']} s), "
                    f"{report['turns']} turns, {report['claims']} claims, protests "
                    f"{report['protests_won']}/{report['protests']} won"
                    + (
                        f", collapse during {report['collapse_action']}"
                        f" ({report['collapse_reason']}, {report['collapse_view']} view)"
                        if report["collapsed"]
                        else ""
                    )
                    + (
                        f", reload check {report['reload_mismatches']}/{report['states_checked']}"
                        f" differ, {report['outside_hull']} outside the hull"
                        f" (worst margin {report['worst_margin']} mm)"
                        if options["check_reload"]
                        else ""
                    )
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
                f"{summary['seconds']} s; turns min/median/max {summary['turns']['min']}/"
                f"{summary['turns']['median']}/{summary['turns']['max']}; collapses by action "
                f"{summary['collapse_causes']}, by way {summary['collapse_directions']} "
                f"({summary['depth_collapses']} towards the front or back), by reason "
                f"{summary['collapse_reasons']}; ends {summary['end_reasons']}, outcomes "
                f"{summary['outcomes']}, winners {summary['winners']}; claims "
                f"{summary['claims']}; protests {summary['protests_won']}/{summary['protests']} "
                f"won; passes {summary['passes']}; touch-then-abort {summary['touch_aborts']} "
                f"in {summary['all_turns']} turns ({summary['light_touch_aborts']} under 10 g); "
                f"median highest {summary['median_highest']}; green's layer won "
                f"{summary['green_layer_won']} of {summary['green_laid']}; unfinished "
                f"{summary['unfinished']}; bot CPU per decision (ms) {summary['bot_cpu_ms']}"
                + (
                    f"; reload check: {summary['reload_mismatches']} of "
                    f"{summary['states_checked']} stored states give another outcome reloaded, "
                    f"{summary['outside_hull']} hold a load more than 1 mm outside its "
                    f"supports (worst margin {summary['worst_margin']} mm)"
                    if options["check_reload"]
                    else ""
                )
            )
