"""The UNIMARC import: mapping, encodings, duplicates, staff edits, atomic records and
files that are not well formed. The records are built by ``corpus`` in PMB's
export layout."""

import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.esar import ensure_facet_a
from games.models import Game, Person, Publisher
from games.unimarc.models import ImportedRecord
from games.unimarc.services import ImportOptions, import_unimarc
from games.unimarc.tests import corpus

pytestmark = pytest.mark.django_db


@pytest.fixture
def esar(db):
    ensure_facet_a()


def run(content, user=None, **options):
    with translation.override("en"):
        return import_unimarc(content, options=ImportOptions(**options), user=user)


def outcome(report, number):
    return next(o for o in report.outcomes if o.number == number)


def test_the_seed_records_import_with_every_field(esar):
    report = run(corpus.iso(corpus.seeds()), default_esar="A 400")
    assert [o.action for o in report.outcomes] == ["created"] * 3
    villa = Game.objects.get(title="Villa paletti")
    assert [(c.person.name, c.role) for c in villa.credits.all()] == [("Bill Payne", "author")]
    assert villa.publisher.name == "Zoch"
    assert villa.esar.code == "A 404"
    assert list(villa.languages.values_list("code", flat=True)) == ["fr"]
    assert (villa.min_players, villa.max_players) == (2, 4)
    assert (villa.min_age, villa.max_age, villa.duration_minutes) == (8, 99, 30)
    assert villa.pedagogical_analysis == "Un jeu d'adresse"
    assert "1 sceau du maître d'œuvre" in villa.contents
    assert villa.principle.startswith("Hisser ses colonnes")
    assert villa.document_type == "object"
    assert villa.imported_record.source_id == "101"
    prince = Game.objects.get(publisher__name="Ludonaute")
    assert prince.esar.code == "A 400"  # the record has none: the default asked for
    assert prince.credits.get().person.name == "Antoine Bauza Bruno Cathla"
    assert Game.objects.get(title="Alhambra").year == 2003


def test_a_record_without_esar_category_is_refused_with_its_reason(esar):
    report = run(corpus.iso(corpus.seeds()))
    assert outcome(report, 2).action == "failed"
    assert "ESAR" in outcome(report, 2).reason
    assert Game.objects.count() == 2  # the others went in


def test_title_other_title_roles_year_languages_and_ean(esar):
    record = corpus.alhambra(
        other_title="Le jeu de la cour",
        authors=[("Henn", "Dirk", "070"), ("Menzel", "Michael", "440"), ("Roy", "", "730")],
        year="[2003]",
        languages=["fre", "ger", "dan"],
        ean="4010349 602106",
    )
    run(corpus.iso([record]))
    game = Game.objects.get()
    assert game.title == "Alhambra\u00a0: Le jeu de la cour"  # French spacing, as the seeds
    assert [(c.person.name, c.role) for c in game.credits.all()] == [
        ("Dirk Henn", "author"),
        ("Michael Menzel", "illustrator"),
        ("Roy", "translator"),
    ]
    assert game.year == 2003
    assert sorted(game.languages.values_list("code", flat=True)) == ["da", "de", "fr"]
    assert game.ean == "4010349602106"


def test_esar_from_686_and_summary_and_collation(esar):
    record = corpus.pmb_record(
        7,
        "Jeu sans champs",
        publisher="Test",
        summary="Un résumé qui devient le principe.",
        custom={"nb_joueurs_min": "1", "nb_joueurs_max": "1", "age_min": "3", "duree": "10"},
    )
    record.add_field(corpus.field("686", a="A 404", _2="esar"))
    record.add_field(corpus.field("215", a="1 boîte", e="1 livret"))
    run(corpus.iso([record]))
    game = Game.objects.get()
    assert game.esar.code == "A 404"
    assert game.principle == "Un résumé qui devient le principe."
    assert game.contents == "1 boîte, 1 livret"
    assert game.max_age is None


def test_custom_fields_are_mapped_by_name_with_an_adjustable_mapping(esar, settings):
    record = corpus.villa_paletti(
        custom={"nbj": "2 à 4", "Tranche d'âge": "8 ans et plus", "temps": "30 min"}
    )
    report = run(corpus.iso([record]))
    assert outcome(report, 1).action == "failed"  # nothing says how many players
    assert any("nbj" in left for left in outcome(report, 1).unmapped)
    settings.UNIMARC_CUSTOM_FIELDS = {"nbj": "players"}
    report = run(corpus.iso([record]), custom_fields={"temps": "duration_minutes"})
    assert outcome(report, 1).action == "created", outcome(report, 1).reason
    game = Game.objects.get()
    assert (game.min_players, game.max_players, game.min_age, game.max_age) == (2, 4, 8, None)
    assert game.duration_minutes == 30


def test_an_unknown_mapping_target_is_refused():
    with pytest.raises(ValueError, match="players_count"):
        run(b"", custom_fields={"nbj": "players_count"})


@pytest.mark.parametrize(
    ("encoding", "declared", "note"),
    [
        ("utf-8", corpus.UTF8_100, "read as UTF-8"),
        ("latin-1", corpus.LATIN1_100, "read as Latin-1"),
        ("utf-8", corpus.LATIN1_100, "read as UTF-8 (100$a says Latin-1"),
        ("latin-1", corpus.UTF8_100, "read as Latin-1 (100$a says UTF-8"),
    ],
)
def test_each_record_is_read_in_the_encoding_of_its_bytes(esar, encoding, declared, note):
    record = corpus.alhambra(title="Château à l'été", declared=declared)
    report = run(corpus.iso([record], encoding=encoding))
    assert outcome(report, 1).encoding.startswith(note)
    assert Game.objects.get().title == "Château à l'été"


def test_a_record_with_an_ean_before_field_100_gets_no_false_encoding_note(esar):
    record = corpus.alhambra(ean="4006048001234", declared=corpus.UTF8_100)
    report = run(corpus.iso([record], encoding="utf-8"))
    assert outcome(report, 1).encoding == "read as UTF-8"


def test_the_non_sorting_marks_of_a_utf8_title_are_text_not_a_wrong_encoding(esar):
    # An Italian SBN record: its only non-ASCII bytes are C2 88 and C2 89, the marks
    # around the article that the title sorts without.
    record = corpus.alhambra(title="\x88L'\x89altra faccia della spirale")
    report = run(corpus.iso([record], encoding="utf-8"))
    assert outcome(report, 1).encoding == "read as UTF-8"
    assert Game.objects.get().title == "L'altra faccia della spirale"


def test_a_record_without_a_001_number_is_imported(esar):
    record = corpus.alhambra()
    record.remove_fields("001")
    report = run(corpus.iso([record]))
    assert (outcome(report, 1).action, outcome(report, 1).reason) == ("created", "")
    assert Game.objects.get().title == "Alhambra"


def test_windows_1252_letters_are_not_garbled(esar):
    record = corpus.villa_paletti(title="Le sceau du maître d'œuvre", declared=corpus.LATIN1_100)
    report = run(corpus.iso([record], encoding="cp1252"))
    assert "Windows-1252" in outcome(report, 1).encoding
    assert Game.objects.get().title == "Le sceau du maître d'œuvre"


def test_records_of_one_file_may_differ_in_encoding(esar):
    content = corpus.iso([corpus.villa_paletti(title="Été")], "utf-8") + corpus.iso(
        [corpus.alhambra(title="Hiver à Grenade", declared=corpus.LATIN1_100)], "latin-1"
    )
    run(content)
    assert set(Game.objects.values_list("title", flat=True)) == {"Été", "Hiver à Grenade"}


def test_a_duplicate_of_a_staff_record_is_left_alone(seed):
    before = Game.objects.get(slug="villa-paletti").principle
    report = run(corpus.iso([corpus.villa_paletti(title="VILLA PALETTI")]))
    assert outcome(report, 1).action == "duplicate"
    assert "title and publisher" in outcome(report, 1).reason
    assert Game.objects.filter(publisher__name="Zoch").count() == 1
    assert Game.objects.get(slug="villa-paletti").principle == before
    # Le Petit Prince's record spells its title otherwise; punctuation aside it is the seed's.
    report = run(corpus.iso([corpus.petit_prince()]))
    assert outcome(report, 1).action == "duplicate"


def test_overwriting_a_staff_record_never_empties_what_the_record_says_nothing_of(seed):
    before = Game.objects.get(slug="alhambra")
    assert before.principle and before.rules
    report = run(corpus.iso([corpus.alhambra(year="2004")]), overwrite=True)
    assert outcome(report, 1).action == "updated"
    after = Game.objects.get(slug="alhambra")
    assert after.year == 2004  # what the record says replaces
    assert (after.principle, after.pedagogical_analysis, after.rules) == (
        before.principle,
        before.pedagogical_analysis,
        before.rules,
    )


def test_a_negative_player_count_is_refused_with_its_reason_not_stored_positive(esar):
    custom = {**corpus.ALHAMBRA_CUSTOM, "nb_joueurs_min": "-5"}
    report = run(corpus.iso([corpus.alhambra(custom=custom)]))
    assert outcome(report, 1).action == "failed"
    assert "“-5” is negative" in outcome(report, 1).reason
    assert not Game.objects.exists()


def test_the_french_report_says_a_record_was_created_not_created_on(esar):
    from games.unimarc.report import report_lines

    report = run(corpus.iso([corpus.alhambra()]))
    with translation.override("fr"):
        text = "\n".join(str(line) for line in report_lines(report, verbose=False))
    assert "créé" in text and "créé le" not in text


def test_a_duplicate_is_found_by_ean_first(esar):
    run(corpus.iso([corpus.alhambra(ean="4010349602106")]))
    report = run(corpus.iso([corpus.alhambra(title="Alhambra (2e édition)", ean="4010349602106")]))
    assert outcome(report, 1).action == "updated"
    assert Game.objects.get().title == "Alhambra (2e édition)"


def test_a_reimport_updates_but_keeps_staff_edits_unless_asked(esar):
    run(corpus.iso([corpus.villa_paletti()]))
    game = Game.objects.get()
    game.pedagogical_analysis = "Adresse, patience et maîtrise du geste."
    game.save()
    changed = corpus.villa_paletti(
        custom={**corpus.villa_paletti_custom(), "duree": "20", "analyse": "Adresse"}
    )
    report = run(corpus.iso([changed]))
    assert outcome(report, 1).action == "updated"
    assert outcome(report, 1).kept == ["pedagogical_analysis"]
    game.refresh_from_db()
    assert game.duration_minutes == 20
    assert game.pedagogical_analysis == "Adresse, patience et maîtrise du geste."
    run(corpus.iso([changed]), overwrite=True)
    game.refresh_from_db()
    assert game.pedagogical_analysis == "Adresse"
    assert outcome(run(corpus.iso([changed])), 1).action == "unchanged"


def test_each_record_is_atomic(esar):
    bad = corpus.alhambra(
        notice_id=9, custom={**corpus.villa_paletti_custom(), "nb_joueurs_min": "6"}
    )
    report = run(
        corpus.iso([corpus.villa_paletti(), bad, corpus.petit_prince()]), default_esar="A 400"
    )
    failed = outcome(report, 2)
    assert failed.action == "failed"
    assert "maximum number of players is below the minimum" in failed.reason
    assert Game.objects.count() == 2
    assert not Game.objects.filter(title="Alhambra").exists()
    assert ImportedRecord.objects.count() == 2


def test_other_document_types_are_skipped_or_imported_when_asked(esar):
    complete = {"nb_joueurs_min": "1", "nb_joueurs_max": "1", "age_min": "6", "duree": "15"}
    book = corpus.a_book(custom=complete, category="A 400")
    periodical = corpus.a_book(notice_id=202, title="Revue des jeux", level="s")
    report = run(corpus.iso([book, periodical]))
    assert outcome(report, 1).action == "skipped"
    assert "printed text" in outcome(report, 1).reason
    assert "periodical" in outcome(report, 2).reason
    report = run(corpus.iso([book, periodical]), other_types=True)
    assert outcome(report, 1).action == "created"
    assert Game.objects.get().document_type == "book"
    assert outcome(report, 2).action == "skipped"


def test_a_dry_run_says_what_maps_where_and_changes_nothing(esar):
    record = corpus.villa_paletti()
    record.add_field(corpus.field("900", a="Rouge", l="Couleur de la boîte", n="couleur", t="text"))
    report = run(corpus.iso([record]), dry_run=True)
    assert outcome(report, 1).action == "created"
    assert ("900 “nb_joueurs_min”", "min_players", "2") in outcome(report, 1).mapped
    assert any("Couleur" in left or "couleur" in left for left in outcome(report, 1).unmapped)
    assert not Game.objects.exists()


def test_permissions_are_the_forms(esar):
    volunteer = User.objects.create_user("vol", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    report = run(corpus.iso([corpus.villa_paletti()]), user=User.objects.get(pk=volunteer.pk))
    assert outcome(report, 1).action == "created"
    reader = User.objects.create_user("reader", is_staff=True)
    report = run(corpus.iso([corpus.alhambra()]), user=reader)
    assert outcome(report, 1).action == "failed"
    assert "may not add games" in outcome(report, 1).reason
    assert Game.objects.count() == 1


# Files that are not well formed: each bad record is reported, the others go in.


def test_a_truncated_file(esar):
    content = corpus.iso([corpus.villa_paletti(), corpus.alhambra()])
    report = run(content[:-40])
    assert outcome(report, 1).action == "created"
    assert outcome(report, 2).action == "failed"
    assert "Truncated" in outcome(report, 2).reason


def test_trailing_bytes_after_the_last_record(esar):
    report = run(corpus.iso([corpus.villa_paletti()]) + b"\n\nJUNK")
    assert outcome(report, 1).action == "created"
    assert report.problems and "after the last record" in report.problems[0]


def test_a_bad_directory(esar):
    good = corpus.iso([corpus.alhambra()])
    broken = bytearray(corpus.iso([corpus.villa_paletti()]))
    broken[24 + 3 : 24 + 7] = b"99x9"  # the first entry's length is no number
    report = run(bytes(broken) + good)
    assert outcome(report, 1).action == "failed"
    assert "directory" in outcome(report, 1).reason
    assert outcome(report, 2).action == "created"


def test_a_wrong_record_length(esar):
    first = bytearray(corpus.iso([corpus.villa_paletti()]))
    first[0:5] = b"00100"
    report = run(bytes(first) + corpus.iso([corpus.alhambra()]))
    assert outcome(report, 1).action == "failed"
    assert outcome(report, 2).action == "created"


def test_a_bad_encoding_is_refused_not_garbled(esar):
    record = corpus.iso([corpus.alhambra(title="XX")], "latin-1").replace(b"XX", b"X\x81")
    report = run(record)
    assert outcome(report, 1).action == "failed"
    assert "encoding" in outcome(report, 1).reason
    assert not Game.objects.exists()


def test_xml_with_and_without_the_marcxml_namespace(esar):
    for namespace in (True, False):
        Game.objects.all().delete()
        report = run(corpus.xml(corpus.seeds(), namespace=namespace), default_esar="A 400")
        assert [o.action for o in report.outcomes] == ["created"] * 3
        assert Game.objects.filter(title="Villa paletti").exists()


def test_xml_that_is_not_well_formed(esar):
    report = run(corpus.xml(corpus.seeds())[:-30])
    assert not report.outcomes
    assert "Not well-formed XML" in report.problems[0]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_never_a_traceback_whatever_the_file(esar, data):
    content = bytearray(corpus.iso([corpus.villa_paletti(), corpus.alhambra()]))
    for _ in range(data.draw(st.integers(1, 6))):
        position = data.draw(st.integers(0, len(content) - 1))
        content[position] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(content)))
    report = run(bytes(content[:cut]), dry_run=True)
    assert all(o.action in {"created", "failed", "skipped", "duplicate"} for o in report.outcomes)


def test_the_command_prints_each_record_and_a_progress_bar(esar, tmp_path):
    path = tmp_path / "export.iso"
    path.write_bytes(corpus.iso(corpus.seeds()))
    out, err = io.StringIO(), io.StringIO()
    with translation.override("en"):
        call_command("import_unimarc", str(path), "--dry-run", stdout=out, stderr=err)
    text = out.getvalue()
    assert "#1 Villa paletti: created (read as UTF-8)" in text
    assert "200 $a → title: Villa paletti" in text
    assert "#2 Le petit Prince fabrique-moi une Planète: failed. No ESAR category" in text
    assert "Dry run, nothing changed: 2 created, 1 failed." in text
    assert "[##############################] 3/3" in err.getvalue()
    assert not Game.objects.exists()
    call_command(
        "import_unimarc", str(path), "--default-esar", "A 400", "--no-progress", stdout=out
    )
    assert Game.objects.count() == 3


def test_the_command_says_which_file_it_cannot_read(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="missing.iso"):
        call_command("import_unimarc", str(tmp_path / "missing.iso"))


# The admin upload.


def upload(client, content, **fields):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    with translation.override("en"):
        return client.post(
            reverse("admin:games_game_import_unimarc"),
            {"file": SimpleUploadedFile("export.iso", content), **fields},
        )


def test_the_admin_upload_imports_and_reports(esar):
    from django.test import Client

    volunteer = User.objects.create_user("vol", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    client = Client()
    client.force_login(volunteer)
    content = corpus.iso(corpus.seeds())
    response = upload(client, content, dry_run="on")
    assert response.status_code == 200
    assert "200 $a → title: Villa paletti" in response.content.decode()
    assert not Game.objects.exists()
    response = upload(client, content, default_esar="A 400")
    assert "3 created" in response.content.decode()
    assert Game.objects.count() == 3


def test_the_admin_upload_needs_the_permission_to_add_or_change_games(esar):
    from django.contrib.auth.models import Permission
    from django.test import Client

    viewer = User.objects.create_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = Client()
    client.force_login(viewer)
    response = upload(client, corpus.iso(corpus.seeds()))
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_two_games_of_one_title_get_two_slugs(esar):
    records = [corpus.alhambra(), corpus.alhambra(notice_id=104, publisher="Ravensburger")]
    run(corpus.iso(records))
    assert sorted(Game.objects.values_list("slug", flat=True)) == ["alhambra", "alhambra-2"]


def test_a_danish_or_polish_title_keeps_its_letters_in_the_address(esar):
    records = [
        corpus.alhambra(title="Łódź i Żółw nr 11"),
        corpus.alhambra(notice_id=105, title="Slottets søjler og æbletræer", publisher="Æ"),
    ]
    run(corpus.iso(records))
    assert sorted(Game.objects.values_list("slug", flat=True)) == [
        "lodz-i-zolw-nr-11",
        "slottets-sojler-og-aebletraeer",
    ]


# The bulk path: a batch's new games are written together, each record still on its own.


def numbered(n, **changes):
    """A small game record of its own: title, publisher, copy and record number ``n``."""
    values = {
        "notice_id": 5000 + n,
        "title": f"Jeu numéro {n}",
        "authors": [(f"Auteur{n}", "Élise", "070"), ("Dessinatrice", "Ada", "440")],
        "publisher": f"Éditeur {n % 3}",
        "category": "A 404 jeu d'adresse",
        "custom": {**corpus.villa_paletti_custom(), "duree": str(10 + n)},
        "copies": [{"expl_cb": f"N{n:04d}", "statut_libelle": "Disponible"}],
    }
    values.update(changes)
    return corpus.pmb_record(**values)


def test_a_bad_record_in_the_middle_of_a_batch_is_reported_and_the_others_go_in(esar):
    volunteer = User.objects.create_user("vol", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    # Record 3 fails a check the import makes itself (more players at least than at most);
    # record 6 names two people whose names differ only after the 200 characters a name
    # may have: only the database can refuse it (the same person twice), which makes the
    # batch's bulk write fail and its records go in one at a time.
    records = [numbered(n) for n in range(1, 10)]
    custom = {**corpus.villa_paletti_custom(), "nb_joueurs_min": "5", "nb_joueurs_max": "3"}
    records[2] = numbered(3, custom=custom)
    long_name = "Z" * 200
    records[5] = numbered(6, authors=[(long_name + "a", "", "070"), (long_name + "b", "", "070")])
    report = run(corpus.iso(records), user=User.objects.get(pk=volunteer.pk))
    assert [o.action for o in report.outcomes] == ["created"] * 2 + ["failed"] + ["created"] * 2 + [
        "failed"
    ] + ["created"] * 3
    assert "maximum number of players is below the minimum" in outcome(report, 3).reason
    assert "database refused it" in outcome(report, 6).reason
    assert outcome(report, 6).title == "Jeu numéro 6"
    titles = set(Game.objects.values_list("title", flat=True))
    assert titles == {f"Jeu numéro {n}" for n in (1, 2, 4, 5, 7, 8, 9)}
    assert not Person.objects.filter(name=long_name).exists()  # nothing of record 6 is left
    game = Game.objects.get(title="Jeu numéro 8")
    assert [(c.person.name, c.role) for c in game.credits.all()] == [
        ("Élise Auteur8", "author"),
        ("Ada Dessinatrice", "illustrator"),
    ]
    assert game.copies.get().barcode == "N0008"
    assert game.content_items.count() == 5  # the contents' checklist, as one at a time
    assert game.duration_minutes == 18
    assert game.imported_record.source_id == "5008"
    assert outcome(report, 8).game_id == game.pk


def test_a_refused_record_leaves_no_person_or_publisher_behind(esar):
    from django.contrib.auth.models import Permission

    # May add games, people and publishers but not copies: the record is refused at its
    # copy, after the person and publisher it names were made for it.
    clerk = User.objects.create_user("clerk", is_staff=True)
    for codename in ("add_game", "add_person", "add_publisher", "add_language"):
        clerk.user_permissions.add(Permission.objects.get(codename=codename))
    records = [
        numbered(1, copies=[]),
        numbered(2, publisher="Nouvel éditeur"),
        numbered(3, copies=[]),
    ]
    report = run(corpus.iso(records), user=User.objects.get(pk=clerk.pk))
    assert [o.action for o in report.outcomes] == ["created", "failed", "created"]
    assert "may not add copies" in outcome(report, 2).reason
    assert not Person.objects.filter(name="Élise Auteur2").exists()
    assert not Publisher.objects.filter(name="Nouvel éditeur").exists()


def test_each_imported_record_has_its_history_entry_with_who_and_what(esar):
    from reversion.models import Version

    volunteer = User.objects.create_user("vol", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    run(corpus.iso([numbered(n) for n in range(1, 6)]), user=User.objects.get(pk=volunteer.pk))
    for game in Game.objects.all():
        versions = Version.objects.get_for_object(game)
        assert versions.count() == 1, game.title
        version = versions.get()
        assert version.revision.user == volunteer
        assert version.revision.comment == "UNIMARC import"
        assert version.field_dict["title"] == game.title
        # The version holds the game whole: its credits, contents and copy with it.
        for part in [*game.credits.all(), game.copies.get(), *game.content_items.all()]:
            assert Version.objects.get_for_object(part).get().revision == version.revision
    # A record imported again with a change adds a version to its game alone.
    again = numbered(3, custom={**corpus.villa_paletti_custom(), "duree": "45"})
    report = run(corpus.iso([again]), user=User.objects.get(pk=volunteer.pk))
    assert [o.action for o in report.outcomes] == ["updated"]
    changed = Game.objects.get(title="Jeu numéro 3")
    latest, first = Version.objects.get_for_object(changed)
    assert (latest.revision.user, latest.revision.comment) == (volunteer, "UNIMARC import")
    assert (latest.field_dict["duration_minutes"], first.field_dict["duration_minutes"]) == (45, 13)
    assert [Version.objects.get_for_object(g).count() for g in Game.objects.order_by("pk")] == [
        1,
        1,
        2,
        1,
        1,
    ]


def test_a_record_found_again_in_the_same_file_updates_the_game_it_made(esar):
    first = numbered(1)
    again = numbered(1, custom={**corpus.villa_paletti_custom(), "duree": "45"})
    other_copy = numbered(2, copies=[{"expl_cb": "N0001", "statut_libelle": "Disponible"}])
    report = run(corpus.iso([first, again, other_copy]))
    assert [o.action for o in report.outcomes] == ["created", "updated", "created"]
    assert Game.objects.get(title="Jeu numéro 1").duration_minutes == 45
    assert "N0001 is already a copy of another game" in outcome(report, 3).notes[0]
    assert not Game.objects.get(title="Jeu numéro 2").copies.exists()


def test_new_games_are_written_a_statement_per_table_not_per_record(
    esar, django_assert_max_num_queries
):
    content = corpus.iso([numbered(n) for n in range(1, 101)])
    # One at a time, 100 records took more than 1 500 statements.
    with django_assert_max_num_queries(60):
        report = run(content)
    assert report.counts["created"] == 100
    assert Game.objects.count() == 100


def test_the_history_of_a_new_game_holds_it_whole_as_reversion_writes_it(esar):
    import reversion
    from reversion.models import Version

    run(corpus.iso([numbered(1), numbered(2)]))
    game = Game.objects.get(title="Jeu numéro 2")
    ours = Version.objects.get_for_object(game).get().revision
    # As the import wrote it: the search data is filled in afterwards, by the indexing.
    game.search_vector = game.search_terms = None
    with translation.override("en"), reversion.create_revision():
        reversion.add_to_revision(game)  # and what reversion follows from it
    its = Version.objects.get_for_object(game).exclude(revision=ours).get().revision
    ours_by_object = {(v.content_type_id, v.object_id): v for v in ours.version_set.all()}
    its_versions = list(its.version_set.all())
    assert len(its_versions) == 1 + 2 + 5 + 1  # the game, its credits, contents and copy
    for version in its_versions:
        mine = ours_by_object[(version.content_type_id, version.object_id)]
        assert (mine.format, mine.db, mine.object_repr) == (
            version.format,
            version.db,
            version.object_repr,
        )
        assert mine.serialized_data == version.serialized_data, version.object_repr
    assert ours.comment == "UNIMARC import"


def test_a_dry_run_reads_each_record_against_the_catalogue_as_it_stands(esar):
    report = run(corpus.iso([numbered(1), numbered(2), numbered(1)]), dry_run=True)
    assert [o.action for o in report.outcomes] == ["created"] * 3
    assert not Game.objects.exists()
    assert not Person.objects.exists()


def test_pmb_items_keep_location_and_section_apart_and_read_the_status_code(esar):
    record = corpus.villa_paletti(
        copies=[
            {
                "expl_cb": "J0001",
                "statut_libelle": "Sorti",  # a site's own word, understood by its code
                "statusdoc_codage_import": "p",
                "location_libelle": "Ludothèque centrale",
                "section_libelle": "Jeux d'adresse",
            },
            # the section a copy of ours without one is exported in: read back as none
            {"expl_cb": "J0002", "section_libelle": "Jeux", "location_libelle": "Annexe"},
        ]
    )
    # PMB's default item import reads a 995 alone (no 996): barcode, note, status code.
    record.add_field(corpus.field("995", a="Ludothèque", f="J0003", u="boîte abîmée", o="r"))
    report = run(corpus.iso([record]), dry_run=False)
    assert report.outcomes[0].action == "created", report.outcomes[0].reason
    copies = {c.barcode: c for c in Game.objects.get().copies.all()}
    assert (copies["J0001"].location, copies["J0001"].section) == (
        "Ludothèque centrale",
        "Jeux d'adresse",
    )
    assert copies["J0001"].status == "on_loan"
    assert (copies["J0002"].location, copies["J0002"].section) == ("Annexe", "")
    assert copies["J0003"].status == "in_repair"
    assert copies["J0003"].condition_note == "boîte abîmée"
    # none of PMB's item subfields is left "unmapped"
    assert not [line for line in report.outcomes[0].unmapped if line.startswith("99")]


def test_a_dry_run_sums_up_what_is_unmapped_in_one_line_a_tag(esar):
    from games.unimarc.report import report_lines

    records = []
    for number in (1, 2, 3):
        record = numbered(number)
        record.add_field(corpus.field("300", a=f"Note générale {number}"))
        record.add_field(corpus.field("610", a="adresse", _9="id:1"))
        record.add_field(corpus.field("610", a="équilibre"))
        record.add_field(corpus.field("900", a="Rouge", l="Couleur", n="couleur", t="text"))
        records.append(record)
    report = run(corpus.iso(records), dry_run=True)
    with translation.override("en"):
        lines = report_lines(report, verbose=True)
    unmapped = [line for line in lines if "nmapped" in line]
    assert unmapped == [
        "Unmapped 300 $a: 3 values, e.g. “Note générale 1”.",
        "Unmapped 610 $a: 6 values, e.g. “adresse”.",
        "Unmapped 900 “couleur”: 3 values, e.g. “Rouge”.",
    ]
    with translation.override("pl"):
        polish = [line for line in report_lines(report, verbose=True) if "610" in line]
    assert polish == ["Nieprzeniesione 610 $a: 6 wartości, np. „adresse”."]


def record_filed_under(code):
    record = corpus.pmb_record(
        8,
        "Loto sonore",
        publisher="Test",
        custom={"nb_joueurs_min": "1", "nb_joueurs_max": "4", "age_min": "2", "duree": "15"},
    )
    record.add_field(corpus.field("686", a=code, _2="esar"))
    return record


def test_a_code_of_facet_a_beyond_the_seed_games_ones_is_accepted(esar):
    report = run(corpus.iso([record_filed_under("A101")]))
    assert outcome(report, 1).action == "created"
    assert Game.objects.get().esar.label_fr == "Jeu sensoriel sonore"


def test_a_code_outside_facet_a_is_still_refused(esar):
    report = run(corpus.iso([record_filed_under("A 499")]))
    assert outcome(report, 1).action == "failed"
    assert "A 499" in outcome(report, 1).reason
