"""django-tasks-db's admin, its computed columns headed in the staff's language."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult


class TaskResultAdmin(DBTaskResultAdmin):
    list_display = ("id", "task", *DBTaskResultAdmin.list_display[2:])

    @admin.display(description=_("task"))
    def task(self, obj: DBTaskResult) -> str:
        return obj.task_name

    @admin.display(description=_("traceback"))
    def formatted_traceback(self, obj: DBTaskResult) -> str:
        return super().formatted_traceback(obj)

    @admin.display(description=_("run after"))
    def display_run_after(self, obj: DBTaskResult):
        return super().display_run_after(obj)


admin.site.unregister(DBTaskResult)
admin.site.register(DBTaskResult, TaskResultAdmin)
