"""Pages of results that never count every match of a common word.

Counting all matches is a second walk over them (on PostgreSQL at 100 000 games, the
count of a common word cost as much as the page). ``CappedPaginator`` counts at most
``COUNT_CAP`` matches, or up to the page past the requested one when a patron goes deeper,
and the pages say "more than 1 000" rather than a number they do not know.
"""

from functools import cached_property

from django.core.paginator import Page, Paginator
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from .filters import relevance_parts
from .search import MATCH_LIMIT

# The search ranks up to this many matches whole and lists more newest first, behind
# the best of them (``best_first``): the count stops where the ranking changes.
COUNT_CAP = MATCH_LIMIT
# Beyond any catalogue: at 100 a page, 100 million games.
MAX_PAGE = 1_000_000


def count_up_to_cap(queryset) -> int:
    """How many games ``queryset`` holds, up to ``COUNT_CAP`` + 1 (more stands for
    "more"): what ``CappedPaginator`` takes as ``known_count``."""
    return queryset.order_by().values("pk")[: COUNT_CAP + 1].count()


class CappedPaginator(Paginator):
    """Django's paginator with a count that stops at ``COUNT_CAP`` (``count_capped`` then
    says there are more).

    ``best_first``, a pair of querysets that together hold ``object_list`` (the best games
    in their order, then the others: ``games.search.best_first``), makes the pages of more
    than ``COUNT_CAP`` games list the first part, then the second; fewer are listed in
    ``object_list``'s own order.

    ``known_count``, how many games ``object_list`` holds when they were counted already
    (up to ``COUNT_CAP`` + 1, more standing for "more": ``count_up_to_cap``, or a text
    search's ``games.search.Matches.count``), is taken instead of counting them again,
    which for a search would run it a second time ("søjler" at 100 000 games: 40 ms for
    the search, 52 more for the count). Only a page deeper than ``COUNT_CAP`` games needs
    a count past it."""

    cap = COUNT_CAP
    _wanted = 1

    def __init__(self, object_list, per_page, *args, best_first=None, known_count=None, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.best_first = best_first
        self.known_count = known_count

    def validate_number(self, number):
        # Which page is wanted sets how far to count, so remember it before counting. A
        # page past MAX_PAGE cannot exist; counting up to it would not fit PostgreSQL's
        # LIMIT (a 500 for "page=22393692179774463747911648461407903644").
        try:
            self._wanted = min(max(int(number), 1), MAX_PAGE)
        except (TypeError, ValueError, OverflowError):
            self._wanted = 1
        return super().validate_number(number)

    @cached_property
    def _capped_count(self):
        limit = max(self.cap, (self._wanted + 1) * self.per_page)
        if self.known_count is not None and (self.known_count <= self.cap or limit == self.cap):
            # The search's count: exact up to the cap, and "more" is all a page up to the
            # cap needs to know.
            found = self.known_count
        else:
            # In no order: the planner's choice. Counted newest first, a common word's
            # count fell from 26-29 to 1.3-4 ms ("spillere" at 100 000 games), but
            # "esar=A" rose to 103 ms and "czarodzieja" to 40 ms walking the primary key.
            found = self.object_list.order_by().values("pk")[: limit + 1].count()
        return min(found, limit), found > limit, found > self.cap

    def page(self, number):
        number = self.validate_number(number)
        if self.best_first is None or not self._capped_count[2]:
            return super().page(number)
        best, others = self.best_first
        bottom = (number - 1) * self.per_page
        games = list(best[bottom : bottom + self.per_page])
        if len(games) < self.per_page:
            # Where the best end: on this page, or before it (counted up to it).
            end = bottom + len(games) if games else best.order_by().values("pk")[:bottom].count()
            start = bottom + len(games) - end
            games += others[start : start + self.per_page - len(games)]
        return Page(games, number, self)

    @property
    def count(self):
        return self._capped_count[0]

    @property
    def count_capped(self):
        """True when there are more matches than ``count``."""
        return self._capped_count[1]


class GamePagination(PageNumberPagination):
    """Pages of 20; a client may ask for up to 100 with ``page_size``. ``count`` stops at
    1 000 (``count_capped`` is then true: there are more)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
    best_first = None
    known_count = None

    def paginate_queryset(self, queryset, request, view=None, *, known_count=None):
        """DRF's, with the number of games a text search found (``CappedPaginator``)."""
        # Listed by relevance, many matches put the best of them first (as the pages do).
        self.best_first = relevance_parts(queryset, request.query_params, known_count)
        self.known_count = known_count
        return super().paginate_queryset(queryset, request, view)

    def django_paginator_class(self, object_list, per_page):
        return CappedPaginator(
            object_list, per_page, best_first=self.best_first, known_count=self.known_count
        )

    def get_paginated_response(self, data):
        return Response(
            {
                "count": self.page.paginator.count,
                "count_capped": self.page.paginator.count_capped,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema):
        response = super().get_paginated_response_schema(schema)
        response["properties"]["count_capped"] = {
            "type": "boolean",
            "description": "True when there are more results than count says.",
            "example": False,
        }
        response["properties"] = {
            key: response["properties"][key]
            for key in ("count", "count_capped", "next", "previous", "results")
        }
        return response
