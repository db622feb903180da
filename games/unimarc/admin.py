"""UNIMARC in the admin: the upload page (the import, as the command does it) and the
export actions on the games' list. The catalogue's game admin knows nothing of them: this
module, which the admin loads after the catalogue's own (the apps' order in the settings),
registers the game admin again extended with them."""

from dataclasses import asdict

from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.admin import GameAdmin
from games.models import EsarCategory, Game

from .export import export_unimarc
from .models import ImportJob, ImportJobStatus
from .report import report_lines
from .services import ImportOptions, import_unimarc, record_count
from .tasks import import_in_background

# An upload larger than this is refused before it is read (about 30 000 PMB records).
MAX_UPLOAD_BYTES = getattr(settings, "UNIMARC_MAX_UPLOAD_BYTES", 40 * 1024 * 1024)
# Up to this many records, the upload is imported within the request, which gunicorn gives
# 30 s: at the bench's 4 to 5 ms a record (docs/unimarc.md, on this project's loaded 2-core
# machine), 3 000 records take about 15 s, half the time a request has. A larger file is
# imported in the background by the task worker, with a page that shows how far it is.
MAX_UPLOAD_RECORDS = getattr(settings, "UNIMARC_MAX_UPLOAD_RECORDS", 3000)


class UnimarcUploadForm(forms.Form):
    file = forms.FileField(label=_("UNIMARC file (ISO 2709 or XML)"))
    dry_run = forms.BooleanField(
        label=_("Dry run: show what would be imported, change nothing"), required=False
    )
    overwrite = forms.BooleanField(
        label=_("Replace what staff edited since the last import"), required=False
    )
    other_types = forms.BooleanField(
        label=_("Import books as books instead of skipping them"), required=False
    )
    default_esar = forms.ModelChoiceField(
        EsarCategory.objects.all(),
        label=_("ESAR category of records that name none"),
        required=False,
        to_field_name="code",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "A file of more than %(records)d records is imported in the background: a page "
            "then shows how far the import has gone."
        ) % {"records": MAX_UPLOAD_RECORDS}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)d MB.") % {"size": MAX_UPLOAD_BYTES // 2**20}
            )
        # Counted as the parser reads them, whatever an XML file declares.
        self.cleaned_data["records"] = record_count(upload.read())
        upload.seek(0)
        return upload


def upload_view(model_admin, request):
    """The import page: staff who may add or change games; each record then needs the
    permissions its form would (adding a publisher, removing a credit…)."""
    if not (model_admin.has_add_permission(request) or model_admin.has_change_permission(request)):
        raise PermissionDenied
    form = UnimarcUploadForm(request.POST or None, request.FILES or None)
    lines, report = [], None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        esar = data["default_esar"]
        options = ImportOptions(
            dry_run=data["dry_run"],
            overwrite=data["overwrite"],
            other_types=data["other_types"],
            default_esar=esar.code if esar else "",
        )
        if data["records"] > MAX_UPLOAD_RECORDS:
            job = queue_import(data["file"], options, records=data["records"], user=request.user)
            return redirect("admin:games_game_import_unimarc_job", pk=job.pk)
        report = import_unimarc(data["file"].read(), options=options, user=request.user)
        lines = report_lines(report, verbose=data["dry_run"])
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": _("Import UNIMARC records"),
        "form": form,
        "report": report,
        "lines": lines,
    }
    return TemplateResponse(request, "admin/unimarc/import.html", context)


def queue_import(upload, options: ImportOptions, *, records: int, user) -> ImportJob:
    """The upload kept as a job and handed to the task worker, once the job is committed."""
    job = ImportJob.objects.create(
        created_by=user,
        file_name=upload.name[:255],
        content=upload.read(),
        options=asdict(options),
        language=translation.get_language() or settings.LANGUAGE_CODE,
        records=records,
    )
    transaction.on_commit(lambda: import_in_background.enqueue(job.pk))
    return job


def job_view(model_admin, request, pk: int):
    """How far a background import has gone, read again every two seconds until it ends;
    then its report. Its uploader's (or a superuser's) to see."""
    if not (model_admin.has_add_permission(request) or model_admin.has_change_permission(request)):
        raise PermissionDenied
    job = get_object_or_404(ImportJob.objects.defer("content"), pk=pk)
    if job.created_by_id != request.user.pk and not request.user.is_superuser:
        raise PermissionDenied
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": _("Import UNIMARC records"),
        "job": job,
        "running": job.status in (ImportJobStatus.QUEUED, ImportJobStatus.RUNNING),
    }
    return TemplateResponse(request, "admin/unimarc/job.html", context)


def _download(queryset, file_format: str) -> HttpResponse:
    suffix = "xml" if file_format == "xml" else "iso"
    content_type = "application/xml" if file_format == "xml" else "application/marc"
    response = HttpResponse(export_unimarc(queryset, file_format=file_format), content_type)
    name = f"catalogue-{timezone.localdate().isoformat()}.{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@admin.action(description=_("Export as UNIMARC (ISO 2709)"), permissions=["view"])
def export_unimarc_iso2709(model_admin, request, queryset):
    return _download(queryset, "iso2709")


@admin.action(description=_("Export as UNIMARC (XML)"), permissions=["view"])
def export_unimarc_xml(model_admin, request, queryset):
    return _download(queryset, "xml")


class UnimarcGameAdmin(GameAdmin):
    """The catalogue's game admin with the UNIMARC import page (a button on the list,
    beside the CSV import) and the two export actions."""

    import_export_change_list_template = "admin/unimarc/change_list.html"
    actions = [*GameAdmin.actions, export_unimarc_iso2709, export_unimarc_xml]

    def get_urls(self):
        upload = path(
            "import-unimarc/",
            self.admin_site.admin_view(lambda request: upload_view(self, request)),
            name="games_game_import_unimarc",
        )
        job = path(
            "import-unimarc/<int:pk>/",
            self.admin_site.admin_view(lambda request, pk: job_view(self, request, pk)),
            name="games_game_import_unimarc_job",
        )
        return [upload, job, *super().get_urls()]


admin.site.unregister(Game)
admin.site.register(Game, UnimarcGameAdmin)
