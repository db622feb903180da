from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PalettiConfig(AppConfig):
    name = "paletti"
    verbose_name = _("Villa Paletti")
