import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def volunteer(client):
    user = User.objects.create_user("marie", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    client.force_login(user)
    return user


def test_anonymous_is_sent_to_the_login_page(client, seed):
    response = client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_staff_without_group_sees_no_catalogue(client, seed):
    client.force_login(User.objects.create_user("bob", is_staff=True))
    assert client.get(reverse("admin:games_game_changelist")).status_code == 403


def test_volunteer_lists_filters_and_searches_games(client, seed, volunteer):
    url = reverse("admin:games_game_changelist")
    response = client.get(url)
    assert response.status_code == 200
    assert b"Villa Paletti" in response.content
    filtered = client.get(url, {"players": 6})
    assert list(filtered.context["cl"].queryset.values_list("slug", flat=True)) == ["alhambra"]
    searched = client.get(url, {"q": "Payne"})
    assert list(searched.context["cl"].queryset.values_list("slug", flat=True)) == ["villa-paletti"]


def test_volunteer_edits_a_record_with_its_summaries(client, seed, volunteer):
    game = Game.objects.get(slug="villa-paletti")
    url = reverse("admin:games_game_change", args=[game.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert b'id="id_summaries-TOTAL_FORMS"' in page.content
    assert b"autocomplete" in page.content


def test_volunteer_cannot_delete_games_or_touch_users(client, seed, volunteer):
    game = Game.objects.get(slug="villa-paletti")
    assert client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403
    assert client.get(reverse("admin:auth_user_add")).status_code == 403


def test_person_autocomplete_answers_for_volunteers(client, seed, volunteer):
    response = client.get(
        reverse("admin:autocomplete"),
        {"term": "pay", "app_label": "games", "model_name": "gameauthor", "field_name": "person"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["Bill Payne"]
