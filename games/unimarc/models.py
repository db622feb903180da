"""Where a game came from when the UNIMARC import made it: what a re-import may update.

The table keeps the name it had when the catalogue's app held this model
(``games_importedrecord``), so moving the model here changed no row."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


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


class ImportJobStatus(models.TextChoices):
    QUEUED = "queued", _("waiting for the worker")
    RUNNING = "running", _("importing")
    DONE = "done", _("done")
    FAILED = "failed", _("stopped by an error")


class ImportJob(models.Model):
    """A file uploaded in the admin, imported in the background by the task worker
    (django-tasks' database backend) so that a whole catalogue never holds a web worker.
    The file is kept in the database, where any worker can read it, until the import ends;
    the report's lines stay for the progress page."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    finished_at = models.DateTimeField(pgettext_lazy("import job", "ended"), null=True, blank=True)
    file_name = models.CharField(_("file"), max_length=255)
    content = models.BinaryField(_("content"), blank=True)
    options = models.JSONField(_("options"), default=dict)
    language = models.CharField(_("language"), max_length=10, default="en")
    status = models.CharField(
        _("status"), max_length=10, choices=ImportJobStatus.choices, default=ImportJobStatus.QUEUED
    )
    records = models.PositiveIntegerField(_("records"), default=0)
    done = models.PositiveIntegerField(_("records read"), default=0)
    lines = models.JSONField(_("report"), default=list)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("background import")
        verbose_name_plural = _("background imports")

    def __str__(self):
        return f"{self.file_name} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        return min(100, self.done * 100 // self.records) if self.records else 0
