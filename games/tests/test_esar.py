"""ESAR's facet A comes with the migrations: every family and code, parents and labels."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation

from games.esar import ensure_facet_a
from games.models import EsarCategory


@pytest.mark.django_db(transaction=True)
def test_a_database_the_migrations_create_holds_every_code_of_facet_a():
    # The table as the migrations before 0022 left it (empty: they load no ESAR), then
    # migrated forward.
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    old = executor.loader.project_state([("games", "0021_search_weight_verbose_name")]).apps
    executor.migrate([("games", "0021_search_weight_verbose_name")])
    categories = old.get_model("games", "EsarCategory").objects
    categories.exclude(parent=None).delete()
    categories.all().delete()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(leaves)
    codes = EsarCategory.objects.filter(code__startswith="A ")
    assert codes.count() == 33
    assert sorted(codes.filter(parent=None).values_list("code", "family")) == [
        ("A 100", "E"),
        ("A 200", "S"),
        ("A 300", "A"),
        ("A 400", "R"),
    ]
    for code, parent, family, label in [
        ("A 101", "A 100", "E", "Jeu sensoriel sonore"),
        ("A 205", "A 200", "S", "Jeu de simulation virtuel"),
        ("A 303", "A 300", "A", "Jeu de montage scientifique"),
        ("A 404", "A 400", "R", "Jeu d'adresse"),
        ("A 412", "A 400", "R", "Jeu de règles virtuel"),
    ]:
        category = EsarCategory.objects.get(code=code)
        assert (category.parent.code, category.family, category.label_fr) == (
            parent,
            family,
            label,
        )
    # Every code is labelled in the four languages of the site.
    assert not codes.filter(label_da="").exists()
    assert not codes.filter(label_pl="").exists()
    assert not codes.filter(label_en="").exists()
    with translation.override("pl"):
        assert EsarCategory.objects.get(code="A 407").label == "Gra losowa"


def test_loading_facet_a_again_keeps_rows_their_ids_and_staff_labels(db):
    ensure_facet_a()
    ids = dict(EsarCategory.objects.values_list("code", "pk"))
    EsarCategory.objects.filter(code="A 404").update(label_fr="Jeu d'adresse et d'équilibre")
    EsarCategory.objects.filter(code="A 101").update(label_da="", parent=None)
    assert ensure_facet_a() == 0
    assert dict(EsarCategory.objects.values_list("code", "pk")) == ids
    assert EsarCategory.objects.get(code="A 404").label_fr == "Jeu d'adresse et d'équilibre"
    restored = EsarCategory.objects.get(code="A 101")
    assert (restored.parent.code, restored.label_da) == ("A 100", "Sanseleg med lyd")


def test_a_flushed_database_gets_facet_a_back(db):
    EsarCategory.objects.exclude(parent=None).delete()
    EsarCategory.objects.all().delete()
    assert ensure_facet_a() == 33
    assert EsarCategory.objects.get(code="A 406").parent.code == "A 400"


def test_the_catalogue_filter_offers_the_codes_in_the_visitors_language(db, client):
    ensure_facet_a()
    page = client.get(reverse("games:game-list"))
    assert '<option value="A 412">A 412 — Jeu de règles virtuel</option>' in page.text
    with translation.override("en"):
        page = client.get(reverse("games:game-list"))
    assert '<option value="A 101">A 101 — Sensory play with sound</option>' in page.text
    listed = client.get(reverse("games:game-list"), {"esar": "A 403"})
    assert listed.status_code == 200
