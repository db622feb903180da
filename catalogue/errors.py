"""Error answers: JSON under /api/ (its clients read JSON), the site's pages elsewhere.

DRF already answers JSON for errors its views raise; these cover the rest: paths under
/api/ that match no view, server errors, and requests refused before any view runs.
"""

from django.http import JsonResponse
from django.utils.translation import gettext_lazy as _
from django.views import defaults

API_PREFIX = "/api/"

NOT_FOUND = _("Not found.")
SERVER_ERROR = _("The server hit an error; try again in a moment.")
FORBIDDEN = _("You do not have permission to perform this action.")
BAD_REQUEST = _("The request is malformed.")


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
    if is_api(request):
        return json_error(500, "server_error", SERVER_ERROR)
    return defaults.server_error(request)
