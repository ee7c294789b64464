"""The FIDE (Dutch) system, C.04.3 (2025 rules) B and C: a round paired bracket by bracket.

Brackets are paired from the top score down (B.1-B.3). A pairing of a bracket is scored by the
quality criteria in their order of priority (C.5-C.21), each summed over the bracket's pairs and
its downfloaters, with completion (C.4) as a hard constraint on everyone still unpaired: one
integer weight per pair packs them, most important first, so that a maximum-weight matching is a
best candidate (B.8). Below the criteria the weight holds the order in which the rules generate
candidates (B.5 transpositions, B.6 resident exchanges, B.7 MDP exchanges), so that the matching
is also the first best candidate in that order, the one the rules accept. This is how the
FIDE-endorsed engines pair the Dutch system; the code here is written from the rules.

To keep it quick in pure Python: a bracket whose very first candidate is perfect is accepted
without any matching (B.4); otherwise the bracket is paired on its own (or with a vertex that
stands for the one downfloater of an odd bracket, C.8), and the rest of the field only has to
prove completable; only when that fails does the matching take in the next score group, then
everyone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .matching import complete_matching_exists, max_weight_matching, perfect_after_adding

if TYPE_CHECKING:
    from .dutch import DutchPlayer

Ordering = tuple[Callable[[int, int], int], int]     # a pair's place in the rules' order, and its width


class NoDutchPairing(ValueError):
    """No pairing of the round satisfies the absolute criteria C.1-C.3 (and C.2 for the bye)."""


class RoundField:
    """The players of one round, ranked (A.2), with what pairing each bracket needs."""

    def __init__(self, players: list[DutchPlayer], rounds_played: int, rounds_planned: int):
        self.order = sorted(players, key=lambda p: (-p.score, p.number))
        self.count = len(self.order)
        self.rounds_played = rounds_played
        last_round = rounds_played >= rounds_planned - 1
        index = {p.number: i for i, p in enumerate(self.order)}
        # A.7: topscorers (over 50 % of the maximum possible score) when pairing the last round
        self.topscorer = [last_round and p.score > rounds_played for p in self.order]
        self.compatible = [[False] * self.count for _ in range(self.count)]
        for i, a in enumerate(self.order):
            met = {index[n] for n in a.opponents if n in index}
            for j in range(i + 1, self.count):
                ok = j not in met and self._colours_allow(i, j)
                self.compatible[i][j] = self.compatible[j][i] = ok
        self.neighbours = [[j for j in range(self.count) if self.compatible[i][j]] for i in range(self.count)]

    def _colours_allow(self, i: int, j: int) -> bool:
        """C.3: non-topscorers with the same absolute colour preference shall not meet."""
        a, b = self.order[i], self.order[j]
        if not (a.absolute and b.absolute and a.preference == b.preference):
            return True
        return self.topscorer[i] or self.topscorer[j]

    def pair(self) -> tuple[list[tuple[int, int]], int | None]:
        """All brackets from the top (B.1-B.8); pairs of pairing numbers and the bye."""
        self.bye_score = self._bye_assignee_score()
        self.unplayed_rank = self._unplayed_ranks()
        groups: list[list[int]] = []                    # A.3: the score groups, highest first
        for i in range(self.count):
            if groups and self.order[groups[-1][0]].score == self.order[i].score:
                groups[-1].append(i)
            else:
                groups.append([i])
        pairs: list[tuple[int, int]] = []
        movers: list[int] = []
        through = False                 # a downfloater goes on below the next bracket
        for g, group in enumerate(groups):
            below = [i for later in groups[g + 1:] for i in later]
            nxt = groups[g + 1] if g + 1 < len(groups) else []
            maybe_bye = self.count % 2 == 1 and self.bye_score >= self.order[group[0]].score and not through
            bracket = Bracket(self, movers, group, nxt, below, maybe_bye)
            found = bracket.pair()
            through = bracket.through
            pairs += found
            paired = {i for pair in found for i in pair}
            movers = [i for i in movers + group if i not in paired]
        if len(movers) > 1:     # C.4 is kept bracket by bracket, so this cannot happen
            raise AssertionError(f"{len(movers)} players left unpaired")
        bye = self.order[movers[0]].number if movers else None
        return [(self.order[a].number, self.order[b].number) for a, b in pairs], bye

    def bye_candidate(self, i: int) -> bool:
        """C.2 and C.5: may receive the bye, at the lowest score a complete pairing allows."""
        return self.order[i].bye_eligible and self.order[i].score <= self.bye_score

    def _unplayed_ranks(self) -> dict[int, int]:
        """C.9: among the players at the bye assignee's score (odd fields), a rank that grows
        with the rounds they did not play: pairing those of higher rank leaves the bye to the
        player with the fewest unplayed games."""
        if self.count % 2 == 0:
            return {}
        at_bye_score = [i for i in range(self.count) if self.order[i].score == self.bye_score]
        unplayed = sorted(self.order[i].unplayed for i in at_bye_score)
        return {i: max(k for k, u in enumerate(unplayed) if u == self.order[i].unplayed) for i in at_bye_score}

    def _bye_assignee_score(self) -> int:
        """C.4/C.5: the lowest score of a bye assignee in any complete pairing (even fields: 0).
        Raise NoDutchPairing when no complete pairing exists at all."""
        everyone = list(range(self.count))
        if self.count % 2 == 0:
            if not complete_matching_exists(everyone, self.neighbours, []):
                raise NoDutchPairing("no pairing satisfies C.1-C.3 for every player")
            return 0
        scores = sorted({p.score for p in self.order})
        for score in scores:
            byes = [i for i in everyone if self.order[i].bye_eligible and self.order[i].score <= score]
            if byes and complete_matching_exists(everyone, self.neighbours, byes):
                return score
        raise NoDutchPairing("no pairing satisfies C.1-C.3 and C.2 (one bye each) for every player")


class Bracket:
    """One pairing bracket: moved-down players (MDPs) and residents (A.3), above the next score
    group and the rest of the field, which must stay completable (C.4)."""

    def __init__(self, field_: RoundField, movers: list[int], residents: list[int], nxt: list[int],
                 below: list[int], maybe_bye: bool = False):
        self.field = field_
        self.through = False
        self.movers = movers
        self.residents = residents
        self.players = movers + residents
        self.next = nxt
        self.below = below
        # C.9 counts in the bracket the bye comes from as its only downfloater: the bye is at its
        # score or above, no MDP passes through it, and all but the bye can be paired in it
        self.bye_bracket = (maybe_bye and len(self.players) % 2 == 1 and self._completable(self.players)
                            and complete_matching_exists(below, field_.neighbours, []))

    def pair(self) -> list[tuple[int, int]]:
        """The bracket's pairs (indices, higher ranked first)."""
        if len(self.players) < 2 and not self.below:
            return []
        natural = self._natural()
        if natural is not None:
            return natural
        fixed: list[tuple[int, int]] = []
        if self.movers:
            # B.7/B.5 for the MDPs first. The remainder's order goes below theirs, for the
            # remainder their likeliest opponents leave; when the MDPs do take those, the one
            # matching has paired the whole bracket (otherwise the remainder is paired again).
            guess = self._likely_mdp_opponents()
            likely = [i for i in self.residents if i not in guess.values()]
            solution = self._solve(combined(self._mdp_order(), self._remainder_order(likely, len(likely) // 2)))
            fixed = [(a, b) for a, b in solution if a in self.movers and b in self.residents]
            found = [(a, b) for a, b in solution if a in likely and b in likely]
            if dict(fixed) == guess and len(found) == len(likely) // 2:
                return fixed + found
        taken = {i for pair in fixed for i in pair}
        remainder = [i for i in self.residents if i not in taken]
        if len(remainder) < 2:
            return fixed
        # B.3: the remainder's pairs; S1 is its first `pairs` players (B.2), mostly half of it
        pairs = len(remainder) // 2
        solution = self._solve(self._remainder_order(remainder, pairs), taken)
        found = [(a, b) for a, b in solution if a in remainder and b in remainder]
        if len(found) != pairs:
            solution = self._solve(self._remainder_order(remainder, len(found)), taken)
            found = [(a, b) for a, b in solution if a in remainder and b in remainder]
        return fixed + found

    def _likely_mdp_opponents(self) -> dict[int, int]:
        """Each MDP in turn with the highest-ranked resident left who is compatible and grants
        both colour preferences (or else just compatible): usually the MDP-pairing B.5 finds."""
        field_, taken, guess = self.field, set(), {}
        for mover in self.movers:
            options = [r for r in self.residents if r not in taken and field_.compatible[mover][r]]
            good = [r for r in options if all(colour_bits(field_.order[mover], field_.order[r]))]
            if options:
                guess[mover] = (good or options)[0]
                taken.add(guess[mover])
        return guess

    # ---------------------------------------------------------------- the generation order (B.5-B.7)

    def _mdp_order(self) -> Ordering:
        """B.7 then B.5 for the MDP-pairing: the MDPs paired are the earliest possible (the
        exchange with the lowest BSNs), each against the highest-ranked resident possible."""
        movers, residents = self.movers, self.residents
        pos = {i: k for k, i in enumerate(movers)}
        rpos = {i: k for k, i in enumerate(residents)}
        base = len(residents) + 1
        width = len(movers) + len(movers) * base.bit_length() + 1

        def order(a: int, b: int) -> int:
            if a not in pos or b not in rpos:
                return 0
            chosen = 1 << (len(movers) - 1 - pos[a])
            opponent = (len(residents) - rpos[b]) * base ** (len(movers) - 1 - pos[a])
            return (chosen << (len(movers) * base.bit_length())) | opponent
        return order, width

    def _remainder_order(self, remainder: list[int], pairs: int) -> Ordering:
        """B.6 then B.5 for a homogeneous bracket or remainder: fewest exchanges, then the smallest
        difference of the exchanged BSN sums, then the highest BSNs moved from S1 and the lowest
        moved from S2, then S2 transpositions in lexicographic order."""
        size = len(remainder)
        rpos = {i: k for k, i in enumerate(remainder)}
        base = size + 1
        tw = size * base.bit_length()
        sum_w = (size * size).bit_length() + 1
        count_w = size.bit_length() + 1
        width = count_w + sum_w + (size + 1) + (size + 1) + tw

        def order(a: int, b: int) -> int:
            if a not in rpos or b not in rpos:
                return 0
            x, y = rpos[a], rpos[b]                 # x < y: x has the S1 role
            in_s1 = x < pairs
            value = int(in_s1)
            value = (value << sum_w) | (size - x)
            value = (value << (size + 1)) | (((1 << pairs) - (1 << x)) if in_s1 else 0)
            value = (value << (size + 1)) | (0 if in_s1 else 1 << (size - 1 - x))
            value = (value << tw) | ((size - y) * base ** (size - 1 - x))
            return value
        return order, width

    # ---------------------------------------------------------------- the quality criteria (C.4-C.21)

    def _solve(self, ordering: Ordering, taken: set[int] = frozenset()) -> list[tuple[int, int]]:
        """The best pairing of everyone still unpaired by the criteria then `ordering`; pairs in
        index order (a < b).

        The players below the bracket only matter for completion (C.4) and, for those of the next
        score group, for C.8, which depends only on the bracket's downfloaters. So the bracket is
        paired alone first: when everyone in it is paired, C.8 is the same for every choice; when
        one of an odd bracket downfloats, a vertex standing for downfloating carries C.8's value
        for each player (`_downfloat_values`). Then with the next score group. A result around
        which the rest of the field can still be paired is the best pairing of the whole field
        (no pairing does better on any criterion); only when none is, is everyone paired at once."""
        bracket = [i for i in self.players if i not in taken]
        nearby = [bracket] if len(bracket) % 2 == 0 or not self.next else []
        if self.next:
            nearby.append(bracket + self.next)
        if len(bracket) % 2 and self.next:
            downfloats = self._downfloat_values(bracket)
            if downfloats is not None:
                pairs = self._best(bracket, ordering, completion=False, downfloats=downfloats)
                if 2 * len(pairs) == len(bracket) - 1:
                    return pairs
        for near in nearby:
            pairs = self._best(near, ordering, completion=False)
            paired = {i for pair in pairs for i in pair}
            if near is bracket and self.next and len(paired) < len(bracket):
                continue
            rest = [i for i in bracket + self.below if i not in paired]
            if self._completable(rest):
                self._note_through(bracket, pairs)
                return pairs
        pairs = self._best(bracket + self.below, ordering, completion=True)
        self._note_through(bracket, pairs)
        return pairs

    def _note_through(self, bracket: list[int], pairs: list[tuple[int, int]]) -> None:
        """Whether a downfloater of this bracket is paired beyond the next score group."""
        partner = {a: b for pair in pairs for a, b in (pair, pair[::-1])}
        in_bracket, in_next = set(bracket), set(self.next)
        self.through = any(partner[i] not in in_next for i in bracket
                           if i in partner and partner[i] not in in_bracket)

    def _downfloat_values(self, bracket: list[int]) -> dict[int, tuple[int, tuple[int, int, int]]] | None:
        """C.8 when one player of an odd bracket downfloats: the next bracket's pairs and their
        score vector, for each possible downfloater, when every one of them can be paired in the
        next bracket with it paired as fully as it can be (and the rest of the field completed);
        None when that is not so for some player (the caller then pairs with the next bracket)."""
        field_ = self.field
        nxt = self.next
        lower = self.below[len(nxt):]
        local = {v: k for k, v in enumerate(nxt)}
        graph = [[local[u] for u in field_.neighbours[v] if u in local] for v in nxt]
        if len(nxt) % 2:                    # the next bracket and the downfloater pair up fully
            if not self._completable(lower):
                return None
        else:                               # one player of the next bracket goes lower
            leaving = self._leavers(lower)
            graph.append([local[v] for v in leaving])
            for k in graph[-1]:
                graph[k].append(len(nxt))
        candidates = [[local[u] for u in field_.neighbours[d] if u in local] for d in bracket]
        if not all(perfect_after_adding(graph, candidates)):
            return None
        pairs = (len(nxt) + 1) // 2
        return {d: (pairs, (field_.order[d].score, field_.order[nxt[0]].score, pairs - 1)) for d in bracket}

    def _leavers(self, lower: list[int]) -> list[int]:
        """The players of the next score group who could be paired below it (or get the bye)
        with the rest of the field still completable (C.4)."""
        field_ = self.field
        local = {v: k for k, v in enumerate(lower)}
        graph = [[local[u] for u in field_.neighbours[v] if u in local] for v in lower]
        with_bye = len(lower) % 2 == 0         # one more player makes the field odd
        if with_bye:
            graph.append([local[v] for v in lower if field_.bye_candidate(v)])
            for k in graph[-1]:
                graph[k].append(len(lower))
        candidates = [[local[u] for u in field_.neighbours[v] if u in local]
                      + ([len(lower)] if with_bye and field_.bye_candidate(v) else []) for v in self.next]
        return [v for v, ok in zip(self.next, perfect_after_adding(graph, candidates)) if ok]

    def _natural(self) -> list[tuple[int, int]] | None:
        """B.4: a homogeneous bracket's first candidate, S1[i] against S2[i], when it is perfect:
        every pair meets C.1-C.3 and grants both colour preferences with no colour criterion
        broken (C.10-C.13), and nobody downfloats, or only the last player of the last bracket,
        as a bye it may receive (C.2, C.5) and without repeating a downfloat (C.14, C.16). No
        candidate can be better, and none comes before it."""
        players, field_ = self.players, self.field
        half = len(players) // 2
        if self.movers or (len(players) % 2 and self.next):
            return None
        pairs = list(zip(players[:half], players[half:2 * half]))
        for a, b in pairs:
            if not field_.compatible[a][b] or not all(colour_bits(field_.order[a], field_.order[b])):
                return None
        rest = players[2 * half:] + self.below
        if rest and len(players) % 2:
            leftover = field_.order[rest[0]]
            if -1 in leftover.floats[:field_.rounds_played] or self.bye_bracket and any(
                    field_.order[i].unplayed < leftover.unplayed for i in field_.unplayed_rank):
                return None
        return pairs if self._completable(rest) else None

    def _completable(self, rest: list[int]) -> bool:
        """C.4 (and C.5 for the bye): can `rest` still all be paired?"""
        rest = sorted(set(rest))
        byes = [i for i in rest if self.field.bye_candidate(i)]
        return complete_matching_exists(rest, self.field.neighbours, byes)

    def _best(self, players: list[int], ordering: Ordering, completion: bool,
              downfloats: dict[int, tuple[int, tuple[int, int, int]]] | None = None) -> list[tuple[int, int]]:
        """Maximum-weight matching of `players` (pairs in index order); with `completion` the
        rest of the field is among them and must be paired. With `downfloats` (player -> C.8's
        pairs and heads when it downfloats) one more vertex stands for downfloating."""
        players = sorted(players)
        weights = Weights(self, players, ordering, completion)
        compatible = self.field.compatible
        edges = {}
        for k, a in enumerate(players):
            for b in players[k + 1:]:
                if compatible[a][b]:
                    weight = weights.pair(a, b)
                    if weight:
                        edges[(a, b)] = weight
        dummy = self.field.count
        for d, (pairs, heads) in (downfloats or {}).items():
            edges[(d, dummy)] = weights.downfloat(pairs, heads)
        matching = max_weight_matching(players + ([dummy] if downfloats else []), edges)
        return sorted(pair for pair in matching if pair[1] != dummy)


class Weights:
    """The weight of a pair: the criteria of C.4-C.21 as fields of one integer, most important
    first, each wide enough for its sum over a whole matching, then the rules' order."""

    def __init__(self, bracket: Bracket, players: list[int], ordering: Ordering, completion: bool):
        field_ = bracket.field
        self.field, self.completion = field_, completion
        self.order_fn, self.order_width = ordering
        self.in_bracket, self.in_next = set(bracket.players), set(bracket.next)
        scores = sorted({field_.order[i].score for i in players + bracket.next[:1]})
        self.level = {score: k for k, score in enumerate(scores)}
        n = len(players)
        self.lw = (n + 1).bit_length() + 1          # one score level of a score vector
        self.sv = self.lw * len(scores)             # a whole score vector
        self.cw = (3 * n).bit_length() + 1          # a count
        self.uw = (n * n + 1).bit_length() + 1      # C.9: the ranks of the players paired
        self.rank = field_.unplayed_rank if bracket.bye_bracket else {}
        self.backs = range(min(field_.rounds_played, 2))
        floats = len(self.backs) * (2 * self.cw + 2 * self.sv)
        self.below_c8 = self.uw + 4 * self.cw + floats + self.order_width

    def vector(self, *scores: int) -> int:
        """A score vector: one count for each score present, the higher scores more significant."""
        return sum(1 << (self.level[score] * self.lw) for score in scores)

    def pair(self, a: int, b: int) -> int:
        """Players a < b (a ranks higher)."""
        field_ = self.field
        pa, pb = field_.order[a], field_.order[b]
        w = 1 + (not field_.bye_candidate(a)) + (not field_.bye_candidate(b)) if self.completion else 0
        both = a in self.in_bracket and b in self.in_bracket
        nxt = b in self.in_next
        cw, sv = self.cw, self.sv
        w = (w << cw) | both                                                # C.6: pairs in the bracket
        w = (w << sv) | (self.vector(pa.score) if both else 0)              # C.7: the PSD (MDPs paired)
        w = (w << cw) | nxt                                                 # C.8: pairs in the next bracket
        w = (w << sv) | (self.vector(pa.score) if nxt else 0)               # C.8: and their PSD
        if not both:
            return w << self.below_c8
        w = (w << self.uw) | (self.rank.get(a, 0) + self.rank.get(b, 0))    # C.9
        for bit in colour_bits(pa, pb):                                     # C.10-C.13
            w = (w << cw) | bit
        for back in self.backs:                                             # C.14-C.17
            down, up = float_counts(pa, pb, back)
            w = (((w << cw) | down) << cw) | up
        for back in self.backs:                                             # C.18-C.21
            down, up = float_scores(pa, pb, back, self.vector)
            w = (((w << sv) | down) << sv) | up
        return (w << self.order_width) | self.order_fn(a, b)

    def downfloat(self, pairs: int, heads: tuple[int, int, int]) -> int:
        """The vertex for downfloating, joined to a player: C.8's value if that player downfloats
        (the next bracket's pairs, the downfloater's score and the next group's `others` times)."""
        score, next_score, others = heads
        vector = self.vector(score) + others * self.vector(next_score)
        return (((pairs << self.sv) | vector) << self.below_c8) or 1


def combined(first: Ordering, second: Ordering) -> Ordering:
    """Two generation orders, the first before the second."""
    (first_fn, first_width), (second_fn, second_width) = first, second
    return (lambda a, b: (first_fn(a, b) << second_width) | second_fn(a, b)), first_width + second_width


def colour_bits(a: DutchPlayer, b: DutchPlayer) -> tuple[int, int, int, int]:
    """1 for each of C.10-C.13 the pair satisfies (a topscorer pair may break the first two)."""
    same = a.preference == b.preference and a.preference != 0
    wide = same and abs(a.difference) > 1 and abs(b.difference) > 1        # C.10: beyond +-2
    third = False                                                           # C.11: third in a row
    if same and a.absolute and b.absolute:
        if abs(a.difference) == abs(b.difference):
            third = a.repeated != 0 and a.repeated == b.repeated
        else:
            loser = b if abs(a.difference) > abs(b.difference) else a
            third = loser.repeated == -a.preference
    strong = (same and (a.strong or a.absolute) and (b.strong or b.absolute)
              and not (a.absolute and b.absolute))                           # C.13
    return (int(not wide), int(not third), int(not same), int(not strong))


def float_counts(a: DutchPlayer, b: DutchPlayer, back: int) -> tuple[int, int]:
    """C.14/C.16 (down) and C.15/C.17 (up), `back` = 0 for the last round: the players of the pair
    who avoid repeating that round's downfloat, and 1 if the lower one avoids repeating its upfloat."""
    down = (b.floats[back] == -1) + (a.score <= b.score and a.floats[back] == -1)
    up = int(not (a.score > b.score and b.floats[back] == 1))
    return down, up


def float_scores(a: DutchPlayer, b: DutchPlayer, back: int, vector: Callable[..., int]) -> tuple[int, int]:
    """C.18/C.20 and C.19/C.21 as score vectors: the scores of the paired players who floated
    down that round, and the score of the higher player unless it meets a repeated upfloater."""
    down = vector(*(p.score for p in (a, b) if p.floats[back] == -1))
    up = 0 if (b.floats[back] == 1 and a.score > b.score) else vector(a.score)
    return down, up
