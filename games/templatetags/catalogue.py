from django import template
from django.conf import settings
from django.urls import reverse, translate_url
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import get_language, get_language_info

register = template.Library()


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


@register.simple_tag(takes_context=True)
def page_in_languages(context):
    """The current page in every language, as ``{"code", "name", "url", "absolute_url",
    "current"}`` (the language's own name for itself, capitalised; whether it is the
    page's language): the head's alternates and the language switcher list them."""
    request = context["request"]
    query = f"?{request.GET.urlencode()}" if request.GET else ""
    origin = f"{request.scheme}://{request.get_host()}"
    current = get_language()
    languages = []
    for code, _name in settings.LANGUAGES:
        url = _path_in_language(request, code) + query
        languages.append(
            {
                "code": code,
                "name": capfirst(get_language_info(code)["name_local"]),
                "url": url,
                "absolute_url": origin + url,
                "current": code == current,
            }
        )
    return languages


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """The current query string with some parameters replaced (``None`` drops one)."""
    params = dict(context["request"].GET.lists())
    for key, value in changes.items():
        params.pop(key, None)
        if value not in (None, ""):
            params[key] = [value]
    return "?" + urlencode(sorted(params.items()), doseq=True) if params else "?"


def _record_is_foreign():
    record_language = settings.RECORD_LANGUAGE
    return (get_language() or record_language).split("-")[0] != record_language


@register.filter
def in_record_language(text):
    """A record's own text (a title…) marked with the record's language (French) on a
    page in another language, so screen readers and hyphenation read it as French."""
    if not _record_is_foreign():
        return text
    return format_html('<span lang="{}">{}</span>', settings.RECORD_LANGUAGE, text)


@register.simple_tag
def record_lang():
    """` lang="fr"` for an element holding the record's own text, on a page in another
    language; nothing on a French page."""
    return format_html(' lang="{}"', settings.RECORD_LANGUAGE) if _record_is_foreign() else ""


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


@register.simple_tag
def score_url(game):
    """Where a game's score sheet is (the project's ``SCORE_SHEETS``), or "" when it has
    none."""
    name = settings.SCORE_SHEETS.get(game.slug)
    return reverse(name, kwargs={"slug": game.slug}) if name else ""
