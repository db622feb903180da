"""/healthz: what a load balancer asks before sending a server requests."""

from functools import cache

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

# PostgreSQL's "lock_not_available": a lock wait ended by lock_timeout.
LOCK_NOT_AVAILABLE = "55P03"


@cache
def migrations_of_this_release() -> frozenset:
    """Every migration this code ships, read from disk once per process."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


@cache
def tables_of_this_release() -> tuple[str, ...]:
    """The tables of every model the site stores, its pages' reads among them."""
    return tuple(
        sorted(
            {
                model._meta.db_table
                for model in apps.get_models(include_auto_created=True)
                if model._meta.managed and not model._meta.proxy
            }
        )
    )


def unavailable(**details) -> JsonResponse:
    return JsonResponse({"status": "unavailable", **details}, status=503)


@never_cache
def healthz(request):
    """200 when this app server can reach its database, the database has every migration
    of this release applied, and no table of the site is locked against reading; else 503.

    Reaching the database is bounded like any request's (a new connection or the health
    check of a kept one within settings.DB_CONNECT_TIMEOUT_SECONDS; at once while the
    process takes the database for down); what follows within
    settings.HEALTHZ_DB_TIMEOUT_SECONDS. A half-migrated database answers 500 on pages
    that read a new column, and a table held in ACCESS EXCLUSIVE mode (a `LOCK TABLE`, a
    long ALTER) makes every page that reads it wait and fail: either way the balancer must
    not send this server visitors."""
    try:
        with connection.cursor():  # connects, or checks the kept connection
            pass
        bounded = getattr(connection, "bounded", None)  # PostgreSQL: catalogue.postgresql
        if bounded is None:
            return _health()
        with bounded(settings.HEALTHZ_DB_TIMEOUT_SECONDS):
            return _health()
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            return unavailable(database="locked")
        return unavailable(database="unreachable")


def _health() -> JsonResponse:
    applied = set(MigrationRecorder(connection).applied_migrations())
    missing = sorted(f"{app}.{name}" for app, name in migrations_of_this_release() - applied)
    if missing:
        return unavailable(database="ok", unapplied_migrations=missing)
    if connection.vendor == "postgresql":
        _take_read_locks()
    return JsonResponse({"status": "ok", "database": "ok"})


def _take_read_locks() -> None:
    """Take, and let go at once, the lock every read of the site's tables takes (ACCESS
    SHARE), waiting at most half the health check's time: a table someone holds against
    reading raises LockNotAvailable. Locks that only hold writers back (a plain CREATE
    INDEX, SHARE mode) leave the pages readable and the server healthy."""
    wait_ms = max(1, int(settings.HEALTHZ_DB_TIMEOUT_SECONDS * 500))
    tables = ", ".join(connection.ops.quote_name(table) for table in tables_of_this_release())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{wait_ms}ms"])
        cursor.execute(f"LOCK TABLE {tables} IN ACCESS SHARE MODE")  # noqa: S608 (our names)
