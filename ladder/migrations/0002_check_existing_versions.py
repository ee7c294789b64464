"""Versions uploaded before check matches existed get a pending check: the sweep
(ladder.sweep_version_checks) plays their check matches as workers are free."""
from django.db import migrations


def pending_checks(apps, schema_editor):
    BotVersion = apps.get_model("bots", "BotVersion")
    VersionCheck = apps.get_model("ladder", "VersionCheck")
    unchecked = BotVersion.objects.filter(bot__kind="uploaded", version_check__isnull=True)
    VersionCheck.objects.bulk_create(VersionCheck(version_id=pk) for pk in unchecked.values_list("pk", flat=True))


class Migration(migrations.Migration):
    dependencies = [("ladder", "0001_initial")]
    operations = [migrations.RunPython(pending_checks, migrations.RunPython.noop)]
