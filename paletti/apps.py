from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PalettiConfig(AppConfig):
    name = "paletti"
    verbose_name = _("Villa Paletti")

    def ready(self):
        # A tournament of Villa Paletti seats and scores its tables by these rules; the
        # tournament app itself knows no game (paletti uses games, never the reverse).
        from games.tournament.tables import register

        from .tournament_table import SLUG, VillaPalettiTable

        register(SLUG, VillaPalettiTable())

        # A tournament table played as a match records its result when the match ends.
        from .signals import match_moved, match_over
        from .tournament_match import moved, record

        match_over.connect(record, dispatch_uid="paletti.tournament_match.record")
        match_moved.connect(moved, dispatch_uid="paletti.tournament_match.moved")
