"""Staff import a PMB export from the admin: a dry run first, then the import."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from e2e.conftest import english_url as url
from e2e.conftest import screenshot
from games.models import Game
from games.unimarc.tests import corpus


def test_import_unimarc_from_the_admin(seeded_server, page, tmp_path):
    User.objects.create_superuser("boss", password="boss-pass-1")
    export = tmp_path / "pmb.iso"
    record = corpus.villa_paletti(title="Villa Paletti (2e boîte)")
    record.add_field(corpus.field("610", a="adresse"))
    record.add_field(corpus.field("610", a="équilibre"))
    export.write_bytes(corpus.iso([record]))
    page.goto(
        url(seeded_server, "admin:login")
        + "?next="
        + url(seeded_server, "admin:games_game_changelist")
    )
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill("boss-pass-1")
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Import UNIMARC").click()
    page.get_by_label("UNIMARC file (ISO 2709 or XML)").set_input_files(str(export))
    page.get_by_label("Dry run: show what would be imported, change nothing").check()
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".unimarc-report")).to_contain_text(
        "200 $a → title: Villa Paletti (2e boîte)"
    )
    expect(page.locator(".unimarc-report")).to_contain_text(
        "Unmapped 610 $a: 2 values, e.g. “adresse”."
    )
    expect(page.locator(".unimarc-report")).to_contain_text("Dry run, nothing changed: 1 created.")
    screenshot(page, "admin-unimarc-dry-run")
    assert not Game.objects.filter(title="Villa Paletti (2e boîte)").exists()
    page.get_by_label("UNIMARC file (ISO 2709 or XML)").set_input_files(str(export))
    page.get_by_label("Dry run: show what would be imported, change nothing").uncheck()
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".unimarc-report")).to_contain_text("Done: 1 created.")
    assert Game.objects.get(title="Villa Paletti (2e boîte)").copies.count() == 1


def test_a_whole_catalogue_is_imported_in_the_background(
    seeded_server, page, tmp_path, monkeypatch
):
    from django.core.management import call_command

    monkeypatch.setattr("games.unimarc.admin.MAX_UPLOAD_RECORDS", 2)
    User.objects.create_superuser("boss", password="boss-pass-1")
    export = tmp_path / "catalogue.iso"
    export.write_bytes(
        corpus.iso(
            [
                corpus.villa_paletti(title=f"Villa Paletti ({n}e boîte)", notice_id=900 + n)
                for n in (1, 2, 3)
            ]
        )
    )
    page.goto(
        url(seeded_server, "admin:login")
        + "?next="
        + url(seeded_server, "admin:games_game_import_unimarc")
    )
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill("boss-pass-1")
    page.keyboard.press("Enter")
    page.get_by_label("UNIMARC file (ISO 2709 or XML)").set_input_files(str(export))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_contain_text("waiting for the worker")
    expect(page.get_by_role("status")).to_contain_text("0 of 3 records read.")
    screenshot(page, "admin-unimarc-background-waiting")
    call_command("db_worker", "--batch", "--no-startup-delay", "--interval", "0", verbosity=0)
    # the page reads itself again every two seconds
    expect(page.get_by_role("status")).to_contain_text("3 of 3 records read.", timeout=10_000)
    expect(page.locator(".unimarc-report")).to_contain_text("Done: 3 created.")
    screenshot(page, "admin-unimarc-background-done")
    assert Game.objects.filter(title__startswith="Villa Paletti (").count() == 3
