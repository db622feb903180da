"""CSV import obeys the admin's permissions and touches only its own user's upload."""

from io import StringIO

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game, GameAuthor
from games.resources import MAX_ADMIN_ROWS, GameResource

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


def many_games(count):
    """The catalogue's CSV with `count` rows: copies of Alhambra's under new slugs."""
    dataset = GameResource().export()
    row = list(dataset[[r["slug"] for r in dataset.dict].index("alhambra")])
    slug, title = dataset.headers.index("slug"), dataset.headers.index("title")
    del dataset[0 : len(dataset)]
    for n in range(count):
        values = list(row)
        values[slug], values[title] = f"alhambra-{n}", f"Alhambra {n}"
        dataset.append(values)
    return dataset


def test_the_admin_refuses_a_file_longer_than_it_imports_and_names_the_command(seed):
    client = Client()
    client.force_login(User.objects.create_superuser("admin"))
    csv = many_games(MAX_ADMIN_ROWS + 1).csv.encode()
    upload = SimpleUploadedFile("many.csv", csv, "text/csv")
    with translation.override("en"):
        response = client.post(
            reverse("admin:games_game_import"), {"import_file": upload, "format": "0"}
        )
    assert response.status_code == 200
    page = response.content.decode()
    assert f"This file has {MAX_ADMIN_ROWS + 1} rows" in page
    assert "python manage.py import_games FILE" in page
    assert "confirm_form" not in response.context or response.context["confirm_form"] is None
    assert Game.objects.count() == 3


def test_the_command_imports_a_file_of_any_length_in_one_transaction(seed, tmp_path):
    path = tmp_path / "many.csv"
    path.write_text(many_games(MAX_ADMIN_ROWS + 50).csv, encoding="utf-8")
    out = StringIO()
    call_command("import_games", str(path), stdout=out)
    assert f"{MAX_ADMIN_ROWS + 50} rows: {MAX_ADMIN_ROWS + 50} games were added" in out.getvalue()
    assert Game.objects.count() == 3 + MAX_ADMIN_ROWS + 50


def test_the_command_writes_nothing_when_a_row_is_wrong(seed, tmp_path):
    dataset = many_games(5)
    dataset.append(["x"] * len(dataset.headers))
    path = tmp_path / "bad.csv"
    path.write_text(dataset.csv, encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_games", str(path), stdout=StringIO(), stderr=StringIO())
    assert Game.objects.count() == 3


def test_the_command_refuses_a_file_it_cannot_read(tmp_path):
    path = tmp_path / "games.xlsx"
    path.write_bytes(b"PK\x03\x04")
    with pytest.raises(CommandError, match="expected one of"):
        call_command("import_games", str(path))
    with pytest.raises(CommandError, match="missing.csv"):
        call_command("import_games", str(tmp_path / "missing.csv"))
