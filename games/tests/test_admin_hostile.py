"""Staff and login forms refuse what they cannot hold with a form error, never a 500."""

import time

import pytest
from axes.models import AccessAttempt
from django import forms
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, seed):
    client.force_login(User.objects.create_superuser("admin", password="x"))
    return client


def change_form_data(client, game):
    """The change form's own fields as the page sends them."""
    url = reverse("admin:games_game_change", args=[game.pk])
    form = client.get(url).context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name)
        if value is None or isinstance(field, forms.FileField):
            continue
        if isinstance(value, list):
            data[name] = [getattr(v, "pk", v) for v in value]
        else:
            data[name] = getattr(value, "pk", value)
    return url, data


def test_an_admin_login_with_a_very_long_user_name_is_a_form_error(client):
    User.objects.create_superuser("admin", password="the right one")
    name = "a" * 300
    response = client.post(reverse("admin:login"), {"username": name, "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not AccessAttempt.objects.filter(username=name).exists()


def test_a_publisher_that_is_no_id_is_a_form_error(staff_client):
    game = Game.objects.get(slug="alhambra")
    url, data = change_form_data(staff_client, game)
    data.update(
        {
            "publisher": "abc",
            "credits-TOTAL_FORMS": "0",
            "credits-INITIAL_FORMS": "0",
            "rule_summaries-TOTAL_FORMS": "0",
            "rule_summaries-INITIAL_FORMS": "0",
        }
    )
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "publisher" in response.context["adminform"].form.errors
    game.refresh_from_db()
    assert game.publisher_id is not None


INLINES = ["credits", "content_items", "copies", "summaries"]


@pytest.mark.parametrize("inline", INLINES)
def test_a_huge_form_count_is_refused_quickly(staff_client, inline):
    game = Game.objects.get(slug="alhambra")
    url, data = change_form_data(staff_client, game)
    for prefix in INLINES:
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    data[f"{inline}-TOTAL_FORMS"] = "100000"
    started = time.perf_counter()
    response = staff_client.post(url, data)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200  # the form again, with the formset's error
    formsets = {f.formset.prefix: f.formset for f in response.context["inline_admin_formsets"]}
    assert set(formsets) == set(INLINES)
    assert formsets[inline].non_form_errors()
    # The count is refused after building at most 100 forms; the bound is loose enough for
    # a busy machine and far below what building Django's default 2 000 takes (13 to 37 s).
    assert elapsed < 10, f"{elapsed:.1f} s"


@pytest.mark.parametrize("inline", INLINES)
@pytest.mark.parametrize("total, initial", [("0", "-5"), ("1", "-5"), ("-5", "0"), ("x", "0")])
def test_a_management_form_value_that_makes_no_sense_is_never_a_500(
    staff_client, inline, total, initial
):
    game = Game.objects.get(slug="alhambra")
    url, data = change_form_data(staff_client, game)
    for prefix in INLINES:
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    data.update({f"{inline}-TOTAL_FORMS": total, f"{inline}-INITIAL_FORMS": initial})
    response = staff_client.post(url, data)
    assert response.status_code in (200, 302)
    assert Game.objects.filter(slug="alhambra").exists()


def test_a_credited_person_that_is_no_id_is_a_form_error(staff_client):
    game = Game.objects.get(slug="alhambra")
    url, data = change_form_data(staff_client, game)
    data.update(
        {
            "credits-TOTAL_FORMS": "1",
            "credits-INITIAL_FORMS": "0",
            "credits-0-person": "abc",
            "credits-0-role": "author",
            "rule_summaries-TOTAL_FORMS": "0",
            "rule_summaries-INITIAL_FORMS": "0",
        }
    )
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.errors[0]["person"]
