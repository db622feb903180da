from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UnimarcConfig(AppConfig):
    """The catalogue's exchange with PMB in UNIMARC: reading and importing records (ISO 2709
    or XML), exporting them in PMB's layout, the admin's upload page and export actions, the
    ``import_unimarc`` and ``export_unimarc`` commands. It reads and writes the catalogue's
    games and the lending app's copies; neither of them imports it: its admin module extends
    the catalogue's game admin (``games.unimarc.admin``)."""

    name = "games.unimarc"
    label = "unimarc"
    verbose_name = _("UNIMARC exchange")
