"""Import UNIMARC records (ISO 2709 or XML, as PMB exports them) into the catalogue.

    manage.py import_unimarc export.iso [more files…] [--dry-run] [--overwrite]
        [--other-types] [--field "Nb de joueurs=players" …]

How each field maps: docs/unimarc.md.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games.unimarc.mapping import CUSTOM_FIELD_TARGETS
from games.unimarc.report import report_lines
from games.unimarc.services import ImportOptions, import_unimarc


class ProgressBar:
    """A one-line bar on standard error, redrawn at most once per percent."""

    def __init__(self, stream, name: str):
        self.stream, self.name, self.shown = stream, name, -1

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // total
        if percent == self.shown and done != total:
            return
        self.shown = percent
        filled = percent * 30 // 100
        bar = f"\r{self.name} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
        self.stream.write(bar, ending="\n" if done == total else "")
        self.stream.flush()


class Command(BaseCommand):
    help = _("Import UNIMARC records (ISO 2709 or XML) into the catalogue.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument(
            "--dry-run", action="store_true", help=_("Show what would be imported; change nothing.")
        )
        parser.add_argument(
            "--overwrite",
            action="store_true",
            help=_("Replace what staff edited since the last import, and records not made by one."),
        )
        parser.add_argument(
            "--other-types",
            action="store_true",
            help=_(
                "Import books too, as what they are, instead of skipping them (games and kits "
                "are always imported)."
            ),
        )
        parser.add_argument(
            "--field",
            action="append",
            default=[],
            metavar="NAME=TARGET",
            help=_("Map a PMB custom field (900 $n or $l) to one of: %(targets)s.")
            % {"targets": ", ".join(CUSTOM_FIELD_TARGETS)},
        )
        parser.add_argument(
            "--default-esar",
            default="",
            metavar="CODE",
            help=_("The ESAR category (e.g. “A 400”) of records that name none."),
        )
        parser.add_argument("--no-progress", action="store_true", help=_("No progress bar."))

    def handle(
        self,
        *args,
        files,
        dry_run,
        overwrite,
        other_types,
        field,
        default_esar,
        no_progress,
        **options,
    ):
        custom_fields = {}
        for pair in field:
            name, sep, target = pair.rpartition("=")
            if not sep or not name.strip():
                raise CommandError(
                    _("--field takes NAME=TARGET, not “%(value)s”.") % {"value": pair}
                )
            custom_fields[name.strip()] = target.strip()
        import_options = ImportOptions(
            dry_run=dry_run,
            overwrite=overwrite,
            other_types=other_types,
            custom_fields=custom_fields,
            default_esar=default_esar.strip(),
        )
        verbose = dry_run or options["verbosity"] > 1
        for name in files:
            path = Path(name)
            try:
                content = path.read_bytes()
            except OSError as error:
                raise CommandError(
                    _("Cannot read %(file)s: %(reason)s") % {"file": name, "reason": error.strerror}
                ) from None
            progress = None if no_progress else ProgressBar(self.stderr, path.name)
            try:
                report = import_unimarc(content, options=import_options, progress=progress)
            except ValueError as error:  # a mapping that names an unknown target
                raise CommandError(str(error)) from None
            self.stdout.write(path.name)
            for line in report_lines(report, verbose=verbose):
                self.stdout.write(line)
