"""Copies of a game: imported from PMB's 995/996, edited in the admin, counted on the
public record, and the "available now" filter on the pages and in the API."""

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games.esar import ensure_facet_a
from games.lending.models import Copy, CopyStatus
from games.models import Game
from games.unimarc.mapping import status_from_pmb
from games.unimarc.services import ImportOptions, import_unimarc
from games.unimarc.tests import corpus

pytestmark = pytest.mark.django_db


def add_copies(slug, *statuses):
    game = Game.objects.get(slug=slug)
    for n, status in enumerate(statuses):
        Copy.objects.create(game=game, barcode=f"{slug[:3].upper()}{n:03d}", status=status)
    return game


def test_a_barcode_is_unique(seed):
    add_copies("alhambra", CopyStatus.AVAILABLE)
    with pytest.raises(IntegrityError):
        Copy.objects.create(game=Game.objects.get(slug="villa-paletti"), barcode="ALH000")


def test_the_public_record_counts_the_copies_on_the_shelf(client, seed):
    with translation.override("en"):
        url = reverse("games:game-detail", kwargs={"slug": "alhambra"})
        assert b"on the shelf" not in client.get(url).content  # no copies, nothing said
        add_copies("alhambra", CopyStatus.AVAILABLE, CopyStatus.ON_LOAN, CopyStatus.WITHDRAWN)
        assert b"2 copies, 1 on the shelf now" in client.get(url).content
        copy = Copy.objects.get(barcode="ALH000")
        copy.status = CopyStatus.ON_LOAN
        copy.save()  # the cached page follows
        assert b"2 copies, 0 on the shelf now" in client.get(url).content


def test_available_now_on_the_pages_and_in_the_api(client, seed):
    add_copies("alhambra", CopyStatus.AVAILABLE)
    add_copies("villa-paletti", CopyStatus.ON_LOAN, CopyStatus.IN_REPAIR)
    page = client.get(reverse("games:game-list"), {"available": "on"})
    assert b"Alhambra" in page.content
    assert b"Villa Paletti" not in page.content
    api = APIClient()
    listed = api.get(reverse("api:game-list"), {"available": "true"}).json()["results"]
    assert [game["slug"] for game in listed] == ["alhambra"]
    everything = api.get(reverse("api:game-list"), {"available": "false"}).json()
    assert everything["count"] == 3


def test_available_now_takes_yes_or_no_and_refuses_other_words(seed):
    # "null" used to read as "no filter": a word the API does not know is a 400.
    api = APIClient()
    assert api.get(reverse("api:game-list"), {"available": "null"}).status_code == 400
    assert api.get(reverse("api:game-list"), {"available": "maybe"}).status_code == 400
    assert api.get(reverse("api:game-list"), {"available": "true"}).status_code == 200
    assert api.get(reverse("api:game-list"), {"available": ""}).status_code == 200


def test_the_admin_edits_copies_inline(client, seed):
    admin = User.objects.create_superuser("admin")
    client.force_login(admin)
    game = Game.objects.get(slug="alhambra")
    response = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert b'name="copies-TOTAL_FORMS"' in response.content


@pytest.mark.parametrize(
    ("label", "status"),
    [
        ("Disponible", CopyStatus.AVAILABLE),
        ("En réparation", CopyStatus.IN_REPAIR),
        ("Incomplet", CopyStatus.INCOMPLETE),
        ("Pilonné", CopyStatus.WITHDRAWN),
        ("En prêt", CopyStatus.ON_LOAN),
    ],
)
def test_pmb_statuses(label, status):
    assert status_from_pmb(label) == (status, True)


def test_copies_come_in_with_the_import(db):
    ensure_facet_a()
    record = corpus.villa_paletti(
        copies=[
            {
                "expl_cb": "J0001",
                "expl_cote": "JEU ADR",
                "statut_libelle": "Disponible",
                "location_libelle": "Ludothèque",
                "create_date": "2023-10-05 10:00:00",
            },
            {
                "expl_cb": "J0002",
                "statut_libelle": "En réparation",
                "expl_note": "1 colonne fendue",
            },
            {"expl_cb": "J0003", "statut_libelle": "Au grenier"},
        ]
    )
    with translation.override("en"):
        import_unimarc(corpus.iso([record]), options=ImportOptions())
    copies = {c.barcode: c for c in Game.objects.get().copies.all()}
    assert copies["J0001"].call_number == "JEU ADR"
    assert copies["J0001"].location == "Ludothèque"
    assert copies["J0001"].acquired.isoformat() == "2023-10-05"
    assert copies["J0002"].status == CopyStatus.IN_REPAIR
    assert copies["J0002"].condition_note == "1 colonne fendue"
    assert copies["J0003"].status == CopyStatus.AVAILABLE
    assert "Au grenier" in copies["J0003"].condition_note  # a status the site cannot read
    # A barcode another game has already is left out, with a note.
    other = corpus.alhambra(copies=[{"expl_cb": "J0001"}])
    with translation.override("en"):
        report = import_unimarc(corpus.iso([other]), options=ImportOptions())
    assert "J0001 is already a copy of another game" in " ".join(report.outcomes[0].notes)
    assert Copy.objects.filter(barcode="J0001").get().game.title == "Villa paletti"


def test_a_number_filter_sent_empty_is_refused_by_the_api_and_ignored_by_the_page(client, seed):
    api = APIClient()
    refused = api.get(reverse("api:game-list"), {"age": ""})
    assert refused.status_code == 400 and "age" in refused.json()
    assert client.get(reverse("games:game-list"), {"age": ""}).status_code == 200


def test_the_count_of_games_on_the_shelf_follows_a_copy_coming_back(client, seed):
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    add_copies("alhambra", CopyStatus.AVAILABLE)
    add_copies("villa-paletti", CopyStatus.ON_LOAN)
    url = reverse("games:game-list")
    assert client.get(url, {"available": "on"}).context["count"] == 1
    back = Copy.objects.get(barcode="VIL000")
    back.status = CopyStatus.AVAILABLE
    back.save()
    again = client.get(url, {"available": "on"})
    assert again.context["count"] == 2
    assert [game.slug for game in again.context["games"]] == ["alhambra", "villa-paletti"]


def _as_shown(response) -> dict:
    """What the admin page's form posts back when nothing is touched: each form's values
    as the page showed them, inlines and their management forms included."""
    forms = [response.context["adminform"].form]
    data = {}
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        forms += list(inline.formset.forms)
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            key = form.add_prefix(name)
            if form.fields[name].show_hidden_initial:  # the value the page was shown with
                initial = form[name].initial
                if initial is not None and initial is not False:
                    data[form.add_initial_prefix(name)] = "on" if initial is True else str(initial)
            if value is True:
                data[key] = "on"
            elif isinstance(value, (list, tuple)):
                data[key] = [str(v) for v in value]
            else:
                data[key] = str(value)
    return data


def test_an_admin_edit_of_a_copy_keeps_what_the_desk_did_while_the_page_was_open(client, seed):
    """A volunteer lends the copy at the desk while a staff member has its admin page
    open; the staff member then saves a new location: the copy is still on loan."""
    game = add_copies("alhambra", CopyStatus.AVAILABLE)
    copy = game.copies.get()
    client.force_login(User.objects.create_superuser("admin"))
    with translation.override("en"):
        url = reverse("admin:lending_copy_change", args=[copy.pk])
    data = _as_shown(client.get(url))
    Copy.objects.filter(pk=copy.pk).update(status=CopyStatus.ON_LOAN)  # the desk, meanwhile
    data["location"] = "Étagère B"
    assert client.post(url, data).status_code == 302
    copy.refresh_from_db()
    assert (copy.location, copy.status) == ("Étagère B", CopyStatus.ON_LOAN)


def test_an_edit_of_the_games_copies_inline_keeps_what_the_desk_did_meanwhile(client, seed):
    game = add_copies("alhambra", CopyStatus.AVAILABLE, CopyStatus.AVAILABLE)
    client.force_login(User.objects.create_superuser("admin"))
    with translation.override("en"):
        url = reverse("admin:games_game_change", args=[game.pk])
    data = _as_shown(client.get(url))
    lent, other = game.copies.order_by("barcode")
    Copy.objects.filter(pk=lent.pk).update(status=CopyStatus.ON_LOAN)  # the desk, meanwhile
    index = next(k for k in range(2) if data[f"copies-{k}-id"] == str(lent.pk))
    data[f"copies-{index}-call_number"] = "JEU ALH"
    assert client.post(url, data).status_code == 302
    lent.refresh_from_db()
    assert (lent.call_number, lent.status) == ("JEU ALH", CopyStatus.ON_LOAN)
