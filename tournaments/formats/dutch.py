"""The FIDE (Dutch) Swiss system, Handbook C.04.3 as revised in 2025, for one round's pairing.

Pure Python, no Django. Input: every player's pairing number and what it did in each round so far
(`RoundRecord`); output: the pairs (white first) and the bye (`dutch_pairing`), or
`NoDutchPairing` when the absolute criteria C.1-C.3 leave no complete pairing.

Here: the players as the rules see them (A.2-A.7: score, colour difference and preferences,
floats, who may have the bye) and the colour allocation (E.1-E.5). The pairing itself, bracket
by bracket (B and C), is in `dutch_brackets`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .dutch_brackets import NoDutchPairing, RoundField

WHITE, BLACK = 1, -1

__all__ = ["WHITE", "BLACK", "NoDutchPairing", "RoundRecord", "DutchPlayer", "dutch_players", "baku_accelerations",
           "DutchPairing",
           "dutch_pairing", "allocate_colours", "board_key"]


@dataclass(frozen=True)
class RoundRecord:
    """What one player did in one round: a game (opponent, colour, points) or no game."""

    points: int = 0                 # half-points scored in the round
    opponent: int | None = None     # opponent's pairing number when a game was played
    colour: int = 0                 # WHITE or BLACK when a game was played
    pairing_bye: bool = False       # the pairing-allocated bye (C.2)
    forfeit: bool = False           # paired, but the game was not played

    @property
    def played(self) -> bool:
        return self.opponent is not None


@dataclass
class DutchPlayer:
    """A player as the rules see it before the round (A.2-A.6); built by `dutch_players`."""

    number: int                     # pairing number (A.2.b)
    score: int                      # half-points
    opponents: frozenset[int]
    colours: tuple[int, ...]        # colours of the games played, oldest first
    bye_eligible: bool              # C.2
    floats: tuple[int, int]         # float of the last round and the one before: -1 down, 1 up, 0
    unplayed: int = 0               # rounds without a game (C.9)
    colour_number: int = 0          # E.5: the pairing number among the players in the event
    # colour preference (A.6), derived in __post_init__
    difference: int = field(init=False)
    preference: int = field(init=False)
    repeated: int = field(init=False)   # the colour of the last two games when they were the same
    absolute: bool = field(init=False)
    strong: bool = field(init=False)

    def __post_init__(self):
        """A.6: colour difference; absolute, strong and mild colour preferences."""
        colours = self.colours
        self.difference = sum(colours)
        run = 0
        for colour in reversed(colours):
            if colour != colours[-1]:
                break
            run += 1
        last = colours[-1] if colours else 0
        if abs(self.difference) > 1:
            self.preference = -1 if self.difference > 0 else 1
        elif run > 1:
            self.preference = -last
        elif self.difference:
            self.preference = -1 if self.difference > 0 else 1
        else:
            self.preference = -last
        self.repeated = last if run > 1 else 0
        self.absolute = abs(self.difference) > 1 or self.repeated != 0
        self.strong = not self.absolute and self.difference != 0


def dutch_players(records: dict[int, list[RoundRecord]], absent: frozenset[int] = frozenset(),
                  accelerations: dict[int, list[int]] | None = None) -> list[DutchPlayer]:
    """Fold each player's rounds (pairing number -> one record a round) into a `DutchPlayer`,
    for everyone but the `absent` (who sit the round out). E.5 counts pairing numbers among
    the players taking part: those paired now or in an earlier round.

    `accelerations` (pairing number -> virtual half-points for each round, from round 1): in an
    accelerated round a player is paired on its score plus that round's virtual points (C.04.5.1,
    the Baku acceleration; C.04.3 pairs on this pairing score, floats included: the scores
    before an earlier round count that round's virtual points, as the reference engine does)."""
    rounds = max((len(r) for r in records.values()), default=0)
    before = {number: [0] for number in records}    # score before each round, and after the last
    for number, rows in records.items():
        for row in rows:
            before[number].append(before[number][-1] + row.points)
    virtual = accelerations or {}
    for number, scores in before.items():
        extra = virtual.get(number, ())
        for index in range(min(len(scores), len(extra))):
            scores[index] += extra[index]
    taking_part = sorted(n for n, rows in records.items()
                         if n not in absent or any(r.played or r.pairing_bye or r.forfeit for r in rows))
    colour_number = {n: k for k, n in enumerate(taking_part, start=1)}
    players = []
    for number, rows in records.items():
        if number in absent:
            continue
        floats = tuple(_float(number, rows, before, rounds - back) for back in (1, 2))
        extra = virtual.get(number, ())
        score = before[number][-1] - (extra[len(rows)] if len(rows) < len(extra) else 0) \
            + (extra[rounds] if rounds < len(extra) else 0)         # the virtual points of this round
        players.append(DutchPlayer(
            number=number, score=score,
            opponents=frozenset(r.opponent for r in rows if r.played),
            colours=tuple(r.colour for r in rows if r.played),
            bye_eligible=not any(r.pairing_bye or (not r.played and r.points >= 2) for r in rows),
            floats=floats, unplayed=sum(1 for r in rows if not r.played), colour_number=colour_number[number]))
    return players


def baku_accelerations(players: int, rounds: int) -> dict[int, list[int]]:
    """FIDE C.04.5.1, the Baku acceleration, as the reference engine (bbpPairings) applies it:
    the first half of the pairing numbers (n-1)//2 + 1 of n (group A) get virtual points in
    the first (rounds+1)//2 rounds: a win's (2 half-points) in the first half of those rounds
    ((rounds-1)//2//2 + 1 of them), a draw's (1) in the rest; everyone else none. Pairing number
    -> virtual half-points a round, from round 1."""
    accelerated = (rounds - 1) // 2 + 1
    full = (rounds - 1) // 2 // 2 + 1
    virtual = [2] * full + [1] * (accelerated - full)
    return {number: list(virtual) for number in range(1, (players - 1) // 2 + 2)}


def _float(number: int, rows: list[RoundRecord], before: dict[int, list[int]], index: int) -> int:
    """A.4.b: the float of round `index` (0-based): down after meeting a lower score or not
    playing but scoring, up after meeting a higher score."""
    if index < 0 or index >= len(rows):
        return 0
    row = rows[index]
    if not row.played:
        return -1 if row.points > 0 else 0
    mine, theirs = before[number][index], before[row.opponent][index]
    return -1 if mine > theirs else 1 if mine < theirs else 0


@dataclass(frozen=True)
class DutchPairing:
    pairs: tuple[tuple[int, int], ...]      # (white, black) pairing numbers, board order
    bye: int | None


def dutch_pairing(players: list[DutchPlayer], *, rounds_played: int, rounds_planned: int,
                  initial_colour: int = WHITE) -> DutchPairing:
    """Pair the next round by C.04.3; raise NoDutchPairing when C.1-C.3 allow no pairing."""
    field_ = RoundField(players, rounds_played, rounds_planned)
    pairs, bye = field_.pair()
    by_number = {p.number: p for p in players}
    rank = {p.number: i for i, p in enumerate(field_.order)}
    boards = sorted(pairs, key=lambda pair: board_key(by_number[pair[0]], by_number[pair[1]], rank))
    coloured = tuple(allocate_colours(by_number[a], by_number[b], rank, initial_colour) for a, b in boards)
    return DutchPairing(coloured, bye)


def board_key(a: DutchPlayer, b: DutchPlayer, rank: dict[int, int]) -> tuple:
    """Boards: the higher score of the pair first, then the other score, then the better rank."""
    high, low = sorted((a, b), key=lambda p: rank[p.number])
    return (-high.score, -low.score, rank[high.number])


def allocate_colours(a: DutchPlayer, b: DutchPlayer, rank: dict[int, int],
                     initial_colour: int) -> tuple[int, int]:
    """E.1-E.5: the pair as (white, black)."""
    colour = _colour_of(a, b, rank, initial_colour)
    return (a.number, b.number) if colour == WHITE else (b.number, a.number)


def _colour_of(a: DutchPlayer, b: DutchPlayer, rank: dict[int, int], initial_colour: int) -> int:
    """The colour `a` gets against `b` (E.1-E.5)."""
    if a.preference != b.preference or not a.preference or not b.preference:
        if a.preference or b.preference:        # E.1: grant both preferences
            return a.preference or -b.preference
    else:
        for first, second, sign in ((a, b, 1), (b, a, -1)):
            # E.2: the absolute preference, the wider colour difference if both are absolute
            if first.absolute and (not second.absolute or abs(first.difference) > abs(second.difference)):
                return sign * first.preference
        for first, second, sign in ((a, b, 1), (b, a, -1)):
            if first.strong and not second.strong:       # E.2: a strong over a mild preference
                return sign * first.preference
        mine, theirs = _last_different_colours(a, b)
        if mine:                                # E.3: alternate to the last time they differed
            return theirs
    higher, lower = (a, b) if rank[a.number] < rank[b.number] else (b, a)
    if higher.preference:                       # E.4: the higher ranked player's preference
        colour = higher.preference
    else:                                       # E.5: by the higher ranked player's pairing number
        colour = initial_colour if (higher.colour_number or higher.number) % 2 == 1 else -initial_colour
    return colour if higher is a else -colour


def _last_different_colours(a: DutchPlayer, b: DutchPlayer) -> tuple[int, int]:
    """E.3: the two players' colours the most recent time (counting played games back from the
    last) that they differed, or (0, 0)."""
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours)):
        if mine != theirs:
            return mine, theirs
    return 0, 0
