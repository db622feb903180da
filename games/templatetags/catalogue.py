from django import template
from django.urls import translate_url
from django.utils.http import urlencode

register = template.Library()


@register.simple_tag(takes_context=True)
def url_in_language(context, language_code):
    """The current page in another language, keeping its query string."""
    request = context["request"]
    url = translate_url(request.path, language_code)
    if request.GET:
        url = f"{url}?{request.GET.urlencode()}"
    return url


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """The current query string with some parameters replaced (``None`` drops one)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        params.pop(key, None)
        if value not in (None, ""):
            params[key] = value
    return "?" + urlencode(sorted(params.lists()), doseq=True) if params else "?"
