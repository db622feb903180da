"""The catalogue's list, as the list page and the API show it: ``list_games``.

A list is the games some filters keep, searched for some words, sorted, and read a page
at a time. ``list_games`` does the three in that order and returns a ``GameList``, which
Django's ``Paginator`` (the page) and DRF's ``PageNumberPagination`` (the API) read as
they read a queryset: its ``count()``, then a slice of it.

Counting every match is a second walk over them (on PostgreSQL at 100 000 games, the
count of a common word cost as much as the page). A list counts at most ``COUNT_CAP``
games, or up to the page past the requested one when a patron goes deeper, and says
"more than 1 000" (``count_capped``) rather than a number it does not know.
"""

import hashlib
from collections.abc import Sequence
from functools import cached_property
from itertools import chain

from django.core.cache import caches
from django.db.models import QuerySet, prefetch_related_objects

from .caching import PAGE_TIMEOUT
from .lending.selectors import available_games
from .models import Game
from .search import MATCH_LIMIT, best_first, find

# The search ranks up to this many matches whole and lists more newest first, behind
# the best of them (``best_first``): the count stops where the ranking changes.
COUNT_CAP = MATCH_LIMIT
# Beyond any catalogue: at 100 a page, 100 million games. Counting up to a page past it
# would not fit PostgreSQL's LIMIT (a 500 for "page=22393692179774463747911648461407903644").
MAX_PAGE = 1_000_000
# The sorts a patron may choose, by the name the page and the API give them, and the field
# each sorts by (``-name``: the same, descending).
SORTS = {
    "title": "sort_title",
    "duration": "duration_minutes",
    "age": "min_age",
    "players": "max_players",
    "year": "year",
}


class GameList:
    """The games of a list in the order it shows them, read a slice (a page) at a time.

    ``count()`` is how many games the list holds, counted up to ``COUNT_CAP`` or, for a
    page deeper than that, up to the page past it; ``count_capped`` is true when there are
    more. A slice is a list of the games in it, in order. With more matches than the
    search ranks whole, the list is two parts (``games.search.best_first``): the games the
    query's longest word weighs most in, heaviest first, then the others newest first; a
    slice takes the first part's games, then the second's.

    Made by ``list_games``; ``values_list`` and ``prefetch_related`` read the same games
    otherwise, as a queryset's do."""

    def __init__(
        self, games, *, matches=None, parts=None, reach=COUNT_CAP, kept_as=None, prefetched=()
    ):
        self._games = games
        # How many games the search counted (up to MATCH_LIMIT + 1, more standing for
        # "more"), or None when the list has no words.
        self._matches = matches
        self._parts = parts
        # Count up to this many games (COUNT_CAP, or a page past the page asked for).
        self._reach = reach
        # The cache key that keeps a count of a list without words.
        self._kept_as = kept_as
        # What each slice reads with its games (``prefetch_related``).
        self._prefetched = prefetched

    def count(self) -> int:
        """How many games the list holds, up to the count's reach (``count_capped``)."""
        return self._counted[0]

    @property
    def count_capped(self) -> bool:
        """True when the list holds more games than ``count()`` says."""
        return self._counted[1]

    @cached_property
    def _counted(self) -> tuple[int, bool]:
        found = self._matches
        if self._kept_as is not None:
            found = caches["pages"].get(self._kept_as)
        if found is None or (found > COUNT_CAP and self._reach > COUNT_CAP):
            # The search's count is exact up to the cap, and "more" is all a page up to the
            # cap needs to know: only a deeper page counts on. In no order: the planner's
            # choice. Counted newest first, a common word's count fell from 26-29 to
            # 1.3-4 ms ("spillere" at 100 000 games), but "esar=A" rose to 103 ms and
            # "czarodzieja" to 40 ms walking the primary key.
            counted = self._games.order_by().values("pk")[: self._reach + 1].count()
            if self._kept_as is not None and found is None:
                caches["pages"].set(self._kept_as, min(counted, COUNT_CAP + 1), PAGE_TIMEOUT)
            found = counted
        return min(found, self._reach), found > self._reach

    def __getitem__(self, index):
        if not isinstance(index, slice):
            found = self[index : index + 1]
            if not found:
                raise IndexError("GameList index out of range")
            return found[0]
        start, stop = index.start or 0, index.stop
        if index.step is not None or start < 0 or (stop is not None and stop < 0):
            raise ValueError("A GameList is sliced forwards, without a step.")
        games = list(self._games[index]) if self._parts is None else self._both(start, stop)
        if self._prefetched:
            # Once for the slice, whichever part its games came from (each part prefetching
            # its own took two queries).
            prefetch_related_objects(games, *self._prefetched)
        return games

    def _both(self, start, stop) -> list:
        best, others = self._parts
        games = list(best[start:stop])
        if stop is None or len(games) < stop - start:
            # Where the best end: in this slice, or before it (counted up to it).
            end = start + len(games) if games else best.order_by().values("pk")[:start].count()
            first = start + len(games) - end
            games += others[first : None if stop is None else first + stop - start - len(games)]
        return games

    def __iter__(self):
        games = self._games if self._parts is None else chain(*self._parts)
        if not self._prefetched:
            return iter(games)
        return iter(self[0:None])

    def values_list(self, *fields, named=False) -> "GameList":
        """The same games, read as rows of ``fields`` (``QuerySet.values_list``)."""
        return self._read(lambda games: games.values_list(*fields, named=named))

    def prefetch_related(self, *lookups) -> "GameList":
        """The same games, with these related objects read once for each slice
        (``prefetch_related_objects``)."""
        return self._read(lambda games: games, prefetched=(*self._prefetched, *lookups))

    def _read(self, read, *, prefetched=None) -> "GameList":
        return GameList(
            read(self._games),
            matches=self._matches,
            parts=None if self._parts is None else tuple(map(read, self._parts)),
            reach=self._reach,
            kept_as=self._kept_as,
            prefetched=self._prefetched if prefetched is None else prefetched,
        )


def list_games(
    *,
    games: QuerySet | None = None,
    q: str = "",
    players: int | None = None,
    age: int | None = None,
    duration_max: int | None = None,
    esar: str = "",
    language: str = "",
    available: bool | None = None,
    ordering: Sequence[str] | None = None,
    page=None,
    per_page: int,
    version: int | None = None,
) -> GameList:
    """The games these filters keep, having the words of ``q``, in the sort asked for: a
    list as the list page and the API show it, ``per_page`` games a page.

    The parameters are ``games.filters.GameFilter``'s, valid (its form's
    ``cleaned_data``). The filters come first, then the words (``games.search.find``):
    the search ranks its matches whole when they are few, so it must see the games the
    list holds, not more, and it counts them as it finds them. Then the sort, ``ordering``
    (names of ``SORTS``, ``-`` first for descending), over the search's relevance; without
    one, a search lists its matches best first and a list without words by title.

    ``page``, the page asked for (as the request says it), sets how far the list counts.
    ``games`` is how the caller reads every game of the catalogue (``select_related``,
    ``only``: its columns, never fewer games), ``Game.objects.for_display()`` by default.
    With ``version``, the catalogue's, and ``games`` left to the default, the count of a
    list without words is kept until the catalogue changes (a count query was a sixth of
    an uncached list page)."""
    if version is not None and games is not None:
        raise ValueError("A count is kept only for the catalogue read whole (no games).")
    listed = Game.objects.for_display() if games is None else games
    if players is not None:
        listed = listed.playable_by(players)
    if age is not None:
        listed = listed.suitable_for_age(age)
    if duration_max is not None:
        listed = listed.within_minutes(duration_max)
    if esar:
        listed = listed.in_esar(esar)
    if language:
        listed = listed.in_language(language)
    if available:
        listed = available_games(listed)
    matches = parts = kept_as = None
    if q.strip():
        found = find(listed, q)
        listed, matches = found.games, found.count
        if matches is not None and matches > MATCH_LIMIT and not ordering:
            parts = best_first(listed, q)
    elif version is not None:
        filters = (players, age, duration_max, esar, language, bool(available))
        kept_as = "count:" + hashlib.sha256(repr((version, filters)).encode()).hexdigest()
    sort = [_sort_field(name) for name in ordering or () if name]
    if sort:
        listed = listed.in_order(*sort)
    return GameList(
        listed, matches=matches, parts=parts, reach=_reach(page, per_page), kept_as=kept_as
    )


def _sort_field(name: str) -> str:
    descending = name.startswith("-")
    field = SORTS[name.removeprefix("-")]
    return f"-{field}" if descending else field


def _reach(page, per_page: int) -> int:
    """How far a list counts for the page asked for: ``COUNT_CAP`` games, or one page
    past a deeper one (to know whether there is a next). Any page that is no number
    counts as the first, as the paginators read it."""
    try:
        wanted = min(max(int(page), 1), MAX_PAGE)
    except (TypeError, ValueError, OverflowError):
        wanted = 1
    return max(COUNT_CAP, (wanted + 1) * per_page)
