"""Ratings count the matches a bot played against itself (``self_play``): they are not rated.
The rows already stored get their count from the matches as ``ratings_recompute`` reads them."""
from django.db import migrations, models


def count_self_play(apps, schema_editor):
    Rating = apps.get_model("tournaments", "Rating")
    Match = apps.get_model("replays", "Match")
    BotVersion = apps.get_model("bots", "BotVersion")
    version_bot = dict(BotVersion.objects.values_list("pk", "bot_id"))
    counts: dict[tuple[str, int], int] = {}
    for ruleset, seats in Match.objects.filter(status="ended", imported=False).values_list("ruleset", "seats"):
        bots = [version_bot.get(seat.get("bot_version")) for seat in seats if isinstance(seat, dict)]
        if len(bots) != len(seats) or None in bots:
            continue
        for bot in {b for b in bots if bots.count(b) > 1}:
            counts[ruleset, bot] = counts.get((ruleset, bot), 0) + 1
    for (game, bot), count in counts.items():
        Rating.objects.filter(game=game, bot_id=bot).update(self_play=count)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_tournament_cancelled_at"),
        ("replays", "0006_signing_keys"),
        ("bots", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="self_play",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_self_play, migrations.RunPython.noop),
    ]
