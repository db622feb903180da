from django.contrib.auth.management import create_permissions
from django.db import migrations

CODENAMES = [
    "add_tournament",
    "change_tournament",
    "view_tournament",
    "add_player",
    "change_player",
    "view_player",
    "change_table",
    "view_table",
    "view_round",
    "view_seat",
]


def volunteers_run_tournaments(apps, schema_editor):
    """The Ludothécaire group sets tournaments up, runs the desk and corrects results."""
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Ludothécaire").first()
    if group:
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="tournament", codename__in=CODENAMES)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0001_initial"),
        ("games", "0003_ludothecaire_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(volunteers_run_tournaments, migrations.RunPython.noop),
    ]
