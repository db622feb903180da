"""/healthz: what a load balancer asks before sending a server requests."""

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request):
    """200 when this app server can run a query on its database, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
