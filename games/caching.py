"""Catalogue pages served for less: validators, 304s and a cache for anonymous visitors.

Every catalogue page depends only on its URL (language prefix included), the catalogue's
content and the code. So:
- its ETag and Last-Modified come from ``CatalogueVersion`` (one row, bumped by
  ``games.signals`` on every change) and the code's own version: a repeated request
  answers 304 without rendering anything;
- an anonymous visitor's page is cached whole under its absolute URL and the catalogue
  version: an edit changes the version, so no stale page is ever served, in any process.
Signed-in staff bypass the cache (``ConditionalGetMiddleware`` still answers their 304s).
"""

import hashlib
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.utils.translation import get_language
from django.views.decorators.http import condition

from .models import CatalogueVersion

PAGE_TIMEOUT = 60 * 60


def _code_version():
    """Changes when templates or translations are deployed anew (same in every worker)."""
    newest = 0.0
    for folder in (settings.BASE_DIR / "templates", *map(Path, settings.LOCALE_PATHS)):
        for path in Path(folder).rglob("*"):
            if path.suffix in {".html", ".mo"}:
                newest = max(newest, path.stat().st_mtime)
    return hashlib.sha256(str(newest).encode()).hexdigest()[:8]


CODE_VERSION = _code_version()


def _catalogue_version(request):
    if not hasattr(request, "_catalogue_version"):
        request._catalogue_version = CatalogueVersion.current()
    return request._catalogue_version


def _etag(request, *args, **kwargs):
    version = _catalogue_version(request)
    return f"{version.version}-{CODE_VERSION}-{get_language()}"


def _last_modified(request, *args, **kwargs):
    return _catalogue_version(request).changed_at


def _anonymous(request):
    return settings.SESSION_COOKIE_NAME not in request.COOKIES


def catalogue_page(view):
    """Validators and 304s for a catalogue page, and its cache for anonymous visitors."""

    @wraps(view)
    def cached_view(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD") or not _anonymous(request):
            return view(request, *args, **kwargs)
        key = (
            "page:"
            + hashlib.sha256(
                f"{_etag(request)}|{request.build_absolute_uri()}".encode()
            ).hexdigest()
        )
        response = caches["pages"].get(key)
        if response is None:
            response = view(request, *args, **kwargs)
            if response.status_code == 200 and not response.streaming:
                if hasattr(response, "render"):
                    response.render()
                caches["pages"].set(key, response, PAGE_TIMEOUT)
        return response

    return condition(etag_func=_etag, last_modified_func=_last_modified)(cached_view)
