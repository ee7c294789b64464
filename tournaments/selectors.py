"""Reads of tournaments: the fold of match results into outcomes, standings and the bracket."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from replays.models import Match

from . import formats
from .models import Correction, Entry, Pairing, PairingGame, Rating, Round, Tournament


@dataclass
class Results:
    """A tournament's results so far, as the formats see them, plus what the service must do."""

    entries: list
    rounds: list
    outcomes: dict
    games_to_start: list = field(default_factory=list)  # (Pairing row, game number)
    games_running: bool = False
    disqualified: frozenset = frozenset()
    withdrawn: frozenset = frozenset()      # withdrawn or disqualified: gone from later rounds

    def decided_without_play(self, pairing) -> bool:
        """A pairing with a withdrawn or disqualified entry is decided by the correction, not played."""
        return bool(self.withdrawn & set(pairing.seats))


def _game_placings(game: PairingGame, spec: formats.Pairing) -> dict[int, int]:
    """entry id -> place in one finished game (an aborted game is a tie of all its seats)."""
    seats = spec.seats_for_game(game.number)
    if game.match.status == Match.Status.ABORTED:
        return {entry: 1 for entry in seats}
    return dict(zip(seats, game.match.result["placings"]))


def _disqualified_outcome(spec: formats.Pairing, disqualified: frozenset) -> formats.Outcome:
    """Withdrawn and disqualified entries share the last place; the others share the first. Not
    played: a forfeit (the Swiss records it as FIDE does, TRF-16 + and -)."""
    last = 1 + sum(1 for entry in spec.seats if entry not in disqualified) if \
        any(entry not in disqualified for entry in spec.seats) else 1
    return formats.Outcome(key=spec.key, placings={e: (last if e in disqualified else 1) for e in spec.seats},
                           forfeit=True)


def tournament_results(*, tournament: Tournament) -> Results:
    """Fold the tournament's matches and corrections into outcomes (a handful of queries, however
    many entries)."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("seed"))
    seeds = {e.pk: e.seed for e in entries}
    corrections = list(Correction.objects.filter(tournament=tournament))
    # The earliest disqualification (or withdrawal) of an entry counts: a later one (repeated by
    # mistake, or to add a reason) must not revive the results the first one voided.
    disqualified_at: dict = {}
    for c in corrections:
        if c.kind in (Correction.Kind.DISQUALIFY, Correction.Kind.WITHDRAW):
            disqualified_at[c.entry_id] = min(c.created_at, disqualified_at.get(c.entry_id, c.created_at))
    disqualified = frozenset(c.entry_id for c in corrections if c.kind == Correction.Kind.DISQUALIFY)
    gone = frozenset(disqualified_at)
    adjudicated = {c.pairing_id: c.placings for c in corrections if c.kind == Correction.Kind.ADJUDICATE}
    games: dict[int, list[PairingGame]] = {}
    for game in PairingGame.objects.filter(pairing__tournament=tournament).select_related("match") \
            .only("pairing_id", "number", "match__status", "match__result", "match__ended_at") \
            .order_by("number"):
        games.setdefault(game.pairing_id, []).append(game)
    results = Results(entries=[formats.Entry(id=e.pk, seed=e.seed, withdrawn=e.pk in gone) for e in entries],
                      rounds=[], outcomes={}, disqualified=disqualified, withdrawn=gone)
    by_round: dict[int, list[formats.Pairing]] = {}
    for row in Pairing.objects.filter(tournament=tournament).select_related("round").order_by("round__number", "id"):
        spec = formats.Pairing(key=row.key, round=row.round.number, seats=tuple(row.seats),
                               games=row.games, bye=row.bye)
        by_round.setdefault(row.round.number, []).append(spec)
        if row.bye:
            continue
        if row.pk in adjudicated:
            placings = {int(k): v for k, v in adjudicated[row.pk].items()}
            results.outcomes[spec.key] = formats.Outcome(key=spec.key, placings=placings)
            continue
        played = games.get(row.pk, [])
        dq_times = [disqualified_at[e] for e in spec.seats if e in disqualified_at]
        decided_before_dq = played and all(g.match.ended_at and g.match.ended_at < min(dq_times)
                                           for g in played) if dq_times else True
        if not decided_before_dq:
            # Decided by the disqualification: what was played after it does not count.
            results.outcomes[spec.key] = _disqualified_outcome(spec, gone)
            continue
        if any(g.match.status == Match.Status.RUNNING for g in played):
            results.games_running = True
            continue
        outcome = formats.series_outcome(spec, [_game_placings(g, spec) for g in played], seeds) \
            if played else None
        if outcome is None and dq_times:  # a series the disqualification cut short
            outcome = _disqualified_outcome(spec, gone)
        if outcome is not None:
            results.outcomes[spec.key] = outcome
        elif len(played) < row.games:
            results.games_to_start.append((row, len(played) + 1))
    results.rounds = [formats.Round(number=n, pairings=tuple(ps)) for n, ps in sorted(by_round.items())]
    return results


def tournament_standings(*, tournament: Tournament) -> list[dict]:
    """The standings as the format ranks them, with each entry's bot."""
    from .services import format_for

    results = tournament_results(tournament=tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("bot_version__bot")}
    rows = list(format_for(tournament).standings(results.entries, results.rounds, results.outcomes))
    # Disqualified entries rank below everyone else, whatever they scored; the others are
    # ranked again by position, so the best of them is 1 and the format's ties stay ties.
    kept = [s for s in rows if s.entry not in results.disqualified]
    out = [s for s in rows if s.entry in results.disqualified]
    reranked = []
    for position, s in enumerate(kept, start=1):
        tied = reranked and kept[position - 2].rank == s.rank
        reranked.append(dataclasses.replace(s, rank=reranked[-1].rank if tied else position))
    rows = reranked + [dataclasses.replace(s, rank=len(kept) + 1) for s in out]
    return [{"rank": s.rank, "entry": s.entry, "seed": entries[s.entry].seed,
             "bot": str(entries[s.entry].bot_version.bot.name), "version": entries[s.entry].bot_version.number,
             "points": s.points, "tiebreaks": dict(s.tiebreaks),
             "disqualified": s.entry in results.disqualified} for s in rows]


def tournament_bracket(*, tournament: Tournament) -> list[dict]:
    """Rounds with their pairings, each with its seats (entry id, seed, bot name: people know an
    entry by its seed), games (match ids) and outcome."""
    results = tournament_results(tournament=tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("bot_version__bot")}
    matches: dict[str, list[str]] = {}
    for game in PairingGame.objects.filter(pairing__tournament=tournament).select_related("pairing"):
        matches.setdefault(game.pairing.key, []).append(str(game.match_id))
    return [{"round": r.number, "pairings": [
        {"key": p.key, "seats": [{"entry": e, "seed": entries[e].seed, "bot": entries[e].bot_version.bot.name}
                                  for e in p.seats], "bye": p.bye,
         "games": p.games, "matches": matches.get(p.key, []),
         "placings": results.outcomes[p.key].placings if p.key in results.outcomes else None}
        for p in r.pairings]} for r in results.rounds]


def rating_fold(*, game: str, ratings: dict):
    """The fold every rating comes from: each ended, rated match of ``game`` played here
    (imported matches name another service's bots; a check match is unrated) in a stable order (end time, then match id), rated
    with openskill (Plackett-Luce, placings as ranks) into ``ratings`` ({bot id: rating}).
    Yields ``(match, bots, rated)`` per match: its seats' bot ids (None for a seat that is no bot
    version) and whether it was rated; a match with such a seat, or with one bot in several
    seats, is rated for nobody. ratings_recompute stores where it ends; a bot page draws it."""
    from openskill.models import PlackettLuce

    from bots.models import BotVersion

    model = PlackettLuce()
    version_bot = dict(BotVersion.objects.filter(bot__game=game).values_list("pk", "bot_id"))
    matches = Match.objects.filter(ruleset=game, status=Match.Status.ENDED, imported=False, rated=True) \
        .order_by("ended_at", "id").only("id", "seats", "result", "ended_at")
    for match in matches:
        bots = [version_bot.get(seat.get("bot_version")) for seat in match.seats]
        if None in bots or len(set(bots)) != len(bots):
            yield match, bots, False
            continue
        teams = [[ratings.get(bot) or model.rating(name=str(bot))] for bot in bots]
        for bot, team in zip(bots, model.rate(teams, ranks=match.result["placings"])):
            ratings[bot] = team[0]
        yield match, bots, True


def leaderboard(*, game: str) -> list[Rating]:
    return list(Rating.objects.filter(game=game).select_related("bot", "bot__owner").order_by("-ordinal", "bot_id"))


class NotSwiss(ValueError):
    """A tournament report file (TRF-16) describes a Swiss event; other formats have none."""


def tournament_trf(*, tournament: Tournament, before_round: int | None = None) -> str:
    """The Swiss tournament as a FIDE tournament report file (TRF-16): the rounds whose every
    pairing is decided (or the rounds before `before_round`), pairing numbers in seed order,
    seat 0 as white, so that any round can be checked with a FIDE-endorsed pairing engine.
    Raises NotSwiss for other formats and ValueError for a round not decided yet."""
    from .formats import trf
    from .services import format_for

    if tournament.format != "swiss":
        raise NotSwiss(f"a tournament report file describes a Swiss event; this one is {tournament.format}")
    results = tournament_results(tournament=tournament)
    decided = 0
    for round_ in results.rounds:
        if any(not p.bye and p.key not in results.outcomes for p in round_.pairings):
            break
        decided += 1
    if before_round is not None:
        if before_round < 1 or before_round - 1 > decided:
            raise ValueError(f"round {before_round} cannot be checked yet: {decided} round(s) are decided")
        decided = before_round - 1
    names = {e.pk: f"{e.bot_version.bot.name} v{e.bot_version.number}" for e in
             Entry.objects.filter(tournament=tournament).select_related("bot_version__bot")}
    fmt = format_for(tournament)
    planned = fmt.round_count(results.entries) if results.entries else None
    report = trf.from_swiss(results.entries, results.rounds[:decided], results.outcomes, planned, names,
                            tournament.name, absent_next=_absent_from_round(results, decided, planned),
                            accelerations=fmt.accelerations(results.entries) if results.entries else None)
    return trf.export(report)


def _absent_from_round(results: Results, index: int, planned: int | None) -> frozenset:
    """The entries left out of the round after the `index` exported ones (TRF-16 marks them
    `0000 - -` in its column, so that a FIDE engine pairs that round without them): those the
    round left out when it is paired already, else the withdrawn ones."""
    if index < len(results.rounds):
        seated = {entry for pairing in results.rounds[index].pairings for entry in pairing.seats}
        return frozenset(e.id for e in results.entries if e.id not in seated)
    if planned is not None and index >= planned:
        return frozenset()
    return frozenset(e.id for e in results.entries if e.withdrawn)
