from django.db import migrations, models
from django.db.models import F


def queued_at_created(apps, schema_editor):
    """A running match that no driver holds was queued when it was made, as far as anyone can
    tell now: from its creation it waits MATCH_QUEUE_WAIT_SECONDS, then the sweep queues it
    again (bots.driver.lost_matches_take), where before it would have waited for ever."""
    Match = apps.get_model("replays", "Match")
    Match.objects.filter(status="running", driver_lease_until__isnull=True).update(
        queued_at=F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('replays', '0006_signing_keys'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='queued_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(queued_at_created, migrations.RunPython.noop),
    ]
