"""The admin's background import: a task run by django-tasks' worker (``db_worker``)."""

from django.contrib.auth import get_user_model
from django.utils import timezone, translation
from django_tasks import task

from .models import ImportJob, ImportJobStatus
from .report import report_lines
from .services import ImportOptions, import_unimarc

# The progress page is read every two seconds; writing the count for every record would
# add a statement a record for nobody to see.
PROGRESS_EVERY = 50


@task()
def import_in_background(job_id: int) -> None:
    """Import the job's file as the command does, counting the records read on the job;
    the search index is brought up to date at the end, whatever happens (``import_unimarc``
    does it once, on the way out)."""
    job = ImportJob.objects.get(pk=job_id)
    if job.status != ImportJobStatus.QUEUED:
        return  # already run: a task may be delivered again
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJobStatus.RUNNING)
    user = get_user_model().objects.filter(pk=job.created_by_id).first()

    def progress(done: int, total: int) -> None:
        if done % PROGRESS_EVERY == 0 or done == total:
            ImportJob.objects.filter(pk=job.pk).update(done=done, records=total)

    options = ImportOptions(**job.options)
    with translation.override(job.language):
        try:
            report = import_unimarc(
                bytes(job.content), options=options, user=user, progress=progress
            )
        except Exception:
            ImportJob.objects.filter(pk=job.pk).update(
                status=ImportJobStatus.FAILED, finished_at=timezone.now(), content=b""
            )
            raise
        lines = [str(line) for line in report_lines(report, verbose=options.dry_run)]
    done = len(report.outcomes)
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJobStatus.DONE,
        finished_at=timezone.now(),
        done=done,
        records=max(done, job.records),
        lines=lines,
        content=b"",  # the file is not needed any more
    )
