"""Each seat keeps its place at the table, whatever the game: the standings read places,
and each game's table rules give them from the result the game reports (the plain rules'
result is the placing order itself, which may share first place: no table needs a single
winner any more). Results entered before are placed as they were scored then: the winner
first, whoever brought the game down last, the others by their game points, players level
sharing the better place."""

import django.db.models.deletion
from django.db import migrations, models


def place_earlier_results(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Seat = apps.get_model("tournament", "Seat")
    for table in Table.objects.exclude(status="open").exclude(winner=None).iterator():
        seats = list(Seat.objects.filter(table=table))
        others = [s for s in seats if s.pk not in (table.winner_id, table.brought_down_id)]
        for seat in seats:
            if seat.pk == table.winner_id:
                seat.place = 1
            elif seat.pk == table.brought_down_id:
                seat.place = len(seats)
            else:
                better = sum(1 for o in others if (o.points or 0) > (seat.points or 0))
                seat.place = 2 + better
        Seat.objects.bulk_update(seats, ["place"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0002_ludothecaire_runs_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="place",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="place"),
        ),
        migrations.RunPython(place_earlier_results, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("place__isnull", True),
                    models.Q(("place__gte", 1), ("place__lte", 4)),
                    _connector="OR",
                ),
                name="seat_place_1_to_4",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="table",
            name="table_result_has_a_winner",
        ),
        migrations.RemoveConstraint(
            model_name="table",
            name="table_winner_did_not_bring_the_villa_down",
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("brought_down__isnull", True),
                    models.Q(("brought_down", models.F("winner")), _negated=True),
                    _connector="OR",
                ),
                name="table_winner_did_not_end_it_by_a_fall",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="points",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="game points"
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="brought_down",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="+",
                to="tournament.seat",
                verbose_name="whose fall ended the game",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="first_position",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="seat that begins"),
        ),
    ]
