import pytest
from django.contrib.auth.models import Group, Permission, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import EsarCategory, Game, Language, RuleSummary
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def slugs(response):
    return sorted(item["slug"] for item in response.json()["results"])


def test_list_is_paginated_with_the_promised_fields(api, seed):
    response = api.get(reverse("api:game-list"))
    body = response.json()
    assert set(body) == {"count", "count_capped", "next", "previous", "results"}
    assert body["count"] == 3
    paletti = next(item for item in body["results"] if item["slug"] == "villa-paletti")
    assert paletti["min_players"] == 2 and paletti["max_players"] == 4
    assert paletti["min_age"] == 8 and paletti["max_age"] == 99
    assert paletti["duration_minutes"] == 30
    assert paletti["esar"]["code"] == "A 404"
    assert paletti["esar"]["label"]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"players": 5}, ["alhambra", "le-petit-prince-fabrique-moi-une-planete"]),
        ({"players": 6}, ["alhambra"]),
        ({"age": 7}, []),
        ({"duration_max": 30}, ["le-petit-prince-fabrique-moi-une-planete", "villa-paletti"]),
        ({"esar": "A 404"}, ["villa-paletti"]),
        ({"language": "fr", "q": "oeuvre"}, ["villa-paletti"]),
    ],
)
def test_filters_mean_what_the_page_filters_mean(api, client, seed, params, expected):
    assert slugs(api.get(reverse("api:game-list"), params)) == expected
    page = client.get(reverse("games:game-list"), params)
    assert sorted(g.slug for g in page.context["games"]) == expected


def test_ordering(api, seed):
    response = api.get(reverse("api:game-list"), {"ordering": "-duration"})
    assert [item["slug"] for item in response.json()["results"]][0] == "alhambra"


@pytest.mark.parametrize(
    "params",
    [{"players": "x"}, {"players": "-2"}, {"age": "1e9"}, {"ordering": "nope"}, {"q": "a" * 5000}],
)
def test_bad_filters_are_400_with_the_reason(api, seed, params):
    response = api.get(reverse("api:game-list"), params)
    assert response.status_code == 400
    assert list(response.json()) == list(params)


def test_detail_is_the_whole_record_with_rule_languages(api, seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="pl", text="## Cel gry")
    RuleSummary.objects.create(game=game, language="fr", text="## But du jeu")
    body = api.get(reverse("api:game-detail", kwargs={"slug": "villa-paletti"})).json()
    assert body["authors"] == [{"name": "Bill Payne", "role": "author"}]
    assert body["publisher"] == "Zoch"
    assert body["languages"] == ["fr"]
    assert body["rule_languages"] == ["fr", "pl"]
    assert "20 colonnes" in body["contents"]


def test_rules_list_and_one_language(api, seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="da", text="## Mål\n\nByg villaen.")
    listing = api.get(reverse("api:game-rules", kwargs={"slug": "villa-paletti"})).json()
    assert [(s["language"], s["text"]) for s in listing] == [("da", "## Mål\n\nByg villaen.")]
    url = reverse("api:game-rules-in-language", kwargs={"slug": "villa-paletti", "language": "da"})
    one = api.get(url).json()
    assert one["language"] == "da" and one["text"].startswith("## Mål")


def test_missing_language_is_404_listing_the_available_ones(api, seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="da", text="## Mål")
    url = reverse("api:game-rules-in-language", kwargs={"slug": "villa-paletti", "language": "pl"})
    response = api.get(url)
    assert response.status_code == 404
    assert response.json()["available_languages"] == ["da"]


def test_unknown_slug_is_404(api, seed):
    assert api.get(reverse("api:game-detail", kwargs={"slug": "nope"})).status_code == 404
    assert api.get(reverse("api:game-rules", kwargs={"slug": "nope"})).status_code == 404


def test_esar_vocabulary(api, seed):
    body = api.get(reverse("api:esar-list")).json()
    codes = {item["code"]: item for item in body}
    assert codes["A 404"]["parent"] == "A 400"
    assert codes["A 400"]["family"] == "R"


def test_schema_and_docs(client, seed):
    schema = client.get(reverse("api:schema"))
    assert schema.status_code == 200
    assert b"/api/games/{slug}/rules/{language}/" in schema.content
    assert client.get(reverse("api:docs")).status_code == 200


NEW_GAME = {
    "title": "Dobble",
    "slug": "dobble",
    "esar": "A 400",
    "min_players": 2,
    "max_players": 8,
    "min_age": 6,
    "duration_minutes": 15,
    "languages": ["fr"],
}


def test_anonymous_cannot_write(api, seed):
    assert api.post(reverse("api:game-list"), NEW_GAME, format="json").status_code in (401, 403)
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    assert api.delete(url).status_code in (401, 403)
    assert Game.objects.count() == 3


def test_staff_without_permission_cannot_write(api, seed):
    api.force_authenticate(User.objects.create_user("staff", is_staff=True))
    assert api.post(reverse("api:game-list"), NEW_GAME, format="json").status_code == 403


def test_non_staff_with_permission_cannot_write(api, seed):
    user = User.objects.create_user("patron")
    user.user_permissions.add(Permission.objects.get(codename="add_game"))
    api.force_authenticate(user)
    assert api.post(reverse("api:game-list"), NEW_GAME, format="json").status_code == 403


def test_ludothecaire_can_add_and_change_but_not_delete(api, seed):
    user = User.objects.create_user("vol", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    api.force_authenticate(user)
    created = api.post(reverse("api:game-list"), NEW_GAME, format="json")
    assert created.status_code == 201, created.json()
    url = reverse("api:game-detail", kwargs={"slug": "dobble"})
    assert api.patch(url, {"max_players": 6}, format="json").status_code == 200
    assert Game.objects.get(slug="dobble").max_players == 6
    assert api.delete(url).status_code == 403


def test_write_refuses_inverted_ranges(api, seed):
    api.force_authenticate(User.objects.create_superuser("admin"))
    bad = dict(NEW_GAME, min_players=9)
    response = api.post(reverse("api:game-list"), bad, format="json")
    assert response.status_code == 400
    assert "max_players" in response.json()


def test_suggestions_complete_a_title_as_it_is_typed(api, seed):
    response = api.get(reverse("api:game-suggest"), {"q": "pal"})
    assert response.status_code == 200
    assert response.json() == [
        {"title": "Villa Paletti", "slug": "villa-paletti", "html_url": "/fr/games/villa-paletti/"}
    ]
    typo = api.get(reverse("api:game-suggest"), {"q": "alhambar"}, HTTP_ACCEPT_LANGUAGE="da")
    assert [(s["title"], s["html_url"]) for s in typo.json()] == [
        ("Alhambra", "/da/games/alhambra/")
    ]


@pytest.mark.parametrize("params", [{}, {"q": "x" * 201}])
def test_suggestions_refuse_a_missing_or_huge_query(api, seed, params):
    response = api.get(reverse("api:game-suggest"), params)
    assert response.status_code == 400
    assert "q" in response.json()


def test_suggestions_are_in_the_api_schema(api):
    schema = api.get(reverse("api:schema"), HTTP_ACCEPT="application/json").json()
    assert "/api/games/suggest/" in schema["paths"]


def test_list_queries_do_not_grow_with_page_size(api, seed):
    for n in range(30):
        make_game(title=f"Jeu {n}", slug=f"jeu-{n}")
    counted = []
    for size in (2, 30):
        with CaptureQueriesContext(connection) as queries:
            response = api.get(reverse("api:game-list"), {"page_size": size})
        assert len(response.json()["results"]) == size
        counted.append(len(queries))
    assert counted[0] == counted[1]


@pytest.mark.parametrize("language", ["fr", "da", "en"])
def test_a_listed_game_names_its_category_and_languages(api, seed, language):
    make_game(title="Sans langue", slug="sans-langue", max_age=None)
    EsarCategory.objects.filter(code="A 404").update(label_da="")  # falls back to French
    Game.objects.get(slug="villa-paletti").languages.set(
        [Language.objects.get_or_create(code=code)[0] for code in ("fr", "de")]
    )
    results = api.get("/api/games/", HTTP_ACCEPT_LANGUAGE=language).json()["results"]
    listed = {item["slug"]: item for item in results}
    paletti, bare = listed["villa-paletti"], listed["sans-langue"]
    assert paletti["url"] == "http://testserver/api/games/villa-paletti/"
    assert paletti["languages"] == ["de", "fr"]
    category = EsarCategory.objects.get(code="A 404")
    expected = {"fr": category.label_fr, "da": category.label_fr, "en": category.label_en}
    assert paletti["esar"] == {
        "code": "A 404",
        "label": expected[language] or category.label_fr,
        "family": category.family,
    }
    assert bare["languages"] == [] and bare["max_age"] is None
