"""FIDE Tournament Report File (TRF-16) for Swiss events: read and write (pure Python, no Django).

The subset the FIDE-endorsed pairing engines exchange (bbpPairings, JaVaFo): the `012` name line,
player lines `001` with the pairing number, name, rating, points, rank and one column of 10
characters a round (opponent, colour, result), `XXR` (rounds planned) and `XXC white1|black1`
(the colour of the first board in round 1). Results: 1 0 = (played), W D L (played, unrated),
+ - (forfeits: not played), U (the pairing-allocated bye), F H Z (full, half, zero-point byes),
blank (not played yet: no points). A `0000` opponent means no opponent; an empty column reads
as a zero-point bye (Z). Other lines are ignored.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .base import Entry, Outcome, Pairing, Round, pod_points, seed_ranks
from .dutch import BLACK, WHITE, RoundRecord, board_key, dutch_players

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


@dataclass
class TrfPlayer:
    number: int
    name: str = ""
    rating: int = 0
    games: list[TrfGame] = field(default_factory=list)

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

    @property
    def rounds_played(self) -> int:
        """Rounds with results. A last column that only some players have, holding nothing but
        byes other than U (H, Z, F), is the round to be paired: those players sit it out."""
        longest = max((len(p.games) for p in self.players), default=0)
        last = [p.games[-1] for p in self.players if longest and len(p.games) == longest]
        if last and len(last) < len(self.players) and all(
                g.opponent is None and g.result in ("H", "Z", "F") for g in last):
            return longest - 1
        return longest

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
                                            forfeit=game.opponent is not None))
            records[player.number] = rows
        return records

    def to_swiss(self, best_of: int = 1) -> tuple[list[Entry], list[Round], dict[str, Outcome], int | None]:
        """This event as the Swiss format's input: entries (id = seed = pairing number), rounds
        (boards in the order the format gives them, the bye last), outcomes, rounds planned.
        Raise ValueError for what the format cannot hold (forfeits, byes other than U)."""
        entries = [Entry(p.number, p.number) for p in self.players]
        rounds, outcomes = [], {}
        for index in range(self.rounds_played):
            players = {p.number: p for p in dutch_players(self.records(index))}
            rank = {p.number: i for i, p in enumerate(sorted(players.values(), key=lambda p: (-p.score, p.number)))}
            pairs, byes = [], []
            for player in self.players:
                game = player.games[index] if index < len(player.games) else None
                if game is None or game.result not in ("1", "0", "=", "U"):
                    raise ValueError(f"round {index + 1}, player {player.number}: only 1, 0, = and U "
                                     "results fit a Swiss event of this project")
                if game.result == "U":
                    byes.append(player.number)
                elif game.colour == "w":
                    pairs.append((player.number, game.opponent, game.result))
            pairs.sort(key=lambda pair: board_key(players[pair[0]], players[pair[1]], rank))
            number = index + 1
            pairings = []
            for board, (white, black, result) in enumerate(pairs, start=1):
                key = f"R{number}-{board}"
                pairings.append(Pairing(key, number, (white, black), best_of))
                outcomes[key] = Outcome(key, {white: 1, black: 1} if result == "=" else
                                        {white: 1, black: 2} if result == "1" else {white: 2, black: 1})
            pairings += [Pairing(f"R{number}-{len(pairings) + k}", number, (bye,), bye=True)
                         for k, bye in enumerate(byes, start=1)]
            rounds.append(Round(number, tuple(pairings)))
        return entries, rounds, outcomes, self.planned_rounds


def from_swiss(entries, rounds, outcomes, planned_rounds: int | None = None, names: dict[int, str] | None = None,
               name: str = "") -> TrfTournament:
    """A Swiss event of the format (every pairing decided) as TRF: pairing number = seed order,
    seat 0 = white, a series is one game, a bye is U."""
    number = seed_ranks(entries)
    players = {n: TrfPlayer(n, (names or {}).get(entry, f"Entry {entry}")) for entry, n in number.items()}
    for round_ in rounds:
        for pairing in round_.pairings:
            if pairing.bye:
                players[number[pairing.seats[0]]].games.append(TrfGame(None, "-", "U"))
                continue
            points = pod_points(outcomes[pairing.key].placings)
            white, black = pairing.seats
            for entry, opponent, colour in ((white, black, "w"), (black, white, "b")):
                result = {1.0: "1", 0.5: "=", 0.0: "0"}[points[entry]]
                players[number[entry]].games.append(TrfGame(number[opponent], colour, result))
    return TrfTournament(sorted(players.values(), key=lambda p: p.number), planned_rounds, WHITE, name)


def parse(text: str) -> TrfTournament:
    """Read a TRF-16 file (the subset above); raise ValueError naming the line when it is bad."""
    players, planned, initial, name = [], None, WHITE, ""
    for line_number, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        try:
            if code == "001":
                players.append(_player(line))
            elif code == "012":
                name = line[4:].strip()
            elif code == "XXR":
                planned = int(line[3:].split()[0])
            elif code == "XXC":
                words = line[3:].split()
                if "black1" in words:
                    initial = BLACK
        except (ValueError, IndexError) as exc:
            raise ValueError(f"TRF line {line_number}: {exc}") from None
    numbers = [p.number for p in players]
    if len(set(numbers)) != len(numbers):
        raise ValueError("TRF: a pairing number appears twice")
    return TrfTournament(sorted(players, key=lambda p: p.number), planned, initial, name)


def _column(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1:span[1]].strip()


def _player(line: str) -> TrfPlayer:
    """One `001` line."""
    player = TrfPlayer(int(_column(line, NUMBER)), _column(line, NAME),
                       int(_column(line, RATING) or 0))
    for start in range(FIRST_ROUND - 1, len(line.rstrip()), ROUND_WIDTH):
        cell = line[start:start + 8].ljust(8)
        if not cell.strip():
            player.games.append(TrfGame(None, "-", "Z"))
            continue
        opponent, colour, result = cell[:4].strip(), cell[5].strip() or "-", cell[7].upper()
        if result not in PLAYED and result not in UNPLAYED or colour not in "wb-":
            raise ValueError(f"unknown result or colour in {cell!r}")
        number = int(opponent) if opponent else 0
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
    lines.append("XXC white1" if tournament.initial_colour == WHITE else "XXC black1")
    return "\n".join(lines) + "\n"
