"""manage.py showcase (issue 39, item 7): the demo plays one short match of each of the five
games between built-in bots, validates each, and prints where to watch each on the site."""
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import registry
from replays.models import Match, Validation


def test_showcase_plays_validates_and_links_a_match_of_every_game(db, eager_tasks,
                                                                  django_capture_on_commit_callbacks):
    out = StringIO()
    call_command("builtinbots", stdout=StringIO())
    with django_capture_on_commit_callbacks(execute=True):  # each match's validation, queued on commit
        call_command("showcase", stdout=out)
    text = out.getvalue()
    assert len(registry.names()) == 5
    linked = dict(re.findall(r"^  (\S+)\s+http://127\.0\.0\.1:8000/matches/([0-9a-f-]{36})/", text, re.M))
    assert set(linked) == set(registry.names()), text
    for game, match_id in linked.items():
        match = Match.objects.get(pk=match_id)
        assert match.ruleset == game and match.status == "ended"
        assert Validation.objects.filter(match=match, ok=True).exists(), game
        assert re.search(rf"^{game}\s.*: \d+ events, first: seat \d", text, re.M), text


@pytest.mark.django_db
def test_showcase_refuses_an_unknown_game_with_the_known_ones():
    with pytest.raises(CommandError, match="unknown game.*chess.*known: .*sorcado"):
        call_command("showcase", games="chess,sorcado")
    assert not Match.objects.exists()
