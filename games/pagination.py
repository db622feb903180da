"""Pages of results that never count every match of a common word.

Counting all matches is a second walk over them (on PostgreSQL at 100 000 games, the
count of a common word cost as much as the page). ``CappedPaginator`` counts at most
``COUNT_CAP`` matches, or a page past the requested one when a patron goes deeper, and
says "more than 1 000" rather than a number it does not know. Beyond ``RANK_LIMIT``
matches, a page lists them newest first rather than by relevance
(``games.search.newest_if_many``).

A text search collects its matches' ids instead of counting them: when there are at most
``COUNT_CAP``, the page is then read by id, without evaluating the search again. At
100 000 games on PostgreSQL, the page of "zamek smoka" (302 matches) walked 7 573 rows
backwards along the primary key checking the search on each (117 ms under load); by id it
reads the 20 rows it shows. The count reuses the ids the search collected
(``games.search.collected_matches``) unless a filter was added after the search.
"""

from functools import cached_property

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import connections
from django.db.models.sql.where import WhereNode
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from .db import first_statement_of_the_request
from .models import CatalogueVersion
from .search import MATCH_LIMIT, RELEVANCE, collected_matches, newest_if_many

COUNT_CAP = 1000
# Beyond any catalogue: at 100 a page, 100 million games.
MAX_PAGE = 1_000_000
# Ranking reads every match's search data (~0.17 ms a match on PostgreSQL, measured with
# bench/catalogue_bench.py): past this many matches they are listed newest first.
RANK_LIMIT = 200


class CappedPaginator(Paginator):
    """``read_version``: the catalogue's version is read with the count when the count
    and the page are read together (``reads_version``), as ``catalogue_version``.

    ``statement_key``: what the object list was built from (a view's name and its
    parameters), when building it read nothing from the database: the statement reading
    the count and the page is then written once per process for that key and page
    (``StatementMemo``)."""

    cap = COUNT_CAP
    catalogue_version = None

    def __init__(self, *args, read_version=False, statement_key=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.read_version = read_version
        self.statement_key = statement_key

    @property
    def reads_version(self):
        """Whether taking the count will read the catalogue's version too."""
        return (
            self.read_version
            and hasattr(self.object_list, "values")
            and not _is_text_search(self.object_list)
            and _page_known_beforehand(self.object_list)
        )

    # Set when the count is taken: every match's id (a PostgreSQL text search), or the
    # wanted page's ids read with the count (PostgreSQL, an order known beforehand).
    _matches = None
    _page_ids = None

    def validate_number(self, number):
        # Remember which page is wanted before the count is taken: it sets the limit. A
        # page past MAX_PAGE cannot exist; counting up to it would not fit PostgreSQL's
        # LIMIT (a 500 for "page=22393692179774463747911648461407903644").
        try:
            self._wanted = min(max(int(number), 1), MAX_PAGE)
        except (TypeError, ValueError, OverflowError):
            self._wanted = 1
        return super().validate_number(number)

    @cached_property
    def _capped_count(self):
        wanted = getattr(self, "_wanted", 1)
        limit = max(self.cap, (wanted + 1) * self.per_page)
        queryset = self.object_list
        self._matches = None
        self._page_ids = None
        if not hasattr(queryset, "values"):
            counted = len(queryset[: limit + 1])
        elif _is_text_search(queryset):
            matches = collected_matches(queryset)
            if matches is not None and matches.pks is None and limit <= MATCH_LIMIT:
                # The search found more than MATCH_LIMIT: at least limit + 1.
                return limit, True
            if matches is not None and matches.pks is not None:
                pks = matches.pks
            else:
                pks = list(queryset.order_by().values_list("pk", flat=True)[: limit + 1])
            counted = len(pks)
            if counted <= limit:
                self._matches = pks
        elif _page_known_beforehand(queryset):
            # PostgreSQL: the count and the wanted page's ids in one round trip (and the
            # catalogue's version, when asked for).
            counted, pks, self.catalogue_version = _count_and_page(
                queryset,
                limit + 1,
                bottom=(wanted - 1) * self.per_page,
                size=self.per_page,
                with_version=self.read_version,
                key=self.statement_key,
            )
            self._page_ids = (wanted, pks)
        else:
            counted = _count_at_most(queryset, limit + 1)
        return min(counted, limit), counted > limit

    @property
    def count(self):
        return self._capped_count[0]

    def page(self, number):
        number = self.validate_number(number)
        if self._page_ids is not None and self._page_ids[0] == number:
            pks = self._page_ids[1]
            page = self._get_page(_only(self.object_list, pks), number, self)
            page.pks = pks  # the cards of the list page need only these
            return page
        if self._matches is not None:
            self.object_list = _only(self.object_list, self._matches)
        if self.count > RANK_LIMIT:
            self.object_list = newest_if_many(self.object_list, many=True)
        return super().page(number)

    @property
    def count_capped(self):
        """True when there are more matches than ``count``."""
        return self._capped_count[1]


def _count_at_most(queryset, most: int):
    """How many rows ``queryset`` has, counting no further than ``most``.

    The SQL Django writes for ``queryset[:most].count()``, wrapped by hand: the ORM's
    aggregation machinery took 0.27 ms to count what the database counts in 0.13
    (1 000 games on SQLite), on every uncached list page."""
    inner = queryset.order_by().values_list("pk")[:most]
    try:
        sql, params = inner.query.sql_with_params()
    except EmptyResultSet:  # .none(), or a filter that can match nothing
        return 0
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM ({sql}) AS capped", params)  # noqa: S608
        return cursor.fetchone()[0]


class StatementMemo:
    """Statements already written, by what they were written from: at most ``size``,
    forgotten all at once when full (a bound, not a policy: a list page has a handful of
    usual filters). Per process, like the code that writes them."""

    def __init__(self, size):
        self.size = size
        self.statements = {}

    def get(self, key):
        return self.statements.get(key)

    def put(self, key, statement):
        if len(self.statements) >= self.size:
            self.statements.clear()
        self.statements[key] = statement


COUNT_AND_PAGE_STATEMENTS = StatementMemo(512)


def _count_and_page(queryset, most: int, *, bottom, size, with_version=False, key=None):
    """PostgreSQL: how many rows ``queryset`` has, counting no further than ``most``, the
    ids of its rows from ``bottom`` (``size`` of them) and, ``with_version``, the
    catalogue's version, in one statement (each statement is a round trip to the server):
    ``(count, ids, version or None)``.

    With ``key`` (see ``CappedPaginator``), the statement is written once per process for
    that key and page: cloning and compiling the two querysets cost a tenth of an uncached
    list page (0.19 ms of CPU of 1.7 at 1 000 games)."""
    memo_key = None if key is None else (key, queryset.db, most, bottom, size, with_version)
    statement = COUNT_AND_PAGE_STATEMENTS.get(memo_key) if memo_key else None
    if statement is None:
        inner = queryset.order_by().values_list("pk")[:most]
        page_ids = queryset.values_list("pk", flat=True)[bottom : bottom + size]
        try:
            sql, params = inner.query.sql_with_params()
            ids_sql, ids_params = page_ids.query.sql_with_params()
        except EmptyResultSet:  # .none(), or a filter that can match nothing
            return 0, [], (CatalogueVersion.current() if with_version else None)
        # The page is read only when the count reaches it: an ordered walk looking for a
        # page of nothing went through every row ("esar=A" at 100 000 games: 105 ms).
        version_sql = f", {CatalogueVersion.COLUMNS_SQL}" if with_version else ""
        statement = (
            f"SELECT counted, CASE WHEN counted > %s THEN ARRAY({ids_sql}) END{version_sql}"  # noqa: S608
            f" FROM (SELECT COUNT(*) AS counted FROM ({sql}) AS capped) AS found",
            (bottom, *ids_params, *params),
        )
        if memo_key:
            COUNT_AND_PAGE_STATEMENTS.put(memo_key, statement)
    row = first_statement_of_the_request(*statement, using=queryset.db)
    count, ids = row[0], list(row[1] or [])
    version = None
    if with_version:
        version = CatalogueVersion.from_row(*row[2:]) if row[2] is not None else None
        version = version or CatalogueVersion.current()
    return count, ids, version


def _page_known_beforehand(queryset) -> bool:
    """Whether a page's rows can be read before the count: on PostgreSQL (on SQLite a
    statement costs no round trip), in an order the count does not change (relevance
    becomes newest first past RANK_LIMIT matches)."""
    return (
        connections[queryset.db].vendor == "postgresql"
        and queryset.ordered
        and tuple(queryset.query.order_by) != RELEVANCE
    )


def _is_text_search(queryset) -> bool:
    """A ranked PostgreSQL text search (``games.search.search`` annotates its rank). On
    SQLite the search is a join on the FTS5 table, which the ranking reads: it stays."""
    return (
        "text_rank" in queryset.query.annotations
        and connections[queryset.db].vendor == "postgresql"
    )


def _only(queryset, pks):
    """``queryset`` (its ordering, annotations, related rows) with its filters replaced by
    the ids they were found to match."""
    found = queryset.all()
    found.query.where = WhereNode()
    return found.filter(pk__in=pks)


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
