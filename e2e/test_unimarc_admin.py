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
