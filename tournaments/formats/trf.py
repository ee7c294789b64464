"""FIDE Tournament Report File (TRF-16) for Swiss events: read and write (pure Python, no Django).

What the FIDE-endorsed pairing engines exchange, read as the reference engine (bbpPairings v6)
reads it: the `012` name line, player lines `001` with the pairing number, name, rating, points,
rank and one column of 10 characters a round (opponent, colour, result), `XXR`/`142` (rounds
planned), `XXC white1|black1`/`152 W|B` (the colour of the first board in round 1), `192` (the
Dutch system) and `162`/`BB?` (only this service's point system). Results: 1 0 = (played), W D L
(played, unrated), + - (forfeits: paired, not played), U (the pairing-allocated bye), F H Z -
and blank with opponent 0000 (absences: a point, half, none). Every other code the engine reads
(accelerations, forbidden pairs, 240 byes, team events, `XXC rank`) is refused with the line and
the reason; codes the engine ignores are ignored.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Entry, Outcome, Pairing, Round, pod_points, seed_ranks
from .dutch import BLACK, WHITE, RoundRecord, baku_accelerations, board_key, dutch_players

# TRF-16 columns (1-based, inclusive) of a player line
NUMBER, NAME, RATING, POINTS, RANK, FIRST_ROUND, ROUND_WIDTH = (5, 8), (15, 47), (49, 52), (81, 84), (86, 89), 92, 10
PLAYED = {"1": 2, "0": 0, "=": 1, "W": 2, "D": 1, "L": 0}
UNPLAYED = {"+": 2, "-": 0, "U": 2, "F": 2, "H": 1, "Z": 0, " ": 0}


@dataclass(frozen=True)
class TrfGame:
    """One round of one player: opponent number (None for 0000), colour w/b/-, result code."""

    opponent: int | None
    colour: str
    result: str

    @property
    def half_points(self) -> int:
        return PLAYED.get(self.result, UNPLAYED.get(self.result, 0))

    @property
    def played(self) -> bool:
        return self.result in PLAYED and self.opponent is not None

    @property
    def participated(self) -> bool:
        """Paired in that round (bbpPairings' reading of TRF-16): a game, a forfeit, or the
        pairing-allocated bye; an absence (0000 with - Z H F or blank) was not paired."""
        return self.opponent is not None or self.result in ("U", "+")


@dataclass
class TrfPlayer:
    number: int
    name: str = ""
    rating: int = 0
    games: list[TrfGame] = field(default_factory=list)
    points: int | None = field(default=None, compare=False)    # the points column, in half-points

    @property
    def half_points(self) -> int:
        return sum(game.half_points for game in self.games)


@dataclass
class TrfTournament:
    """A Swiss event as TRF-16 describes it."""

    players: list[TrfPlayer]
    planned_rounds: int | None = None
    initial_colour: int = WHITE
    name: str = ""
    # XXA: pairing number -> virtual half-points a round, from round 1 (an accelerated pairing)
    accelerations: dict[int, list[int]] = field(default_factory=dict)

    @property
    def rounds_played(self) -> int:
        """Rounds paired so far: up to the last round in which anybody was paired (a game, a
        forfeit, the U bye). A column after it holds absences announced for the round to be
        paired (0000 with - Z H F): those players sit it out (see `absent`)."""
        return max((index + 1 for p in self.players for index, game in enumerate(p.games) if game.participated),
                   default=0)

    @property
    def absent(self) -> frozenset[int]:
        """The players given a bye in advance for the round to be paired (see `rounds_played`)."""
        played = self.rounds_played
        return frozenset(p.number for p in self.players if len(p.games) > played)

    def records(self, rounds: int | None = None) -> dict[int, list[RoundRecord]]:
        """The pairing input after `rounds` rounds (default all): each player's rounds as the
        Dutch engine reads them; a round missing at the end of a line is a zero-point bye."""
        rounds = self.rounds_played if rounds is None else rounds
        records = {}
        for player in self.players:
            rows = []
            for game in (player.games + [TrfGame(None, "-", "Z")] * rounds)[:rounds]:
                colour = WHITE if game.colour == "w" else BLACK if game.colour == "b" else 0
                if game.played:
                    rows.append(RoundRecord(game.half_points, game.opponent, colour))
                else:
                    rows.append(RoundRecord(game.half_points, pairing_bye=game.result == "U",
                                            forfeit=game.participated and game.result != "U"))
            records[player.number] = rows
        return records

    def to_swiss(self, best_of: int = 1) -> tuple[list[Entry], list[Round], dict[str, Outcome], int | None]:
        """This event as the Swiss format's input: entries (id = seed = pairing number; those
        absent from the round to be paired withdrawn), rounds (boards in the order the format
        gives them, forfeits after the games, the bye last), outcomes, rounds planned. A round
        without a game (0000 - -, Z, blank) is no pairing: an absence. Raise ValueError for what
        the format cannot hold (the H and F byes, a forfeit without an opponent)."""
        absent = self.absent
        entries = [Entry(p.number, p.number, withdrawn=p.number in absent) for p in self.players]
        rounds, outcomes = [], {}
        for index in range(self.rounds_played):
            players = {p.number: p for p in dutch_players(self.records(index))}
            rank = {p.number: i for i, p in enumerate(sorted(players.values(), key=lambda p: (-p.score, p.number)))}
            pairs, forfeits, byes = [], [], []
            for player in self.players:
                game = player.games[index] if index < len(player.games) else TrfGame(None, "-", "Z")
                if game.result in ("H", "F") or (game.result in ("+", "=") and game.opponent is None):
                    raise ValueError(f"round {index + 1}, player {player.number}: a {game.result} without an "
                                     "opponent does not fit a Swiss event of this project")
                if game.result == "U":
                    byes.append(player.number)
                elif game.opponent is None:
                    continue                                    # absent: not paired
                elif game.colour == "w" or (game.colour == "-" and player.number < game.opponent):
                    (pairs if game.played else forfeits).append((player.number, game.opponent, game.result))
            pairs.sort(key=lambda pair: board_key(players[pair[0]], players[pair[1]], rank))
            number = index + 1
            pairings = []
            for board, (white, black, result) in enumerate(pairs + forfeits, start=1):
                key = f"R{number}-{board}"
                pairings.append(Pairing(key, number, (white, black), best_of))
                places = {white: 1, black: 1} if result in "=" else \
                    {white: 1, black: 2} if result in ("1", "W", "+") else {white: 2, black: 1}
                outcomes[key] = Outcome(key, places, forfeit=result in "+-")
            pairings += [Pairing(f"R{number}-{len(pairings) + k}", number, (bye,), bye=True)
                         for k, bye in enumerate(byes, start=1)]
            rounds.append(Round(number, tuple(pairings)))
        return entries, rounds, outcomes, self.planned_rounds


def from_swiss(entries, rounds, outcomes, planned_rounds: int | None = None, names: dict[int, str] | None = None,
               name: str = "", absent_next: frozenset[int] = frozenset(),
               accelerations: dict[int, list[int]] | None = None) -> TrfTournament:
    """A Swiss event of the format (every pairing decided) as TRF-16: pairing number = seed
    order, seat 0 = white, a series is one game, a bye is U, a pairing decided without play a
    forfeit (+ for the side given the points, - for the other), a round an entry was not paired
    in an absence `0000 - -`. The entries in `absent_next` (withdrawn before the next round)
    get `0000 - -` in the next round's column: the mark by which a FIDE engine leaves a player
    out of the round it pairs."""
    number = seed_ranks(entries)
    players = {n: TrfPlayer(n, (names or {}).get(entry, f"Entry {entry}")) for entry, n in number.items()}
    absence = TrfGame(None, "-", "-")
    for index, round_ in enumerate(rounds):
        for pairing in round_.pairings:
            if pairing.bye:
                players[number[pairing.seats[0]]].games.append(TrfGame(None, "-", "U"))
                continue
            outcome = outcomes[pairing.key]
            points = pod_points(outcome.placings)
            white, black = pairing.seats
            for entry, opponent, colour in ((white, black, "w"), (black, white, "b")):
                result = ("+" if points[entry] > 0.5 else "-") if outcome.forfeit else \
                    {1.0: "1", 0.5: "=", 0.0: "0"}[points[entry]]
                players[number[entry]].games.append(TrfGame(number[opponent], colour, result))
        for player in players.values():
            if len(player.games) == index:
                player.games.append(absence)
    for entry in absent_next:
        players[number[entry]].games.append(absence)
    return TrfTournament(sorted(players.values(), key=lambda p: p.number), planned_rounds, WHITE, name,
                         dict(accelerations or {}))


# Codes the reference engine (bbpPairings) reads and this service does not implement: refused
# with the reason rather than paired as if they were absent.
REFUSED = {
    "013": "team tournaments are not supported",
    "310": "team tournaments are not supported",
    "240": "byes announced in a 240 line are not supported; write them in the player's column "
           "(0000 - H, 0000 - Z or 0000 - F for the round to be paired)",
    "250": "accelerations in 250 lines are not supported; write them as XXA lines",
    "260": "forbidden pairs (260 lines) are not supported",
    "XXP": "forbidden pairs (XXP lines) are not supported",
    "299": "abnormal assignment points (299 lines) are not supported",
}
# The point system of this service: win 1, draw 0.5, loss 0, forfeit loss and zero-point bye 0,
# the pairing-allocated bye 1 (a 162 line, or BBW BBD BBL BBZ BBF BBU lines, may only repeat it).
POINT_SYSTEM = {"W": 1.0, "D": 0.5, "L": 0.0, "Z": 0.0, "F": 0.0, "U": 1.0, "P": 1.0}
DUTCH_TYPES = {"FIDE_DUTCH_2025", "FIDE_DUTCH"}
BAKU_TYPES = {"FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU"}


def parse(text: str) -> TrfTournament:
    """Read a TRF-16 file: every line code the reference engine (bbpPairings v6) reads is either
    read here or refused with the line and the reason (ValueError), never passed over."""
    players, planned, initial, name, accelerations, baku = [], None, WHITE, "", {}, False
    for line_number, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        try:
            if code == "001":
                players.append(_player(line))
            elif code == "012":
                name = line[4:].strip()
            elif code in ("XXR", "142"):
                planned = int(line[3:].split()[0])
                if planned < 1:
                    raise ValueError("the number of rounds must be at least 1")
            elif code == "XXC":
                words = line[3:].split()
                if "rank" in words:
                    raise ValueError("pairing by rank order (XXC rank) is not supported: pairing numbers "
                                     "must be the initial order")
                if "black1" in words:
                    initial = BLACK
                elif "white1" in words:
                    initial = WHITE
            elif code == "152":
                initial = _initial_colour(line)
            elif code in REFUSED:
                raise ValueError(REFUSED[code])
            elif code == "XXA":
                number, virtual = _acceleration(line)
                accelerations[number] = virtual
            elif code == "192":
                kind = line[4:].strip()
                if kind not in DUTCH_TYPES | BAKU_TYPES:
                    raise ValueError(f"tournament type {kind!r} is not paired here (only "
                                     f"{', '.join(sorted(DUTCH_TYPES | BAKU_TYPES))})")
                baku = kind in BAKU_TYPES
            elif code == "162":
                _check_point_system(re.findall(r"([A-Z])\s*(\d+(?:\.\d*)?)", line[4:]))
            elif code in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
                _check_point_system([(code[2], line[3:].strip())])
        except (ValueError, IndexError) as exc:
            raise ValueError(f"TRF line {line_number}: {exc}; the line: {line.rstrip()[:100]!r}") from None
    numbers = [p.number for p in players]
    if len(set(numbers)) != len(numbers):
        raise ValueError("TRF: a pairing number appears twice")
    event = TrfTournament(sorted(players, key=lambda p: p.number), planned, initial, name, accelerations)
    if baku and not accelerations:      # explicit XXA lines win over the type, as in the engine
        if planned is None:
            raise ValueError("TRF: the Baku acceleration (192 ..._BAKU) needs the number of rounds (XXR)")
        event.accelerations = baku_accelerations(len(players), planned)
    _check_consistency(event)
    return event


def _acceleration(line: str) -> tuple[int, list[int]]:
    """An XXA line: the pairing number (columns 5-8), then the virtual points of each round from
    round 1, 5 columns each (a blank one is 0); in half-points."""
    number = int(line[4:8])
    virtual = []
    for start in range(9, len(line.rstrip()), 5):
        cell = line[start:start + 4].strip()
        points = float(cell) if cell else 0.0
        if points < 0 or points * 2 != int(points * 2):
            raise ValueError(f"virtual points must be whole or half points, got {cell!r}")
        virtual.append(int(points * 2))
    return number, virtual


def _initial_colour(line: str) -> int:
    """A 152 line: W or B, the colour of the first board in round 1."""
    if line.rstrip() not in (line[:3] + " W", line[:3] + " B"):
        raise ValueError("expected W or B")
    return WHITE if line[4] == "W" else BLACK


def _check_point_system(points: list[tuple[str, str]]) -> None:
    """Only the service's own point system (see POINT_SYSTEM) is accepted."""
    if not points:
        raise ValueError("no points given")
    for code, value in points:
        value = float(value)
        if code not in POINT_SYSTEM:
            raise ValueError(f"unknown point code {code!r}")
        if value != POINT_SYSTEM[code]:
            raise ValueError(f"only win 1, draw 0.5, loss 0 is supported ({code} is {value} here)")


def _check_consistency(event: TrfTournament) -> None:
    """What the reference engine checks across lines: each game is listed by both players with
    opposite colours, nobody has an entry beyond the round to be paired, and the points column
    (when given) adds up."""
    by_number = {p.number: p for p in event.players}
    played = event.rounds_played
    for number, virtual in event.accelerations.items():
        if number not in by_number:
            raise ValueError(f"TRF: an XXA line names player {number}, who has no 001 line")
        if event.planned_rounds is not None and len(virtual) > event.planned_rounds:
            raise ValueError(f"TRF: player {number} has more accelerated rounds than the {event.planned_rounds} planned")
    for player in event.players:
        if len(player.games) > played + 1:
            raise ValueError(f"TRF: player {player.number} has results for round {len(player.games)}, "
                             f"after round {played + 1}, the round to be paired")
        for index, game in enumerate(player.games):
            if game.opponent is None:
                continue
            other = by_number.get(game.opponent)
            theirs = other.games[index] if other and index < len(other.games) else None
            if theirs is None or theirs.opponent != player.number or (
                    game.played and (not theirs.played or theirs.colour == game.colour)):
                raise ValueError(f"TRF: round {index + 1} of player {player.number} contradicts the entry "
                                 f"of player {game.opponent}")
        if player.points is not None:
            counted = sum(g.half_points for g in player.games[:played])
            ahead = sum(g.half_points for g in player.games[played:])
            virtual = event.accelerations.get(player.number, [])
            virtual = virtual[played] if played < len(virtual) else 0
            if player.points not in (counted, counted + ahead, counted + virtual, counted + ahead + virtual):
                raise ValueError(f"TRF: the points of player {player.number} ({player.points / 2:.1f}) do not "
                                 f"match the results ({counted / 2:.1f})")


def _column(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1:span[1]].strip()


def _player(line: str) -> TrfPlayer:
    """One `001` line; each round's cell as the reference engine accepts it (results 1 0 = W D L
    with a colour and an opponent, + - with an opponent or none, U F H Z and blank without one,
    = without one as a half point)."""
    player = TrfPlayer(int(_column(line, NUMBER)), _column(line, NAME),
                       int(_column(line, RATING) or 0))
    points = _column(line, POINTS)
    player.points = round(2 * float(points)) if points else None
    if line.rstrip()[FIRST_ROUND - 3:FIRST_ROUND - 1].strip():
        raise ValueError("the round columns start at column 92")
    for start in range(FIRST_ROUND - 1, len(line.rstrip()), ROUND_WIDTH):
        cell = line[start:start + 8].ljust(8)
        if line[start + 8:start + 10].strip():
            raise ValueError(f"round cells are 10 columns apart ({line[start:start + 10]!r})")
        if not cell.strip():
            player.games.append(TrfGame(None, "-", "Z"))
            continue
        opponent, colour, result = cell[:4].strip(), cell[5].strip() or "-", cell[7].upper()
        if result not in PLAYED and result not in UNPLAYED or colour not in "wb-":
            raise ValueError(f"unknown result or colour in {cell!r}")
        number = int(opponent) if opponent else 0
        if number == player.number:
            raise ValueError(f"player {number} is its own opponent in {cell!r}")
        if result in "UFHZ " and number:
            raise ValueError(f"a bye ({result}) has no opponent: {cell!r}")
        if result in PLAYED and (colour == "-" or not number) and not (result == "=" and not number):
            raise ValueError(f"a played game ({result}) needs an opponent and a colour: {cell!r}")
        if not number and colour != "-":
            raise ValueError(f"no opponent, so no colour: {cell!r}")
        player.games.append(TrfGame(number or None, colour, result))
    return player


def export(tournament: TrfTournament) -> str:
    """Write TRF-16: the name line, one line a player (rank: by points, then pairing number, the
    order of A.2), XXR, XXC."""
    points = {p.number: p.half_points for p in tournament.players}
    ranked = sorted(tournament.players, key=lambda p: (-points[p.number], p.number))
    rank = {p.number: position for position, p in enumerate(ranked, start=1)}
    lines = [f"012 {tournament.name}".rstrip()]
    for player in tournament.players:
        line = (f"001 {player.number:>4} {'':<4} {player.name[:33]:<33} {player.rating or '':>4} "
                f"{'':<3} {'':>11} {'':<10} {points[player.number] / 2:>4.1f} {rank[player.number]:>4}")
        line = line.ljust(FIRST_ROUND - 3)
        for game in player.games:
            opponent = f"{game.opponent:>4}" if game.opponent else "0000"
            line += f"  {opponent} {game.colour} {game.result}"
        lines.append(line.rstrip())
    if tournament.planned_rounds is not None:
        lines.append(f"XXR {tournament.planned_rounds}")
    for number, virtual in sorted(tournament.accelerations.items()):
        lines.append(f"XXA {number:>4} " + " ".join(f"{half / 2:4.1f}" for half in virtual))
    lines.append("XXC white1" if tournament.initial_colour == WHITE else "XXC black1")
    return "\n".join(lines) + "\n"
