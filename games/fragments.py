"""Pieces of the catalogue page kept rendered, per catalogue version and language.

Rendering was most of an uncached list page: twelve cards through the template engine,
and the filter form's seven widgets through Django's widget templates (8–12 ms). A card
depends only on its game (and what the game names: people, publisher, ESAR label), the
filter form only on the filters asked for; both change with the catalogue's version,
which is in their keys, so an edit anywhere renders them anew in every process. A card
rendered for one page serves every other page that lists the game. (How many games the
filters keep is kept by the list itself: ``games.selectors.list_games``.)

Both hold links, which carry the script prefix (the path the site is mounted under, from
the server's ``SCRIPT_NAME``): it is in their keys too, so a request that brings another
prefix renders its own and never changes what other visitors are shown.
"""

import hashlib

from django.core.cache import caches
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from .caching import CODE_VERSION, PAGE_TIMEOUT


def _keys(kind, version, details) -> list[str]:
    common = "\n".join([kind, str(version), CODE_VERSION, get_language(), get_script_prefix()])
    return [
        f"{kind}:" + hashlib.sha256(f"{common}\n{detail}".encode()).hexdigest()
        for detail in details
    ]


def game_cards(game_ids, *, version: int, games_to_render) -> list[str]:
    """The rendered cards of these games, in this order. The games whose card is not
    cached yet are read from ``games_to_render()`` (a queryset with what a card shows),
    built only then."""
    keys = dict(zip(game_ids, _keys("card", version, map(str, game_ids)), strict=True))
    cache = caches["pages"]
    cards = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in cards]
    if missing:
        template = get_template("includes/game_card.html")
        fresh = {
            keys[game.pk]: template.render({"game": game})
            for game in games_to_render().filter(pk__in=missing)
        }
        cache.set_many(fresh, PAGE_TIMEOUT)
        cards.update(fresh)
    return [mark_safe(cards[keys[pk]]) for pk in game_ids if keys[pk] in cards]  # noqa: S308


def filters(form, params, *, version: int) -> str:
    """The filter form as rendered for these parameters (values, errors, its buttons),
    keyed by the parameters as a URL encodes them: "age=8%26q%3DX" is not "age=8&q=X".

    It depends only on the filters and the catalogue's version: paging through the games
    a set of filters keeps, or showing them again, renders it once."""
    [key] = _keys("filter-form", version, [params.urlencode()])
    cache = caches["pages"]
    html = cache.get(key)
    if html is None:
        context = {"form": form, "filtered": any(params.values())}
        html = get_template("includes/filter_form.html").render(context)
        cache.set(key, html, PAGE_TIMEOUT)
    return mark_safe(html)  # noqa: S308 - rendered by the template engine, escaped there
