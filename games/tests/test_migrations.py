"""A database populated before a migration upgrades through it: migrations use their
historical models, never today's code that reads columns a later migration adds."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games import search
from games.models import Game

BEFORE_SEARCH = [("games", "0003_ludothecaire_group")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_games_recorded_before_full_text_search_upgrade_and_are_found():
    old = migrate(BEFORE_SEARCH)
    esar = old.get_model("games", "EsarCategory").objects.create(
        code="C301", family="R", label_fr="jeu d'adresse"
    )
    game = old.get_model("games", "Game").objects.create(
        title="Villa Paletti",
        slug="villa-paletti",
        document_type="object",
        min_players=2,
        max_players=4,
        min_age=8,
        duration_minutes=30,
        principle="Empiler des étages sur des colonnes branlantes.",
        esar=esar,
    )
    person = old.get_model("games", "Person").objects.create(name="Bill Payne")
    old.get_model("games", "GameAuthor").objects.create(game=game, person=person, role="author")
    old.get_model("games", "RuleSummary").objects.create(
        game=game, language="da", text="Stabl etager på søjlerne."
    )
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    found = lambda words: list(  # noqa: E731
        search.search(Game.objects.all(), words, rank=False).values_list("slug", flat=True)
    )
    assert found("paletti") == ["villa-paletti"]
    assert found("payne") == ["villa-paletti"]  # the credited person
    assert found("empiler") == ["villa-paletti"]  # the record
    assert found("sojlerne") == ["villa-paletti"]  # a rule summary, accents folded


@pytest.mark.django_db(transaction=True)
def test_the_health_check_fails_while_a_migration_is_unapplied(client):
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate([("games", "0009_title_prefix_index")])
    try:
        half = client.get(reverse("healthz"))
    finally:
        migrate(latest)
    assert half.status_code == 503
    unapplied = half.json()["unapplied_migrations"]
    assert unapplied[0] == "games.0010_sorts_with_ties_by_title_and_id"
    # the catalogue's, and those of the apps that took models over from it
    assert all(name.split(".")[0] in ("games", "lending", "unimarc") for name in unapplied)
    assert client.get(reverse("healthz")).json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db(transaction=True)
def test_games_recorded_before_the_sort_title_sort_by_their_title():
    old = migrate([("games", "0022_esar_facet_a")])
    esar = old.get_model("games", "EsarCategory").objects.get_or_create(
        code="A 400", defaults={"family": "R", "label_fr": "Jeux de règles"}
    )[0]
    for title, slug in [("Le Petit Prince", "le-petit-prince"), ("Mikado", "mikado")]:
        old.get_model("games", "Game").objects.create(
            title=title,
            slug=slug,
            document_type="object",
            min_players=2,
            max_players=4,
            min_age=8,
            duration_minutes=30,
            esar=esar,
        )
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    # No marks are known for them: each sorts by its whole title.
    assert list(Game.objects.values_list("title", "sort_title")) == [
        ("Le Petit Prince", "Le Petit Prince"),
        ("Mikado", "Mikado"),
    ]
