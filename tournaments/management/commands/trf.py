"""manage.py trf: FIDE tournament report files (TRF-16) for Swiss events.

    manage.py trf export TOURNAMENT_ID [--round N]   print the tournament's TRF (the decided
                                                     rounds, or those before round N)
    manage.py trf pair FILE.trf [--fallback]         print our next round for that history in the
                                                     output format of bbpPairings and JaVaFo: the
                                                     number of boards, then "white black" a board,
                                                     0 as the bye's opponent

So an organiser can check a round: export the history before it, pair it with a FIDE-endorsed
engine (e.g. ``bbpPairings.exe --dutch FILE.trf -p out.txt``) and diff with ``trf pair``.
"""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...formats import trf
from ...formats.swiss import swiss_pairing
from ...models import Tournament
from ...selectors import tournament_trf


class Command(BaseCommand):
    help = "Export a Swiss tournament as TRF-16, or pair the next round of a TRF-16 history."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        export = actions.add_parser("export", help="print a Swiss tournament's TRF-16")
        export.add_argument("tournament_id", type=int)
        export.add_argument("--round", type=int, help="export the rounds before this one")
        pair = actions.add_parser("pair", help="print our next round for a TRF-16 history")
        pair.add_argument("file", type=Path)
        pair.add_argument("--fallback", action="store_true",
                          help="where no legal Dutch pairing exists, print the format's fallback pairing")

    def handle(self, *args, **opts):
        if opts["action"] == "export":
            self.stdout.write(self._export(opts["tournament_id"], opts["round"]), ending="")
        else:
            self.stdout.write(self._pair(opts["file"], opts["fallback"]), ending="")

    def _export(self, tournament_id: int, before_round: int | None) -> str:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"no tournament {tournament_id}")
        try:
            return tournament_trf(tournament=tournament, before_round=before_round)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    def _pair(self, path: Path, fallback: bool) -> str:
        try:
            event = trf.parse(path.read_text())
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        if event.planned_rounds is None:
            raise CommandError("the file has no XXR line (the number of rounds), which the pairing needs")
        found = swiss_pairing(event.records(), rounds_planned=event.planned_rounds,
                              initial_colour=event.initial_colour, absent=event.absent,
                              accelerations=event.accelerations)
        if found.fallback and not fallback:
            raise CommandError("no pairing satisfies the absolute criteria C.1-C.3 (the FIDE engines stop "
                               "here too); --fallback prints the Swiss format's fallback pairing")
        boards = [f"{white} {black}" for white, black in found.pairs]
        if found.bye is not None:
            boards.append(f"{found.bye} 0")
        return "\n".join([str(len(boards))] + boards) + "\n"
