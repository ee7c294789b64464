"""Two indexes fewer on the event table, each one write less per append (issue 16): the match
foreign key's own index (the unique (match, seq) index serves every lookup by match) and the
pattern-matching index PostgreSQL adds for a unique CharField (hash stays unique, by a
constraint).

On SQLite, altering a column rebuilds the table, and the rebuild drops the append-only triggers
of migration 0002: they are created again after it, in both directions.
"""
import django.db.models.deletion
from django.db import migrations, models

from replays.migrations import _append_only


def sqlite_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in _append_only.SQLITE_DOWN + _append_only.SQLITE_UP:
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('replays', '0004_match_imported'),
    ]

    operations = [
        # Reversed last: the triggers come back after the backward rebuild too.
        migrations.RunPython(migrations.RunPython.noop, sqlite_triggers_again),
        migrations.AlterField(
            model_name='event',
            name='hash',
            field=models.CharField(max_length=64),
        ),
        migrations.AlterField(
            model_name='event',
            name='match',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='events', to='replays.match'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(fields=('hash',), name='event_hash_unique'),
        ),
        migrations.RunPython(sqlite_triggers_again, migrations.RunPython.noop),
    ]
