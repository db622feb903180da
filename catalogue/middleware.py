"""Refuse, before any view reads them, requests no view should have to survive."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import errors
from .language import visitor_language

NUL_CHARACTER = _("The request contains a NUL character, which no field can hold.")
BODY_TOO_LARGE = _("The request body is too large: at most %(limit)s bytes.")


class RequestGuardMiddleware:
    """Two checks that cost nothing for an ordinary request:

    - an API body longer than API_MAX_BODY_BYTES is refused with 413 from its declared
      length, before a byte of it is read (a 50 MB JSON body took 2.9 s to parse before
      its refusal). Without a Content-Length Django reads no body at all.
    - a NUL character in the path, the query string, a header or a form field is a 400:
      PostgreSQL cannot store or even compare text holding one, so a lookup with it was a
      500. (JSON bodies are checked by catalogue.parsers.)
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if errors.is_api(request):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > settings.API_MAX_BODY_BYTES:
                # Refused before LocaleMiddleware: said in the visitor's language all the same.
                with translation.override(visitor_language(request)):
                    detail = BODY_TOO_LARGE % {"limit": settings.API_MAX_BODY_BYTES}
                    return errors.json_error(413, "body_too_large", detail)
        if _holds_nul(request):
            with translation.override(visitor_language(request)):
                return errors.bad_request(request, detail=NUL_CHARACTER)
        return self.get_response(request)


def _holds_nul(request) -> bool:
    if "\x00" in request.path_info:
        return True
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str) and "\x00" in value:
            return True
    for params in (request.GET, request.POST) if request.method == "POST" else (request.GET,):
        for key, values in params.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return False
