"""Export the catalogue as UNIMARC in PMB's layout (ISO 2709 or XML, UTF-8).

manage.py export_unimarc [--format iso2709|xml] [--output FILE] [--game SLUG …]
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games.models import Game
from games.unimarc.export import export_unimarc


class Command(BaseCommand):
    help = _("Export the catalogue as UNIMARC records in PMB's layout.")

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["iso2709", "xml"], default="iso2709")
        parser.add_argument(
            "--output", metavar="FILE", help=_("Write to FILE instead of standard output.")
        )
        parser.add_argument(
            "--game", action="append", default=[], metavar="SLUG", help=_("Only this game.")
        )

    def handle(self, *args, format, output, game, **options):
        queryset = Game.objects.all()
        if game:
            queryset = queryset.filter(slug__in=game)
            missing = set(game) - set(queryset.values_list("slug", flat=True))
            if missing:
                raise CommandError(_("No game %(slugs)s.") % {"slugs": ", ".join(sorted(missing))})
        content = export_unimarc(queryset, file_format=format)
        if output:
            try:
                Path(output).write_bytes(content)
            except OSError as error:
                raise CommandError(
                    _("Cannot write %(file)s: %(reason)s")
                    % {"file": output, "reason": error.strerror}
                ) from None
            self.stderr.write(
                _("%(count)d games written to %(file)s.")
                % {"count": queryset.count(), "file": output}
            )
        else:
            sys.stdout.buffer.write(content)
