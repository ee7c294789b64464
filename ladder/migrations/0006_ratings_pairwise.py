"""The ladder's rating model changed (ladder/ratings.py: openskill's Bradley-Terry over all pairs,
beta by seat count, in place of Plackett-Luce): every stored ladder's ratings are folded again
from its history, as ``ladder_ratings_recompute`` does, so that what is stored is what the new
model gives. Going back folds them again with whatever model the code then has."""
from django.db import migrations


def refold(apps, schema_editor):
    from ladder.ratings import conservative, rate_match, rating_model

    Ladder = apps.get_model("ladder", "Ladder")
    LadderMatch = apps.get_model("ladder", "LadderMatch")
    LadderRating = apps.get_model("ladder", "LadderRating")
    model = rating_model()
    for ladder in Ladder.objects.all():
        LadderRating.objects.filter(ladder=ladder).delete()
        done = (LadderMatch.objects.filter(ladder=ladder).exclude(match__status="running")
                .select_related("match").order_by("match__ended_at", "match_id"))
        rows = {}
        for ladder_match in done:
            match = ladder_match.match
            versions = [seat.get("bot_version") for seat in match.seats]
            if match.status != "ended" or len(set(versions)) != len(versions):
                continue  # an aborted match, or one version in two seats, rates nobody
            seated = []
            for version in versions:
                if version not in rows:
                    fresh = model.rating()
                    rows[version] = LadderRating(ladder=ladder, version_id=version, mu=fresh.mu,
                                                 sigma=fresh.sigma, conservative=conservative((fresh.mu, fresh.sigma)),
                                                 games=0)
                seated.append(rows[version])
            rated = rate_match(model, [(row.mu, row.sigma) for row in seated], match.result["placings"])
            for row, (mu, sigma) in zip(seated, rated):
                row.mu, row.sigma, row.conservative, row.games = mu, sigma, conservative((mu, sigma)), row.games + 1
        LadderRating.objects.bulk_create(rows.values())
        done.update(applied=True)


class Migration(migrations.Migration):

    dependencies = [
        ("ladder", "0005_remote_bots"),
    ]

    operations = [
        migrations.RunPython(refold, refold),
    ]
