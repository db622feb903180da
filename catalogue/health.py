"""/healthz: what a load balancer asks before sending a server requests."""

from functools import cache

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


@cache
def migrations_of_this_release() -> frozenset:
    """Every migration this code ships, read from disk once per process."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


@never_cache
def healthz(request):
    """200 when this app server can run a query on its database within
    settings.HEALTHZ_DB_TIMEOUT_SECONDS and that database has every migration of this
    release applied, else 503: a half-migrated database answers
    500 on pages that read a new column, so the balancer must not send it visitors."""
    bounded = getattr(connection, "bounded", None)  # PostgreSQL: catalogue.postgresql
    try:
        if bounded is None:
            applied = set(MigrationRecorder(connection).applied_migrations())
        else:
            with bounded(settings.HEALTHZ_DB_TIMEOUT_SECONDS):
                applied = set(MigrationRecorder(connection).applied_migrations())
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    missing = sorted(f"{app}.{name}" for app, name in migrations_of_this_release() - applied)
    if missing:
        return JsonResponse(
            {"status": "unavailable", "database": "ok", "unapplied_migrations": missing},
            status=503,
        )
    return JsonResponse({"status": "ok", "database": "ok"})
