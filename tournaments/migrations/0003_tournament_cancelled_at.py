"""A cancelled tournament records when it was cancelled (issue 13.20); those cancelled before
kept that time in finished_at, which moves to cancelled_at."""
from django.db import migrations, models


def finished_at_to_cancelled_at(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(status="cancelled").update(cancelled_at=models.F("finished_at"), finished_at=None)


def cancelled_at_to_finished_at(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(status="cancelled").update(finished_at=models.F("cancelled_at"), cancelled_at=None)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0002_tournament_rated"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="cancelled_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(finished_at_to_cancelled_at, cancelled_at_to_finished_at),
    ]
