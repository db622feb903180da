"""Catalogue pages served for less: validators, 304s and a cache for anonymous visitors.

Every catalogue page and API answer (``CATALOGUE_PATHS``) depends only on its URL
(language prefix included), the language, the catalogue's content and the code. So:
- ``CatalogueVersion`` (one row, bumped by ``games.signals`` once per transaction that
  changes the catalogue) is read once per request, when first asked for, as
  ``request.catalogue_version`` (``CatalogueCacheMiddleware``, as Django's
  ``AuthenticationMiddleware`` gives ``request.user``);
- a page's ETag and Last-Modified come from that version, the code's version, the
  language and the page's URL (``catalogue_page``); ``ConditionalGetMiddleware`` answers
  a repeat with 304 after the view, so an error page never is one;
- an anonymous visitor's answer is cached whole, compressed as it was sent, under the
  version, its absolute URL, language and accepted formats: an edit changes the version,
  so no stale page is ever served, in any process.
Signed-in staff (a session cookie) and API clients with a token bypass the cache.
"""

import hashlib
import re
import time
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.functional import SimpleLazyObject
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import get_language

from catalogue.language import visitor_language

from .models import CatalogueVersion

PAGE_TIMEOUT = 60 * 60


def _code_version() -> str:
    """What the pages' code is: the release's id when the deployment names one
    (``DJANGO_RELEASE_ID``), else a digest of the templates' and translations' contents
    (a deployment that resets file times still changes it)."""
    if settings.RELEASE_ID:
        return hashlib.sha256(settings.RELEASE_ID.encode()).hexdigest()[:8]
    digest = hashlib.sha256()
    for folder in (settings.BASE_DIR / "templates", *map(Path, settings.LOCALE_PATHS)):
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in {".html", ".mo"}:
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


CODE_VERSION = _code_version()

# The catalogue's pages (/fr/, /fr/games/…) and API (/api/games/…, /api/esar/…): other
# paths (the admin, the matches) never look in the cache.
CATALOGUE_PATHS = re.compile(r"^/(?:[a-z]{2}(?:-[a-z]+)?/(?:games/|$)|api/(?:games|esar)/)")
# How GZipMiddleware decides that a client takes gzip: the word, not a substring.
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def catalogue_page(view):
    """A catalogue page's validators: its ETag and Last-Modified follow the catalogue's
    version, read before the view reads anything (a page is never older than its ETag)."""

    @wraps(view)
    def page(request, *args, **kwargs):
        version = request.catalogue_version
        number = version.version  # read now, before the view reads any game
        response = view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD") and response.status_code == 200:
            tag = "|".join([str(number), CODE_VERSION, get_language(), request.get_full_path()])
            response.headers.setdefault(
                "ETag", quote_etag(hashlib.sha256(tag.encode()).hexdigest()[:16])
            )
            response.headers.setdefault("Last-Modified", http_date(version.changed_at.timestamp()))
        return response

    return page


def _anonymous(request):
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _page_key(request, version: int) -> str:
    # Each part encoded on its own and joined by a character none of them can hold.
    parts = [
        str(version),
        CODE_VERSION,
        visitor_language(request, check_path=True),
        request.build_absolute_uri(),
        request.META.get("HTTP_ACCEPT", ""),
        "gzip" if ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) else "",
    ]
    return (
        "page:"
        + hashlib.sha256("\n".join(p.replace("\n", " ") for p in parts).encode()).hexdigest()
    )


class CatalogueCacheMiddleware:
    """Gives every request its ``catalogue_version`` (read on first use), and answers an
    anonymous GET of the catalogue from the cache.

    Listed before GZipMiddleware: it stores the answer as GZip left it, so a hit is not
    compressed again (the key says whether the client takes gzip; the catalogue carries no
    secret for BREACH to recover, see docs/search.md). It answers 304 itself for a matching
    If-None-Match or If-Modified-Since. An If-Modified-Since later than now is no valid
    date (RFC 9110, 13.1.3) and is ignored.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.catalogue_version = SimpleLazyObject(_read_once(CatalogueVersion.current))
        since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
        if since is not None and since > time.time():
            del request.META["HTTP_IF_MODIFIED_SINCE"]
        if (
            request.method != "GET"
            or not _anonymous(request)
            or not CATALOGUE_PATHS.match(request.path_info)
        ):
            return self.get_response(request)
        try:
            version = request.catalogue_version.version
        except DatabaseError:
            # The site's own 503 page, in the visitor's language, comes from further in.
            return self.get_response(request)
        key = _page_key(request, version)
        response = caches["pages"].get(key)
        if response is not None:
            return get_conditional_response(
                request,
                etag=response.get("ETag"),
                last_modified=parse_http_date_safe(response.get("Last-Modified", "")),
                response=response,
            )
        response = self.get_response(request)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            caches["pages"].set(key, _plain(response), PAGE_TIMEOUT)
        return response


def _read_once(read):
    """`read`, whose database error is remembered: the view asking again for the version
    this middleware could not read gets the same error at once, not a second wait of a
    lock timeout or of a database that does not answer."""
    failed = []

    def once():
        if failed:
            raise failed[0]
        try:
            return read()
        except DatabaseError as error:
            failed.append(error)
            raise

    return once


def _plain(response):
    """The answer as sent, without what a view kept on it (DRF's data: unpickling it
    doubled the cost of a hit)."""
    plain = HttpResponse(response.content, status=response.status_code)
    for header, value in response.items():
        plain[header] = value
    return plain
