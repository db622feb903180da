"""DRF's exception handler, with the errors Django and the JSON parser word in English
said in the reader's language instead."""

from django.http import Http404
from rest_framework.exceptions import NotFound
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import NOT_FOUND


def exception_handler(exc, context):
    """A 404 raised as Django's ``Http404`` (``get_object_or_404`` says "No Game matches
    the given query.", in English and naming a model) answers like any unknown API path:
    ``{"code": "not_found", "detail": "Not found."}``, translated."""
    if isinstance(exc, Http404):
        exc = NotFound(NOT_FOUND)
        response = drf_exception_handler(exc, context)
        response.data = {"code": "not_found", "detail": str(NOT_FOUND)}
        return response
    return drf_exception_handler(exc, context)
