"""Copies, contents and checks moved from the catalogue's app to lending's: rows written
before the move are there after it, and so are the permissions staff held on them."""

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.lending.models import ContentItem, Copy, CopyCheck, CopyStatus

CODENAMES = ["add_copy", "change_copy", "view_copy", "add_copycheck"]
BEFORE_THE_MOVE = [("games", "0018_ean_check_digit")]  # lending's first migration follows


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_copies_checks_and_permissions_survive_the_move_to_lending():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE_THE_MOVE)
    try:
        esar = old.get_model("games", "EsarCategory").objects.create(
            code="C301", family="R", label_fr="jeu d'adresse"
        )
        game = old.get_model("games", "Game").objects.create(
            esar=esar,
            title="Villa Paletti",
            slug="villa-paletti",
            document_type="object",
            min_players=2,
            max_players=4,
            min_age=8,
            duration_minutes=30,
        )
        copy = old.get_model("games", "Copy").objects.create(
            game=game, barcode="S/47/00", status="incomplete"
        )
        item = old.get_model("games", "ContentItem").objects.create(
            game=game, name_fr="colonnes", count=20
        )
        check = old.get_model("games", "CopyCheck").objects.create(copy=copy, complete=False)
        old.get_model("games", "CopyCheckLine").objects.create(
            copy_check=check, item=item, expected=20, found=19
        )
        old_copy_type = old.get_model("contenttypes", "ContentType").objects.get(
            app_label="games", model="copy"
        )
        volunteer = old.get_model("auth", "User").objects.create(username="vol", is_staff=True)
        group = old.get_model("auth", "Group").objects.get_or_create(name="Ludothécaire")[0]
        group.permissions.add(
            *old.get_model("auth", "Permission").objects.filter(
                content_type__app_label="games", codename__in=CODENAMES
            )
        )
        held = group.permissions.filter(content_type__app_label="games", codename__in=CODENAMES)
        assert held.count() == len(CODENAMES)
        volunteer.groups.add(group)
    finally:
        migrate(latest)
    copy = Copy.objects.get(barcode="S/47/00")
    assert copy.status == CopyStatus.INCOMPLETE and copy.game.slug == "villa-paletti"
    assert [str(line) for line in CopyCheck.objects.get().missing()] == ["19/20 colonnes"]
    assert ContentItem.objects.get().count == 20
    # the same content type, now lending's: permissions and admin history follow it
    assert ContentType.objects.get_for_model(Copy).pk == old_copy_type.pk
    assert not ContentType.objects.filter(app_label="games", model="copy").exists()
    codenames = set(
        Group.objects.get(name="Ludothécaire")
        .permissions.filter(content_type__app_label="lending")
        .values_list("codename", flat=True)
    )
    assert set(CODENAMES) <= codenames
    assert User.objects.get(username="vol").has_perm("lending.add_copycheck")


@pytest.mark.django_db(transaction=True)
def test_households_email_comes_from_their_contact_and_volunteers_read_reminders():
    from games.lending.models import Household

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate([("lending", "0006_copy_section")])
    try:
        kind = old.get_model("lending", "MemberType").objects.create(name="Famille")
        for card, contact in [
            ("L1", "3 rue des Tilleuls\n06 12 34 56 78 · nowak.family@example.org"),
            ("L2", "06 98 76 54 32"),
        ]:
            old.get_model("lending", "Household").objects.create(
                card_number=card,
                name=card,
                contact=contact,
                member_type=kind,
                membership_end="2027-08-31",
            )
        old.get_model("auth", "Group").objects.get_or_create(name="Ludothécaire")
    finally:
        migrate(latest)
    emails = dict(Household.objects.values_list("card_number", "email"))
    assert emails == {"L1": "nowak.family@example.org", "L2": ""}
    group = Group.objects.get(name="Ludothécaire")
    assert group.permissions.filter(codename="view_reminder").exists()
