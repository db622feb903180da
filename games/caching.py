"""Catalogue pages served for less: validators, 304s and a cache for anonymous visitors.

Every catalogue page and API answer depends only on its URL (language prefix included),
the language, the catalogue's content and the code. So:
- its ETag and Last-Modified come from ``CatalogueVersion`` (one row, bumped by
  ``games.signals`` on every change) and the code's own version: a repeated request
  answers 304 without rendering anything;
- an anonymous visitor's answer is cached whole, compressed as it was sent, under its
  absolute URL, language, accepted formats and the catalogue version: an edit changes the
  version, so no stale page is ever served, in any process.

The cache is a middleware (``AnonymousCacheMiddleware``) placed before the sessions,
locale, CSRF and authentication: a cached answer costs the version's row, a key and a
cache read (at 1 000 games the list page from the cache went from 2.1 to about 1 ms of
CPU). Views opt in with ``catalogue_page`` (pages) or ``CatalogueCacheMixin`` (API).
Signed-in staff (a session cookie) and API clients with a token bypass it;
``ConditionalGetMiddleware`` still answers their 304s.
"""

import hashlib
import re
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.http import http_date
from django.utils.translation import get_language, get_language_from_request
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


def catalogue_version(request, *, read=None):
    """The catalogue's version row, read once per request (``read``: as a view read it
    along with something else)."""
    if not hasattr(request, "_catalogue_version"):
        request._catalogue_version = read or CatalogueVersion.current()
    return request._catalogue_version


def catalogue_version_known(request) -> bool:
    """Whether this request has read the catalogue's version already (the page cache
    reads it for an anonymous visitor)."""
    return hasattr(request, "_catalogue_version")


def _etag(request, *args, **kwargs):
    version = catalogue_version(request)
    return f"{version.version}-{CODE_VERSION}-{get_language()}"


def _last_modified(request, *args, **kwargs):
    return catalogue_version(request).changed_at


def _anonymous(request):
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def catalogue_page(view=None, *, version_read_by_view=False):
    """Validators and 304s for a catalogue page; its answers may be cached for anonymous
    visitors (``AnonymousCacheMiddleware``).

    With ``version_read_by_view``, a request that asks no conditional question
    (If-None-Match, If-Modified-Since) runs the view before the catalogue's version is
    known: the view reads it in its own first statement (the list page, with its count on
    PostgreSQL: one round trip fewer) or calls ``catalogue_version`` before it reads
    anything else, and the validators are then set from what it read."""

    def decorate(view):
        @wraps(view)
        def cacheable_view(request, *args, **kwargs):
            response = view(request, *args, **kwargs)
            response.catalogue_cacheable = True
            return response

        conditional = condition(etag_func=_etag, last_modified_func=_last_modified)(cacheable_view)
        if not version_read_by_view:
            return conditional

        @wraps(view)
        def page(request, *args, **kwargs):
            if request.method not in ("GET", "HEAD") or (
                "HTTP_IF_NONE_MATCH" in request.META or "HTTP_IF_MODIFIED_SINCE" in request.META
            ):
                return conditional(request, *args, **kwargs)
            response = cacheable_view(request, *args, **kwargs)
            # What ``condition`` sets after the view.
            if not response.has_header("Last-Modified"):
                response.headers["Last-Modified"] = http_date(_last_modified(request).timestamp())
            response.headers.setdefault("ETag", quote_etag(_etag(request)))
            return response

        return page

    return decorate(view) if view is not None else decorate


class CatalogueCacheMixin:
    """For DRF viewsets: their GET answers may be cached for anonymous clients."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method == "GET":
            response.catalogue_cacheable = True
        return response


# The catalogue's pages (/fr/, /fr/games/…) and API (/api/games/…, /api/esar/…): other
# paths (the admin, the matches) never look in the cache, nor read the version's row.
CATALOGUE_PATHS = re.compile(r"^/(?:[a-z]{2}(?:-[a-z]+)?/(?:games/|$)|api/(?:games|esar)/)")


class AnonymousCacheMiddleware:
    """Answers an anonymous GET of the catalogue from the cache, once a view has marked
    that answer cacheable.

    Listed before GZipMiddleware: it stores the answer as GZip left it, so a hit is not
    compressed again (the key says whether the client takes gzip; the catalogue carries no
    secret for BREACH to recover, see docs/search.md). It answers 304 itself for a matching
    If-None-Match or If-Modified-Since.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method != "GET"
            or not _anonymous(request)
            or not CATALOGUE_PATHS.match(request.path_info)
        ):
            return self.get_response(request)
        try:
            version = catalogue_version(request)
        except DatabaseError:
            # The site's own 503 page, in the visitor's language, comes from further in.
            return self.get_response(request)
        key = (
            "page:"
            + hashlib.sha256(
                "|".join(
                    [
                        str(version.version),
                        CODE_VERSION,
                        get_language_from_request(request, check_path=True),
                        request.build_absolute_uri(),
                        request.META.get("HTTP_ACCEPT", ""),
                        "gzip" if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "") else "",
                    ]
                ).encode()
            ).hexdigest()
        )
        response = caches["pages"].get(key)
        if response is not None:
            return (
                get_conditional_response(
                    request,
                    etag=response.get("ETag"),
                    last_modified=int(version.changed_at.timestamp()),
                    response=response,
                )
                if response.has_header("ETag")
                else response
            )
        response = self.get_response(request)
        if (
            getattr(response, "catalogue_cacheable", False)
            and response.status_code == 200
            and not response.streaming
            and not response.cookies
        ):
            caches["pages"].set(key, _plain(response), PAGE_TIMEOUT)
        return response


def _plain(response):
    """The answer as sent, without what a view kept on it (DRF's data: unpickling it
    doubled the cost of a hit)."""
    plain = HttpResponse(response.content, status=response.status_code)
    for header, value in response.items():
        plain[header] = value
    return plain
