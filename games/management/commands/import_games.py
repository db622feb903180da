"""Import games from a CSV file (the admin's export format), with no bound on its rows."""

from pathlib import Path

import tablib
from django.core.management.base import BaseCommand, CommandError

from games.resources import GameResource

FORMATS = {".csv": "csv", ".tsv": "tsv", ".json": "json"}


class Command(BaseCommand):
    help = (
        "Import games from a file in the admin's export format (CSV, TSV or JSON), however "
        "many rows it has; the whole file is one transaction: a row in error writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="check every row, write none")

    def handle(self, *args, file: Path, dry_run: bool, **options):
        kind = FORMATS.get(file.suffix.lower())
        if kind is None:
            raise CommandError(f"{file}: expected one of {', '.join(FORMATS)}.")
        try:
            text = file.read_text(encoding="utf-8-sig")
            dataset = tablib.Dataset().load(text, format=kind)
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{file}: {error}") from None
        except Exception as error:  # tablib's parsers raise their own kinds
            raise CommandError(f"{file}: not a readable {kind.upper()} file ({error}).") from None
        result = GameResource().import_data(
            dataset,
            dry_run=dry_run,
            use_transactions=True,
            rollback_on_validation_errors=True,
            raise_errors=False,
            unbounded=True,
        )
        for error in result.base_errors:
            self.stderr.write(str(error.error))
        for line, errors in result.row_errors():
            for error in errors:
                self.stderr.write(f"line {line}: {error.error}")
        for row in result.invalid_rows:
            self.stderr.write(f"line {row.number}: {row.error_dict}")
        if result.has_errors() or result.has_validation_errors():
            raise CommandError("Nothing was imported.")
        totals = result.totals
        verb = "would be" if dry_run else "were"
        self.stdout.write(
            f"{len(dataset)} rows: {totals['new']} games {verb} added, "
            f"{totals['update']} updated, {totals['skip']} unchanged."
        )
