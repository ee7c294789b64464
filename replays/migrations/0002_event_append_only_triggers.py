"""The database refuses UPDATE and DELETE on events, whatever code (or person) tries it.

TRUNCATE stays possible on PostgreSQL for the test runner's flush; it is a table-level operation
no application path issues.
"""
from django.db import migrations

from replays.migrations._append_only import POSTGRES_DOWN, POSTGRES_UP, SQLITE_DOWN, SQLITE_UP


def statements(vendor: str, up: bool) -> list[str]:
    if vendor == "postgresql":
        return [POSTGRES_UP if up else POSTGRES_DOWN]
    if vendor == "sqlite":
        return SQLITE_UP if up else SQLITE_DOWN
    raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")


def forwards(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, up=True):
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, up=False):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("replays", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
