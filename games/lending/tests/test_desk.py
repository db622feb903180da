"""Checking a copy at the desk against its game's contents, what the public record then
says, the checks' history and the admin's statistics."""

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games.lending.checklist import ContentItem, parse_contents
from games.lending.models import Copy, CopyStatus
from games.lending.services import CheckRefused, checklist_from_contents, record_check
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def contents(seed):
    call_command("loaddata", "fixtures/contents.json", verbosity=0)


@pytest.fixture
def villa_copy(contents):
    return Copy.objects.create(game=Game.objects.get(slug="villa-paletti"), barcode="J0001")


@pytest.fixture
def volunteer():
    user = User.objects.create_user("vol", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    return User.objects.get(pk=user.pk)


def counts(copy, **short):
    """Every item found, but ``short`` (by English name) fewer."""
    with translation.override("en"):
        return {
            item.pk: item.count - short.get(item.name, 0) for item in copy.game.content_items.all()
        }


def test_the_seed_contents_are_the_records(contents):
    villa = Game.objects.get(slug="villa-paletti")
    with translation.override("en"):
        assert [str(i) for i in villa.content_items.all()] == [
            "1 base", "5 platforms", "20 columns", "1 master builder's seal", "1 hook"
        ]  # fmt: skip
    with translation.override("da"):
        assert [i.name for i in villa.content_items.all()][2] == "søjler"
    prince = Game.objects.get(slug="le-petit-prince-fabrique-moi-une-planete")
    assert [(i.count, i.name_fr) for i in prince.content_items.all()] == [
        (80, "tuiles"),
        (5, "jetons"),
    ]


def test_contents_text_becomes_a_checklist(seed):
    assert parse_contents("Contenu: 80 tuiles, 5 jetons,1 règle de jeu.") == [
        (80, "tuiles"),
        (5, "jetons"),
    ]
    alhambra = Game.objects.get(slug="alhambra")
    items = checklist_from_contents(game=alhambra)
    assert (items[0].count, items[0].name_fr) == (6, "cartons de départ")
    assert checklist_from_contents(game=alhambra) == []  # once only


def test_a_checklist_from_a_record_reads_in_every_language_another_checklist_knows(
    client, contents, volunteer
):
    alhambra = Game.objects.get(slug="alhambra")
    alhambra.content_items.all().delete()
    alhambra.contents = "Contenu : 40 tuiles, 3 jetons, 2 sabliers."
    alhambra.save()
    tiles, tokens, timers = checklist_from_contents(game=alhambra)
    with translation.override("pl"):
        assert [str(tiles), str(tokens), str(timers)] == [
            "40 kafelków",
            "3 znaczniki",
            "2 sabliers",
        ]
    with translation.override("da"):
        assert [tiles.name, tokens.name] == ["brikker", "markører"]
    Copy.objects.create(game=alhambra, barcode="J0009")
    client.force_login(volunteer)
    with translation.override("en"):
        page = client.get(reverse("lending:desk-copy", kwargs={"barcode": "J0009"})).content
    assert b">40 tiles</label>" in page
    assert b' lang="fr">2 sabliers</label>' in page  # not translated yet: marked as French


def test_a_missing_piece_makes_the_copy_incomplete_and_a_later_check_clears_it(villa_copy):
    user = User.objects.create_user("desk")
    check = record_check(copy=villa_copy, found=counts(villa_copy, columns=1), user=user)
    villa_copy.refresh_from_db()
    assert not check.complete and villa_copy.status == CopyStatus.INCOMPLETE
    assert [(line.item.name_fr, line.missing_count) for line in check.missing()] == [
        ("colonnes", 1)
    ]
    record_check(copy=villa_copy, found=counts(villa_copy), user=user)
    villa_copy.refresh_from_db()
    assert villa_copy.status == CopyStatus.AVAILABLE
    assert villa_copy.checks.count() == 2


def test_a_check_must_count_every_item_within_its_count(villa_copy):
    found = counts(villa_copy)
    found[next(iter(found))] = 2  # two bases in a box of one
    with pytest.raises(CheckRefused):
        record_check(copy=villa_copy, found=found, user=None)
    with pytest.raises(CheckRefused):
        record_check(copy=villa_copy, found={}, user=None)
    assert not villa_copy.checks.exists()


def test_the_public_record_says_plainly_what_is_missing(client, villa_copy):
    record_check(copy=villa_copy, found=counts(villa_copy, columns=1, hook=1), user=None)
    with translation.override("en"):
        page = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    assert b"1 copy, 0 on the shelf now" in page.content
    missing = b"Missing from copy J0001: columns (1 of 20 missing), hook (1 of 1 missing)."
    assert missing in page.content


def test_the_desk_flow(client, villa_copy, volunteer):
    client.force_login(volunteer)
    with translation.override("en"):
        response = client.get(reverse("lending:desk"), {"barcode": " J0001 "})
        assert response.url == reverse("lending:desk-copy", kwargs={"barcode": "J0001"})
        page = client.get(response.url)
        assert b"20 columns" in page.content
        data = {}
        for item in villa_copy.game.content_items.all():
            if item.count == 1:
                data[f"item_{item.pk}"] = "on"
            else:
                data[f"item_{item.pk}"] = item.count - (1 if item.name_en == "columns" else 0)
        response = client.post(reverse("lending:desk-copy", kwargs={"barcode": "J0001"}), data)
        assert response.status_code == 302
        landing = client.get(response.url)
        assert b"J0001 (Villa Paletti) is incomplete: columns (1 of 20 missing)." in landing.content
        history = client.get(reverse("lending:desk-copy", kwargs={"barcode": "J0001"}))
        assert b"vol" in history.content and b"incomplete:" in history.content
        response = client.post(
            reverse("lending:desk-copy", kwargs={"barcode": "J0001"}), {"all_there": "1"}
        )
        assert b"is complete" in client.get(response.url).content
    villa_copy.refresh_from_db()
    assert villa_copy.status == CopyStatus.AVAILABLE


@pytest.mark.parametrize(
    ("language", "missing"),
    [
        ("fr", "colonnes (5 manquants sur 20), petit crochet (1 manquant sur 1)"),
        ("da", "søjler (mangler 5 af 20), krog (mangler 1 af 1)"),
        ("pl", "kolumny (brakuje 5 z 20), haczyk (brakuje 1 z 1)"),
        ("en", "columns (5 of 20 missing), hook (1 of 1 missing)"),
    ],
)
def test_the_desk_counts_the_missing_pieces_not_the_ones_found(
    client, villa_copy, volunteer, language, missing
):
    # 15 columns found of 20: the page says 5 are missing, in the message and the history.
    record_check(copy=villa_copy, found=counts(villa_copy, columns=5, hook=1), user=volunteer)
    client.force_login(volunteer)
    with translation.override(language):
        page = client.get(reverse("lending:desk-copy", kwargs={"barcode": "J0001"}))
    text = page.content.decode()
    assert text.count(missing) == 2  # the last check's warning and its line in the history
    assert "(5/20)" not in text


def test_polish_names_the_pieces_in_the_form_their_count_asks_for(contents):
    alhambra = Game.objects.get(slug="alhambra")
    with translation.override("pl"):
        assert [str(item) for item in alhambra.content_items.all()] == [
            "6 płytek startowych", "54 budowle", "1 rynek budowli z 4 polami",
            "1 plansza punktacji", "12 znaczników", "108 kart pieniędzy", "2 karty punktacji",
            "6 plansz rezerwy", "1 płócienny woreczek",
        ]  # fmt: skip


@pytest.mark.parametrize(
    ("count", "counted"),
    [
        (2, "2 kolumny"), (3, "3 kolumny"), (4, "4 kolumny"),  # 2–4: nominative plural
        (5, "5 kolumn"), (11, "11 kolumn"), (20, "20 kolumn"),  # 5 and more: genitive
        (12, "12 kolumn"), (13, "13 kolumn"), (14, "14 kolumn"),  # 12–14, though they end in 2–4
        (22, "22 kolumny"), (23, "23 kolumny"), (24, "24 kolumny"),  # 22–24 as 2–4
        (25, "25 kolumn"), (112, "112 kolumn"), (104, "104 kolumny"), (21, "21 kolumn"),
    ],
)  # fmt: skip
def test_polish_counted_forms_follow_the_numeral(seed, count, counted):
    item = ContentItem(
        game=Game.objects.get(slug="villa-paletti"),
        count=count,
        name_fr="colonnes",
        name_pl="kolumny",
        name_pl_many="kolumn",
    )
    with translation.override("pl"):
        assert item.counted_name == counted
    with translation.override("fr"):
        assert item.counted_name == f"{count} colonnes"  # one form is enough in French


def test_one_polish_piece_takes_the_singular(contents):
    villa = Game.objects.get(slug="villa-paletti")
    with translation.override("pl"):
        assert [str(item) for item in villa.content_items.all()] == [
            "1 podstawa", "5 platform", "20 kolumn", "1 Wielka Pieczęć", "1 haczyk"
        ]  # fmt: skip


def test_an_unknown_barcode_says_so(client, villa_copy, volunteer):
    client.force_login(volunteer)
    with translation.override("en"):
        page = client.get(reverse("lending:desk"), {"barcode": "NOPE"}, follow=True)
    assert b"No copy has the barcode NOPE." in page.content


def test_a_count_out_of_range_is_refused_politely(client, villa_copy, volunteer):
    client.force_login(volunteer)
    data = {f"item_{i.pk}": 99 for i in villa_copy.game.content_items.all()}
    with translation.override("en"):
        page = client.post(reverse("lending:desk-copy", kwargs={"barcode": "J0001"}), data)
    assert page.status_code == 200
    assert b"Count every item" in page.content
    assert not villa_copy.checks.exists()


def test_the_desk_is_for_staff_who_may_check(client, villa_copy):
    assert client.get(reverse("lending:desk")).status_code == 302  # to the login
    client.force_login(User.objects.create_user("patron"))
    assert client.get(reverse("lending:desk")).status_code == 403
    url = reverse("lending:desk-copy", kwargs={"barcode": "J0001"})
    assert client.post(url, {"all_there": "1"}).status_code == 403
    assert not villa_copy.checks.exists()


def test_the_admin_statistics(client, villa_copy):
    record_check(copy=villa_copy, found=counts(villa_copy, columns=3), user=None)
    other = Copy.objects.create(game=Game.objects.get(slug="alhambra"), barcode="A1")
    checklist_from_contents(game=other.game)  # the fixture has Alhambra's already
    record_check(
        copy=other,
        found={i.pk: i.count for i in ContentItem.objects.filter(game=other.game)},
        user=None,
    )
    client.force_login(User.objects.create_superuser("admin"))
    with translation.override("en"):
        page = client.get(reverse("admin:lending_copycheck_statistics"))
    text = page.content.decode()
    assert "Villa Paletti</td><td>3</td><td>1</td>" in text
    assert "<td>2</td><td>1</td>" in text  # this month: two checks, one incomplete


@pytest.mark.parametrize("barcode", ["S/47/00", "A 12?x#3", "ÉTÉ-7"])
def test_any_barcode_the_admin_accepts_can_be_scanned(client, contents, volunteer, barcode):
    # PMB's call-number-like barcodes hold "/"; a scan of one once answered 500.
    Copy.objects.create(game=Game.objects.get(slug="villa-paletti"), barcode=barcode)
    client.force_login(volunteer)
    with translation.override("en"):
        scanned = client.get(reverse("lending:desk"), {"barcode": barcode})
        assert scanned.status_code == 302
        page = client.get(scanned.url)
        assert page.status_code == 200 and b"20 columns" in page.content
        checked = client.post(scanned.url, {"all_there": "1"}, follow=True)
    assert f"{barcode} (Villa Paletti) is complete." in checked.content.decode()


def test_the_polish_record_counts_copies_and_those_on_the_shelf(client, villa_copy):
    with translation.override("pl"):
        page = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    assert "1 egzemplarz, teraz na półce: 1" in page.content.decode()
