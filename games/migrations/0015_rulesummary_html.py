"""Rule summaries keep their rendered HTML, written when a summary is saved."""

from django.db import migrations, models

from games.markdown import render_markdown

BATCH = 2000


def render_every_summary(apps, schema_editor):
    """Each distinct text rendered once: a generated catalogue repeats its few texts."""
    RuleSummary = apps.get_model("games", "RuleSummary")
    rendered = {}
    ids = list(RuleSummary.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        batch = list(RuleSummary.objects.filter(pk__in=ids[start : start + BATCH]).only("text"))
        for summary in batch:
            if summary.text not in rendered:
                rendered[summary.text] = str(render_markdown(summary.text))
            summary.html = rendered[summary.text]
        RuleSummary.objects.bulk_update(batch, ["html"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_wording_of_record_help_and_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulesummary",
            name="html",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(render_every_summary, migrations.RunPython.noop),
    ]
