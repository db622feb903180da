from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Score sheets for the games whose counting is long: the sheets, their pages and their
    API. It reads the catalogue's games; the catalogue links to it through the project's
    ``SCORE_SHEETS`` setting, never by importing it."""

    name = "games.scoring"
    label = "scoring"
    verbose_name = _("Score sheets")
