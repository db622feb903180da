from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse, translate_url
from django.utils.html import escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, get_language_info, gettext

register = template.Library()

# Pieces of every page that depend only on the language (and a few named variants):
# rendered once per process, which is restarted when templates or translations change.
_RENDERED_PER_LANGUAGE = {}


@register.simple_tag
def rendered_per_language(template_name, **variant):
    """A template that needs nothing but the language and ``variant`` (the site's header,
    footer and stylesheet links), rendered once per language and variant in a process.

    The page's frame (header, footer, asset links) was half of the list page's rendering
    time, for text that only changes with the language. With DEBUG on, it is rendered on
    every request so that edits show at once."""
    key = (template_name, get_language(), tuple(sorted(variant.items())))
    html = None if settings.DEBUG else _RENDERED_PER_LANGUAGE.get(key)
    if html is None:
        html = get_template(template_name).render(variant)
        if not settings.DEBUG:
            _RENDERED_PER_LANGUAGE[key] = html
    return mark_safe(html)  # noqa: S308 - rendered by the template engine, escaped there


def _path_in_language(request, language_code):
    """The request's path under another language prefix. No URL of this site is
    translated, so "/fr/games/" is "/da/games/" in Danish: swapping the prefix gives what
    ``translate_url`` finds by resolving the path and reversing it (a quarter of the list
    page's template time for the four languages)."""
    current = f"/{get_language()}/"
    if request.path_info.startswith(current):
        script = request.path[: len(request.path) - len(request.path_info)]
        return f"{script}/{language_code}/{request.path_info[len(current) :]}"
    return translate_url(request.path, language_code)


@lru_cache
def _local_name(code):
    return get_language_info(code)["name_local"]


@register.simple_tag(takes_context=True)
def page_in_languages(context):
    """The current page in every language, as ``{"code", "name_local", "url"}``, worked
    out once per request: the head's alternates and the language switcher both list them."""
    request = context["request"]
    found = getattr(request, "_page_in_languages", None)
    if found is None:
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        found = request._page_in_languages = [
            {
                "code": code,
                "name_local": _local_name(code),
                "url": _path_in_language(request, code) + query,
            }
            for code, _name in settings.LANGUAGES
        ]
    return found


# The two lists of the page in every language are written here rather than in templates,
# and with plain strings: looping in the template engine, then format_html, cost more
# than the rest of the page's frame. Every value from the request is escaped.


@register.simple_tag(takes_context=True)
def alternate_links(context):
    """``<link rel="alternate" hreflang=…>`` for the current page in every language."""
    request = context["request"]
    origin = escape(f"{request.scheme}://{request.get_host()}")
    return mark_safe(  # noqa: S308 - escaped above and below
        "\n  ".join(
            f'<link rel="alternate" hreflang="{escape(language["code"])}"'
            f' href="{origin}{escape(language["url"])}">'
            for language in page_in_languages(context)
        )
    )


@register.simple_tag(takes_context=True)
def language_switcher(context):
    """The links to the current page in each language, the current one marked."""
    current = get_language()
    marked = ' aria-current="true"'
    items = "\n    ".join(
        f'<li><a href="{escape(language["url"])}" hreflang="{escape(language["code"])}"'
        f' lang="{escape(language["code"])}"{marked if language["code"] == current else ""}>'
        f"{escape(capfirst(language['name_local']))}</a></li>"
        for language in page_in_languages(context)
    )
    return mark_safe(  # noqa: S308 - every value escaped
        f'<nav class="lang-switch" aria-label="{escape(gettext("Language"))}">\n  <ul>\n'
        f"    {items}\n  </ul>\n</nav>"
    )


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """The current query string with some parameters replaced (``None`` drops one)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        params.pop(key, None)
        if value not in (None, ""):
            params[key] = value
    return "?" + urlencode(sorted(params.lists()), doseq=True) if params else "?"


def _record_is_foreign():
    record_language = settings.LANGUAGE_CODE
    return (get_language() or record_language).split("-")[0] != record_language


@register.filter
def in_record_language(text):
    """A record's own text (a title…) marked with the record's language (French) on a
    page in another language, so screen readers and hyphenation read it as French."""
    if not _record_is_foreign():
        return text
    return format_html('<span lang="{}">{}</span>', settings.LANGUAGE_CODE, text)


@register.simple_tag
def record_lang():
    """` lang="fr"` for an element holding the record's own text, on a page in another
    language; nothing on a French page."""
    return format_html(' lang="{}"', settings.LANGUAGE_CODE) if _record_is_foreign() else ""


@register.simple_tag
def record_is_foreign():
    """Whether the record's own texts are in another language than the page."""
    return _record_is_foreign()


@register.simple_tag
def play_url(game):
    """Where a game that has a playable version on this site is played, or "".

    The playable games are settings.PLAYABLE_GAMES."""
    name = settings.PLAYABLE_GAMES.get(game.slug)
    return reverse(name) if name else ""
