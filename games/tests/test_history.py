"""Every change to games and rule summaries is kept with who and when, browsable and
revertible in the admin; and a dumpdata export loads back into an empty catalogue."""

import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient
from reversion.models import Version

from games.models import EsarCategory, Game, GameAuthor, RuleSummary

pytestmark = pytest.mark.django_db


@pytest.fixture
def volunteer():
    user = User.objects.create_user("vol", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    return user


def test_an_api_change_is_a_version_with_its_author_and_can_be_reverted(seed, volunteer, client):
    game = Game.objects.get(slug="alhambra")
    api = APIClient()
    api.force_authenticate(volunteer)
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    assert api.patch(url, {"title": "Alhambra v2"}, format="json").status_code == 200
    assert api.patch(url, {"title": "Alhambra v3"}, format="json").status_code == 200

    versions = Version.objects.get_for_object(game)
    assert len(versions) == 2
    latest, first = versions  # newest first
    assert first.revision.user == volunteer
    assert first.revision.date_created is not None
    assert first.field_dict["title"] == "Alhambra v2"

    # Browsable in the admin: the history lists both, with who; each version can be opened.
    admin = User.objects.create_superuser("admin")
    client.force_login(admin)
    history = client.get(reverse("admin:games_game_history", args=[game.pk]))
    assert history.status_code == 200
    assert history.content.decode().count("vol") >= 2
    revision_page = reverse("admin:games_game_revision", args=[game.pk, first.pk])
    assert client.get(revision_page).status_code == 200

    # Reverting (what the admin's revision page does) brings the title and credits back.
    credits = list(GameAuthor.objects.filter(game=game).values_list("person__name", "role"))
    first.revision.revert(delete=True)
    game.refresh_from_db()
    assert game.title == "Alhambra v2"
    assert list(GameAuthor.objects.filter(game=game).values_list("person__name", "role")) == (
        credits
    )


def test_rule_summary_changes_are_kept(seed, volunteer, client):
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)
    summary = RuleSummary.objects.select_related("game").first()
    client.force_login(User.objects.create_superuser("admin"))
    url = reverse("admin:games_rulesummary_change", args=[summary.pk])
    data = {"game": summary.game.pk, "language": summary.language, "text": "Nouveau texte."}
    assert client.post(url, data).status_code == 302
    versions = Version.objects.get_for_object(summary)
    assert len(versions) == 1
    assert versions[0].revision.user.username == "admin"
    assert versions[0].field_dict["text"] == "Nouveau texte."


def catalogue():
    return {
        "games": sorted(Game.objects.values_list("slug", "title", "min_players", "esar__code")),
        "credits": sorted(GameAuthor.objects.values_list("game__slug", "person__name", "role")),
        "summaries": sorted(RuleSummary.objects.values_list("game__slug", "language", "text")),
        "languages": sorted(Game.objects.values_list("slug", "languages__code")),
        "esar": sorted(EsarCategory.objects.values_list("code", "parent__code", "label_fr")),
    }


def test_a_dumpdata_export_loaded_into_an_empty_catalogue_is_the_same_catalogue(seed, tmp_path):
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)
    before = catalogue()
    dump = tmp_path / "catalogue.json"
    call_command(
        "dumpdata", "games", "--natural-foreign", "--natural-primary", "--indent", "1",
        output=str(dump), verbosity=0,
    )  # fmt: skip
    assert json.loads(dump.read_text())
    call_command("flush", "--noinput", verbosity=0)  # an empty database
    assert not Game.objects.exists() and not EsarCategory.objects.exists()
    call_command("loaddata", str(dump), verbosity=0)
    assert catalogue() == before
