from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LendingConfig(AppConfig):
    """The ludothèque's lending: copies of the catalogue's games, their contents checked at
    the desk. It reads the catalogue's games; the catalogue reads it only through
    ``games.lending.selectors`` (copies on the shelf), its admin through its inlines, and
    the UNIMARC exchange writes copies through ``games.lending.services``."""

    name = "games.lending"
    label = "lending"
    verbose_name = _("Lending")

    def ready(self):
        from . import signals  # noqa: F401
