"""Error answers: JSON under /api/ (its clients read JSON), the site's pages elsewhere.

DRF already answers JSON for errors its views raise; these cover the rest: paths under
/api/ that match no view, server errors, and requests refused before any view runs.
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext_lazy as _
from django.views import defaults

API_PREFIX = "/api/"

NOT_FOUND = _("Not found.")
SERVER_ERROR = _("The server hit an error; try again in a moment.")
FORBIDDEN = _("You do not have permission to perform this action.")
BAD_REQUEST = _("The request is malformed.")
UNAVAILABLE = _("The database cannot be reached just now; try again in a minute.")
RETRY_AFTER_SECONDS = 30


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def json_error(status: int, code: str, detail) -> JsonResponse:
    """The shape of every API error the views do not make themselves: {code, detail}."""
    return JsonResponse({"code": code, "detail": str(detail)}, status=status)


def bad_request(request, exception=None, detail=None):
    if is_api(request):
        return json_error(400, "bad_request", detail or BAD_REQUEST)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if is_api(request):
        return json_error(403, "permission_denied", FORBIDDEN)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if is_api(request):
        return json_error(404, "not_found", NOT_FOUND)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """500, or 503 when the error is the database refusing, timing out or gone: the site
    then says so and recovers by itself (Django reconnects on a later request)."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return service_unavailable(request)
    if is_api(request):
        return json_error(500, "server_error", SERVER_ERROR)
    return defaults.server_error(request)


def service_unavailable(request):
    if is_api(request):
        response = json_error(503, "database_unavailable", UNAVAILABLE)
    else:
        # A template that needs no database and no context processor.
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
