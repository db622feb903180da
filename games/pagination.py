"""Pages of results that never count every match of a common word.

Counting all matches is a second walk over them (on PostgreSQL at 100 000 games, the
count of a common word cost as much as the page). ``CappedPaginator`` counts at most
``COUNT_CAP`` matches, or a page past the requested one when a patron goes deeper, and
says "more than 1 000" rather than a number it does not know. Beyond ``RANK_LIMIT``
matches, a page lists them newest first rather than by relevance
(``games.search.newest_if_many``).
"""

from functools import cached_property

from django.core.paginator import Paginator
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from .search import newest_if_many

COUNT_CAP = 1000
# Ranking reads every match's search data (~0.17 ms a match on PostgreSQL, measured with
# bench/catalogue_bench.py): past this many matches they are listed newest first.
RANK_LIMIT = 200


class CappedPaginator(Paginator):
    cap = COUNT_CAP

    def validate_number(self, number):
        # Remember which page is wanted before the count is taken: it sets the limit.
        try:
            self._wanted = max(int(number), 1)
        except (TypeError, ValueError):
            self._wanted = 1
        return super().validate_number(number)

    @cached_property
    def _capped_count(self):
        wanted = getattr(self, "_wanted", 1)
        limit = max(self.cap, (wanted + 1) * self.per_page)
        queryset = self.object_list
        if hasattr(queryset, "values"):
            counted = queryset.order_by().values("pk")[: limit + 1].count()
        else:
            counted = len(queryset[: limit + 1])
        return min(counted, limit), counted > limit

    @property
    def count(self):
        return self._capped_count[0]

    def page(self, number):
        number = self.validate_number(number)
        if self.count > RANK_LIMIT:
            self.object_list = newest_if_many(self.object_list, many=True)
        return super().page(number)

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
    django_paginator_class = CappedPaginator

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
