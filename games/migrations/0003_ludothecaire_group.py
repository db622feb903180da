"""The volunteers' group: add, change and view catalogue records; nothing about users."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP_NAME = "Ludothécaire"
MODELS = ["game", "gameauthor", "person", "publisher", "language", "esarcategory", "rulesummary"]
ACTIONS = ["add", "change", "view"]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations; make sure they exist now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP_NAME)
    codenames = [f"{action}_{model}" for model in MODELS for action in ACTIONS]
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    )


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_search_trigram_index"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
