"""An EAN whose check digit does not match its other digits is refused wherever one is
entered: the admin's form, the CSV import and the UNIMARC import (the API in
test_api_errors)."""

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.esar import ensure_facet_a
from games.identifiers import EAN_CHECK_DIGIT
from games.models import Game
from games.resources import GameResource
from games.tests.test_admin_hostile import change_form_data
from games.tests.test_import_permissions import exported
from games.unimarc.services import ImportOptions, import_unimarc
from games.unimarc.tests import corpus

pytestmark = pytest.mark.django_db

# Alhambra's EAN (Queen Games), and the same with its last digit mistyped.
RIGHT = "4010349602106"
MISTYPED = "4010349602107"


def test_the_admin_refuses_a_mistyped_ean_with_the_reason(client, seed):
    client.force_login(User.objects.create_superuser("admin", password="x"))
    game = Game.objects.get(slug="alhambra")
    url, data = change_form_data(client, game)
    for inline in ("credits", "content_items", "copies", "summaries"):  # left as they are
        data.update({f"{inline}-TOTAL_FORMS": "0", f"{inline}-INITIAL_FORMS": "0"})
    refused = client.post(url, {**data, "ean": MISTYPED})
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors["ean"] == [str(EAN_CHECK_DIGIT)]
    game.refresh_from_db()
    assert game.ean == ""
    assert client.post(url, {**data, "ean": RIGHT}).status_code == 302
    game.refresh_from_db()
    assert game.ean == RIGHT


def test_the_csv_import_refuses_a_mistyped_ean_on_its_row(seed):
    result = GameResource().import_data(exported(ean=MISTYPED))
    assert result.has_validation_errors()
    (row,) = result.invalid_rows
    assert row.error_dict["ean"] == [str(EAN_CHECK_DIGIT)]
    assert Game.objects.get(slug="alhambra").ean == ""
    assert not GameResource().import_data(exported(ean=RIGHT)).has_validation_errors()
    assert Game.objects.get(slug="alhambra").ean == RIGHT


def test_the_unimarc_import_leaves_a_mistyped_ean_out_and_says_why(db):
    ensure_facet_a()
    with translation.override("en"):
        report = import_unimarc(
            corpus.iso([corpus.alhambra(ean="4010349 602107")]), options=ImportOptions()
        )
    (outcome,) = report.outcomes
    assert outcome.action == "created"
    assert any("check digit is wrong" in note for note in outcome.notes), outcome.notes
    assert Game.objects.get().ean == ""
