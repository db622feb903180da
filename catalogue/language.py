"""Which language a visitor is served in.

``VISITOR_LANGUAGE`` ("fr") is the language of a visitor who states none the site offers
(no language in the path, no language cookie, no Accept-Language naming one with a
weight above 0): the ludothèque is French, so the root redirects such a visitor to /fr/
and the API answers them in French. Django's own choice answers ``LANGUAGE_CODE`` for
such a visitor, but also a language an Accept-Language range refuses ("en;q=0"): a
language is the visitor's only when they name it.
The records' own texts are in ``RECORD_LANGUAGE`` (French), whatever the page's language.
"""

import re

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.middleware import locale
from django.utils import translation

# A language range of Accept-Language (RFC 9110, 12.5.4) with its weight; {} the language.
LANGUAGE_RANGE = (
    r"\s*{}(?:-[a-z0-9]{{1,8}})*\s*"
    r"(?:;\s*q\s*=\s*(?P<weight>0(?:\.[0-9]{{0,3}})?|1(?:\.0{{0,3}})?))?\s*"
)
# Django reads no further into Accept-Language than this either.
ACCEPT_LANGUAGE_MAX_LENGTH = 500


def visitor_language(request, *, check_path: bool = True) -> str:
    """The language of ``settings.LANGUAGES`` that the request asks for, as Django's
    ``get_language_from_request`` finds it (the path's prefix, the language cookie, then
    Accept-Language), or ``settings.VISITOR_LANGUAGE`` when it asks for none of them.

    Django answers its default both for a visitor who asks for it and for one who asks for
    nothing it offers, and a language named with a weight of 0: the language found is the
    visitor's only when the request names it."""
    language = translation.get_language_from_request(request, check_path=check_path)
    if _asks_for(request, language, check_path=check_path):
        return language
    return settings.VISITOR_LANGUAGE


def _asks_for(request, language: str, *, check_path: bool) -> bool:
    """Whether the path, the language cookie or Accept-Language (with a weight above 0)
    names ``language``."""
    if check_path and translation.get_language_from_path(request.path_info) == language:
        return True
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie:
        try:
            if translation.get_supported_language_variant(cookie) == language:
                return True
        except LookupError:
            pass
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    if len(header) > ACCEPT_LANGUAGE_MAX_LENGTH:
        # As Django does: the ranges before the last comma within the limit, if any.
        header = header[: max(0, header.rfind(",", 0, ACCEPT_LANGUAGE_MAX_LENGTH))]
    named = re.compile(LANGUAGE_RANGE.format(re.escape(language)), re.IGNORECASE)
    for part in header.split(","):
        match = named.fullmatch(part)
        if match and float(match["weight"] or 1) > 0:
            return True
    return False


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's ``LocaleMiddleware``, activating ``visitor_language``: a visitor who states
    no language the site offers gets French pages (and is redirected from / to /fr/).
    Every URL of the site but the API's has a language prefix, the default language's
    too."""

    def process_request(self, request):
        urlconf = getattr(request, "urlconf", settings.ROOT_URLCONF)
        i18n_patterns_used = is_language_prefix_patterns_used(urlconf)[0]
        translation.activate(visitor_language(request, check_path=i18n_patterns_used))
        request.LANGUAGE_CODE = translation.get_language()
