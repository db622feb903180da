"""Pieces of the catalogue page kept rendered, per catalogue version and language.

Rendering was most of an uncached list page (at 1 000 games, 35 ms of CPU against 0.5 ms
for a bare JSON view): twelve cards through the template engine, and the filter form's
seven widgets through Django's widget templates. A card depends only on its game (and
what the game names: people, publisher, ESAR label), the filter form only on the
filters asked for; both change with the catalogue's version, which is in their keys, so
an edit anywhere renders them anew in every process. A card rendered for one page serves
every other page that lists the game.
"""

import hashlib

from django.core.cache import caches
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from .caching import CODE_VERSION, PAGE_TIMEOUT


def _prefix(kind, version):
    return f"{kind}:{version}:{CODE_VERSION}:{get_language()}:"


def game_cards(page, *, version: int, games_to_render) -> list[str]:
    """The rendered cards of a page of games, in its order.

    Only the ``page``'s ids are read (its ``pks`` when the paginator read them with the
    count). The games whose card is not cached yet are read from ``games_to_render()``
    (a queryset with what a card shows, built only when a card is missing)."""
    pks = getattr(page, "pks", None)
    if pks is None:
        pks = list(page.object_list.values_list("pk", flat=True))
    prefix = _prefix("card", version)
    cache = caches["pages"]
    cards = cache.get_many([f"{prefix}{pk}" for pk in pks])
    missing = [pk for pk in pks if f"{prefix}{pk}" not in cards]
    if missing:
        template = get_template("includes/game_card.html")
        fresh = {
            f"{prefix}{game.pk}": template.render({"game": game})
            for game in games_to_render().filter(pk__in=missing)
        }
        cache.set_many(fresh, PAGE_TIMEOUT)
        cards.update(fresh)
    return [mark_safe(cards[f"{prefix}{pk}"]) for pk in pks if f"{prefix}{pk}" in cards]  # noqa: S308


def filter_fields(form, params, *, version: int) -> str:
    """The filter form's fields as rendered for these parameters (values and errors)."""
    query = "&".join(f"{k}={v}" for k, values in sorted(params.lists()) for v in values)
    key = _prefix("filters", version) + hashlib.sha256(query.encode()).hexdigest()
    cache = caches["pages"]
    html = cache.get(key)
    if html is None:
        html = get_template("includes/filter_fields.html").render({"form": form})
        cache.set(key, html, PAGE_TIMEOUT)
    return mark_safe(html)  # noqa: S308
