"""The database refuses UPDATE and DELETE on events, whatever code (or person) tries it.

TRUNCATE stays possible on PostgreSQL for the test runner's flush; it is a table-level operation
no application path issues.
"""
from django.db import migrations

from replays.migrations._append_only import (POSTGRES_DOWN, POSTGRES_UP, SQLITE_DOWN, SQLITE_UP,
                                             trigger_migration)


class Migration(migrations.Migration):
    dependencies = [("replays", "0001_initial")]
    operations = [trigger_migration(postgres=(POSTGRES_UP, POSTGRES_DOWN), sqlite=(SQLITE_UP, SQLITE_DOWN))]
