"""The figures staff ask for, over the last twelve months: loans per game and month,
households active (with a loan lent in the period), the pieces most often found missing,
and the ages of the children of active households. Each table is one aggregate query in
the database (however many loans there are), shown on a staff page and exported as CSV.

Loans anonymised after the retention period keep their game and dates, so they still
count here; an anonymised loan has no household, so it counts in no household's figures.
"""

import csv
import datetime
from dataclasses import dataclass

from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncMonth
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .checklist import ContentItem
from .households import Member
from .loans import Loan, MissingPiece

MONTHS = 12
MOST_MISSED_SHOWN = 20


@dataclass
class Table:
    """A table as the page and the CSV show it: headings, then rows of cells."""

    slug: str
    title: str
    headings: list[str]
    rows: list[list]
    text_columns: int = 1  # the first columns name things; the others are counts
    csv_headings: list[str] | None = None  # months as 2026-01 for a spreadsheet


def months_back(today: datetime.date, months: int = MONTHS) -> list[datetime.date]:
    """The first days of the last ``months`` months, the current one last."""
    firsts = []
    year, month = today.year, today.month
    for _month in range(months):
        firsts.append(datetime.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return firsts[::-1]


def _month_of(value) -> datetime.date:
    return value.date() if isinstance(value, datetime.datetime) else value


def period_start(today: datetime.date) -> datetime.datetime:
    first = months_back(today)[0]
    return timezone.make_aware(datetime.datetime.combine(first, datetime.time.min))


def loans_per_game(today: datetime.date) -> Table:
    """Loans lent each month, a row per game (most lent first), one query."""
    months = months_back(today)
    counts = (
        Loan.objects.filter(lent_at__gte=period_start(today))
        .annotate(month=TruncMonth("lent_at"))
        .values("copy__game_id", "copy__game__title", "month")
        .annotate(loans=Count("pk"))
        .order_by()
    )
    by_game: dict[int, dict] = {}
    for row in counts:
        game = by_game.setdefault(row["copy__game_id"], {"title": row["copy__game__title"]})
        game[_month_of(row["month"])] = row["loans"]
    rows = [[game["title"], *(game.get(month, 0) for month in months)] for game in by_game.values()]
    for row in rows:
        row.append(sum(row[1:]))
    rows.sort(key=lambda row: (-row[-1], row[0]))
    return Table(
        "loans",
        _("Loans per game and month"),
        [_("Game"), *(formats.date_format(month, "M Y") for month in months), _("Total")],
        rows,
        csv_headings=[_("Game"), *(f"{month:%Y-%m}" for month in months), _("Total")],
    )


def households_active(today: datetime.date) -> Table:
    """Households with a loan lent each month, and over the whole period (two queries)."""
    months = months_back(today)
    loans = Loan.objects.filter(lent_at__gte=period_start(today), household__isnull=False)
    per_month = {
        _month_of(row["month"]): row["households"]
        for row in loans.annotate(month=TruncMonth("lent_at"))
        .values("month")
        .annotate(households=Count("household", distinct=True))
        .order_by()
    }
    rows = [
        [formats.date_format(month, "YEAR_MONTH_FORMAT"), per_month.get(month, 0)]
        for month in months
    ]
    whole = loans.aggregate(households=Count("household", distinct=True))["households"]
    rows.append([_("Twelve months"), whole])
    return Table("households", _("Households active"), [_("Month"), _("Households")], rows)


def most_missed(today: datetime.date) -> Table:
    """The items most often found missing at returns in the period, one query."""
    pieces = (
        MissingPiece.objects.filter(loan__returned_at__gte=period_start(today))
        .values("item_id")
        .annotate(
            pieces=Sum("count"),
            returns=Count("loan", distinct=True),
            found=Sum("count", filter=Q(found_at__isnull=False), default=0),
        )
        .order_by("-pieces", "item_id")[:MOST_MISSED_SHOWN]
    )
    pieces = list(pieces)
    items = ContentItem.objects.select_related("game").in_bulk([row["item_id"] for row in pieces])
    rows = [
        [
            items[row["item_id"]].game.title,
            items[row["item_id"]].name,
            row["pieces"],
            row["returns"],
            row["found"],
        ]
        for row in pieces
    ]
    return Table(
        "pieces",
        _("Pieces most often missing"),
        [_("Game"), _("Piece"), _("Pieces missing"), _("Returns"), _("Found since")],
        rows,
        text_columns=2,
    )


def children_ages(today: datetime.date) -> Table:
    """How many children of each age the households active in the period have, one query."""
    ages = (
        Member.objects.filter(
            child_age__isnull=False, household__loans__lent_at__gte=period_start(today)
        )
        .values("child_age")
        .annotate(children=Count("pk", distinct=True))
        .order_by("child_age")
    )
    return Table(
        "ages",
        _("Children of active households, by age"),
        [_("Age"), _("Children")],
        [[row["child_age"], row["children"]] for row in ages],
    )


TABLES = {
    "loans": loans_per_game,
    "households": households_active,
    "pieces": most_missed,
    "ages": children_ages,
}


def _staff_statistics(view):
    return staff_member_required(
        permission_required("lending.view_loan", raise_exception=True)(view)
    )


@_staff_statistics
def statistics_page(request):
    """The four tables of the last twelve months, each with its CSV export."""
    today = timezone.localdate()
    tables = [build(today) for build in TABLES.values()]
    return render(
        request,
        "lending/statistics.html",
        {"tables": tables, "since": months_back(today)[0], "today": today},
    )


@_staff_statistics
def statistics_csv(request, table):
    """One table as CSV (comma-separated, UTF-8), as the page shows it."""
    build = TABLES.get(table)
    if build is None:
        raise Http404(_("No such table."))
    data = build(timezone.localdate())
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{data.slug}.csv"'
    writer = csv.writer(response)
    writer.writerow(data.csv_headings or data.headings)
    writer.writerows([_cell(cell) for cell in row] for row in data.rows)
    return response


def _cell(value):
    """A title typed as a formula ("=…") is not run by the spreadsheet that opens it."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value
