"""Where a game came from when the UNIMARC import made it: what a re-import may update.

The table keeps the name it had when the catalogue's app held this model
(``games_importedrecord``), so moving the model here changed no row."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportedRecord(models.Model):
    """A game made (or last updated) by the UNIMARC import, with the values the import
    gave it. A field whose value differs from the imported one was edited by staff since,
    and a re-import leaves it alone unless asked to overwrite."""

    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="imported_record",
        verbose_name=_("game"),
    )
    source_id = models.CharField(
        _("record number in the source"), max_length=50, blank=True, db_index=True
    )
    imported_values = models.JSONField(_("imported values"), default=dict)
    picture_url = models.CharField(_("picture address (896 $a)"), max_length=500, blank=True)
    imported_at = models.DateTimeField(_("imported"), auto_now=True)

    class Meta:
        db_table = "games_importedrecord"
        verbose_name = _("imported record")
        verbose_name_plural = _("imported records")

    def __str__(self):
        return f"{self.game} ← {self.source_id or '?'}"
