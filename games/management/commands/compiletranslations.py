"""Compile locale/*/LC_MESSAGES/*.po to .mo without GNU gettext.

Django's compilemessages needs msgfmt, which a fresh machine may lack; the run command
uses this instead so that two commands are enough. CI runs Django's compilemessages too.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po translation files to .mo (pure Python)."

    def handle(self, *args, **options):
        count = 0
        for locale_path in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_path).glob("*/LC_MESSAGES/*.po")):
                po = polib.pofile(str(po_path))
                po.save_as_mofile(str(po_path.with_suffix(".mo")))
                count += 1
        self.stdout.write(f"Compiled {count} translation file(s).")
