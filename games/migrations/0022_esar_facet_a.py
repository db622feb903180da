"""Every database holds ESAR's facet A: its four families and their 29 codes.

The list, its sources (*Le système ESAR*, Garon, Filion and Chiasson, ASTED 2002, read
through two public transcriptions that agree code for code) and which labels are our
translations are in ``games/esar.py`` and docs/esar.md. Existing rows keep their id and
labels; only parent and family are set, and empty labels filled. Going back removes
nothing: games may already point at the codes.
"""

from django.db import migrations

from games.esar import load_facet_a


def add_facet_a(apps, schema_editor):
    load_facet_a(apps.get_model("games", "EsarCategory"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_search_weight_verbose_name"),
    ]

    operations = [
        migrations.RunPython(add_facet_a, migrations.RunPython.noop),
    ]
