"""CSV import obeys the admin's permissions and touches only its own user's upload."""

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game, GameAuthor
from games.resources import GameResource

pytestmark = pytest.mark.django_db


@pytest.fixture
def volunteer():
    user = User.objects.create_user("vol", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    return User.objects.get(pk=user.pk)  # fresh permission cache


def exported(**changes):
    """The catalogue as CSV, with `changes` applied to Alhambra's row."""
    dataset = GameResource().export()
    dataset = GameResource().export()
    index = [r["slug"] for r in dataset.dict].index("alhambra")
    values = list(dataset[index])
    for key, value in changes.items():
        values[dataset.headers.index(key)] = value
    del dataset[index]
    dataset.insert(index, values)
    return dataset


def test_a_volunteer_cannot_remove_credits_by_import(seed, volunteer):
    credits = GameAuthor.objects.filter(game__slug="alhambra").count()
    assert credits > 0
    with translation.override("en"):
        result = GameResource().import_data(exported(authors=""), user=volunteer)
        assert result.has_errors()
        assert "remove credits" in str(result.row_errors()[0][1][0].error)
    assert GameAuthor.objects.filter(game__slug="alhambra").count() == credits


def test_a_volunteer_may_change_and_add_credits_by_import(seed, volunteer):
    current = GameResource().export().dict
    authors = next(r["authors"] for r in current if r["slug"] == "alhambra")
    dataset = exported(authors=authors + "; Ada Lovelace (illustrator)", title="Alhambra !")
    result = GameResource().import_data(dataset, user=volunteer)
    assert not result.has_errors(), [e.error for _, errs in result.row_errors() for e in errs]
    game = Game.objects.get(slug="alhambra")
    assert game.title == "Alhambra !"
    assert game.credits.filter(person__name="Ada Lovelace").exists()


def test_an_admin_may_remove_credits_by_import(seed):
    admin = User.objects.create_superuser("admin")
    result = GameResource().import_data(exported(authors=""), user=admin)
    assert not result.has_errors()
    assert not GameAuthor.objects.filter(game__slug="alhambra").exists()


def test_a_viewer_cannot_import_at_all(seed, client):
    viewer = User.objects.create_user("viewer", is_staff=True)
    viewer.user_permissions.add(
        *Group.objects.get(name="Ludothécaire").permissions.filter(codename__startswith="view_")
    )
    result = GameResource().import_data(exported(title="Changed"), user=viewer)
    assert result.has_errors()
    assert Game.objects.get(slug="alhambra").title != "Changed"
    client.force_login(viewer)
    assert client.get(reverse("admin:games_game_import")).status_code == 403


def test_the_confirm_step_reads_only_an_upload_of_this_session(seed, volunteer):
    csv = exported(title="Alhambra (2e éd.)").csv.encode()
    upload_url = reverse("admin:games_game_import")
    confirm_url = reverse("admin:games_game_process_import")

    # Another staff member uploads a file and stops at the confirm step.
    owner = Client()
    owner.force_login(User.objects.create_superuser("other"))
    upload = SimpleUploadedFile("g.csv", csv, "text/csv")
    response = owner.post(upload_url, {"import_file": upload, "format": "0"})
    confirm = {**response.context["confirm_form"].initial, "original_file_name": "g.csv"}

    # The volunteer posts a confirm naming that file: refused, the file left alone.
    intruder = Client()
    intruder.force_login(volunteer)
    assert intruder.post(confirm_url, confirm).status_code == 403
    assert Game.objects.get(slug="alhambra").title == "Alhambra"

    # The owner can still confirm it, once.
    assert owner.post(confirm_url, confirm).status_code == 302
    assert Game.objects.get(slug="alhambra").title == "Alhambra (2e éd.)"
    assert owner.post(confirm_url, confirm).status_code == 403
