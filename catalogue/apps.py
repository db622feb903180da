"""Third-party apps as the staff read them in the admin."""

from django.utils.translation import gettext_lazy as _
from django_tasks_db.apps import TasksAppConfig


class TasksConfig(TasksAppConfig):
    """django-tasks-db (the background imports and e-mails): the package ships no
    translations and names its admin section "Tasks Database Backend"; locale/ has its
    words, and its list shows the task's name under a translated heading."""

    verbose_name = _("Background tasks")

    def ready(self) -> None:
        super().ready()
        from . import tasks_admin  # noqa: F401 - registers the admin over the package's
