"""The lending statistics: loans per game and month, households active, the pieces most
often missing, children's ages; each table aggregated in the database (the page's queries
do not grow with the loans) and exported as CSV; staff only."""

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import timezone, translation

from games.lending.circulation import give_back, lend
from games.lending.models import Copy, Loan, Member
from games.lending.statistics import months_back
from games.lending.tests.test_circulation import copies, counts, make_household
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    user = User.objects.create_user("clerk", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_loan"))
    client.force_login(user)
    return client


def months_ago(months: int) -> datetime.datetime:
    first = months_back(timezone.localdate())[-1 - months]
    return timezone.make_aware(datetime.datetime.combine(first, datetime.time(10)))


def many_loans(households: int, per_household: int, first: int = 0):
    """Returned loans spread over the last months and the three seed games."""
    games = list(Game.objects.order_by("pk"))
    boxes = [Copy.objects.get_or_create(game=game, barcode=f"S{game.pk}")[0] for game in games]
    loans = []
    for number in range(first, first + households):
        household = make_household(card=f"C{number}", name=f"H{number}").household
        Member.objects.create(household=household, first_name="Kid", child_age=4 + number % 5)
        for index in range(per_household):
            lent = months_ago(index % 6)
            loans.append(
                Loan(
                    copy=boxes[index % len(boxes)],
                    household=household,
                    lent_at=lent,
                    due_on=lent.date() + datetime.timedelta(days=21),
                    returned_at=lent + datetime.timedelta(days=7),
                )
            )
    Loan.objects.bulk_create(loans)


def test_the_tables_count_loans_households_pieces_and_ages(villa, ola, desk_user, staff):
    (box,) = copies(villa, "J0001")
    Member.objects.create(household=ola.household, first_name="Zosia", child_age=7)
    lend(member=ola, copy=box, by=desk_user)
    give_back(copy=box, by=desk_user, found=counts(box, columns=2))
    old = timezone.now() - datetime.timedelta(days=500)  # before the period: not counted
    Loan.objects.create(
        copy=box, household=ola.household, lent_at=old, due_on=old.date(), returned_at=old
    )
    with translation.override("en"):
        page = staff.get(reverse("lending:statistics"))
    tables = {table.slug: table for table in page.context["tables"]}
    assert tables["loans"].rows == [["Villa Paletti", *[0] * 11, 1, 1]]
    assert tables["households"].rows[-2:] == [
        [tables["households"].rows[-2][0], 1],
        ["Twelve months", 1],
    ]
    assert tables["pieces"].rows == [["Villa Paletti", "columns", 2, 1, 0]]
    assert tables["ages"].rows == [[7, 1]]
    assert "Loans per game and month" in page.content.decode()


def test_each_table_downloads_as_csv(villa, ola, desk_user, staff):
    (box,) = copies(villa, "J0001")
    lend(member=ola, copy=box, by=desk_user)
    with translation.override("en"):
        response = staff.get(reverse("lending:statistics-csv", kwargs={"table": "loans"}))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][0] == "Game" and rows[0][-1] == "Total" and len(rows[0]) == 14
    assert rows[0][-2] == f"{timezone.localdate():%Y-%m}"  # the current month, last
    assert rows[1][0] == "Villa Paletti" and rows[1][-1] == "1"
    for table in ("households", "pieces", "ages"):
        assert (
            staff.get(reverse("lending:statistics-csv", kwargs={"table": table})).status_code == 200
        )
    assert staff.get(reverse("lending:statistics-csv", kwargs={"table": "nope"})).status_code == 404


def test_the_queries_do_not_grow_with_the_loans(seed, staff, django_assert_max_num_queries):
    many_loans(households=2, per_household=2)
    with django_assert_max_num_queries(12) as few:
        staff.get(reverse("lending:statistics"))
    many_loans(households=40, per_household=12, first=2)  # 480 more loans, 40 households
    assert Loan.objects.count() == 484
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = staff.get(reverse("lending:statistics"))
    tables = {table.slug: table for table in page.context["tables"]}
    assert sum(row[-1] for row in tables["loans"].rows) == 484
    assert tables["households"].rows[-1][1] == 42


def test_statistics_are_for_staff_only(client, ola):
    url = reverse("lending:statistics")
    assert client.get(url).status_code == 302  # to the login
    volunteer = User.objects.create_user("volunteer")  # not staff
    volunteer.user_permissions.add(Permission.objects.get(codename="view_loan"))
    client.force_login(volunteer)
    assert client.get(url).status_code == 302
    clerk = User.objects.create_user("clerk", is_staff=True)  # staff without the permission
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    assert (
        client.get(reverse("lending:statistics-csv", kwargs={"table": "loans"})).status_code == 403
    )


def test_the_admin_index_links_to_the_statistics(admin_client):
    with translation.override("en"):
        page = admin_client.get(reverse("admin:index"))
        assert reverse("lending:statistics") in page.content.decode()
    assert "Lending statistics" in page.content.decode()
