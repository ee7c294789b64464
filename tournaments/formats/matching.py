"""Matchings in general graphs for the Swiss pairing (pure Python, no Django).

`maximum_matching` is Edmonds' blossom algorithm for the most pairs (O(V^3)); the Dutch engine
asks it whether a field can still be paired completely (C.04.3 C.4). `max_weight_matching` is
the weighted version (primal-dual, O(V^3), exact on integer weights of any size), which pairs
a bracket by its criteria. Both work on lists, which keeps them several times faster than a
general graph library in pure Python.
"""
from __future__ import annotations

INFINITY = float("inf")      # above every integer: no best edge yet


def maximum_matching(count: int, neighbours: list[list[int]]) -> list[int]:
    """A maximum matching of vertices 0..count-1: mate[v], or -1 when v is unmatched."""
    mate = [-1] * count
    for v in range(count):                      # a greedy start leaves few paths to find
        if mate[v] == -1:
            for u in neighbours[v]:
                if mate[u] == -1:
                    mate[v], mate[u] = u, v
                    break
    for root in range(count):
        if mate[root] == -1:
            end, parent = _augmenting_path(root, count, neighbours, mate)
            while end != -1:                    # flip the path's edges
                previous = parent[end]
                after = mate[previous]
                mate[end], mate[previous] = previous, end
                end = after
    return mate


def _augmenting_path(root: int, count: int, neighbours: list[list[int]],
                     mate: list[int]) -> tuple[int, list[int]]:
    """Breadth-first search from an unmatched root, shrinking odd cycles (blossoms) into their
    base; returns the free vertex reached (or -1) and the parent links of the path."""
    parent = [-1] * count
    base = list(range(count))
    used = [False] * count
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in neighbours[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                shared = _common_base(v, to, base, mate, parent)
                in_blossom = [False] * count
                _mark_path(v, shared, to, base, mate, parent, in_blossom)
                _mark_path(to, shared, v, base, mate, parent, in_blossom)
                for i in range(count):
                    if in_blossom[base[i]]:
                        base[i] = shared
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    """The base of the blossom closed by the edge a-b: the first common ancestor."""
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if b in seen:
            return b
        b = parent[mate[b]]


def _mark_path(v: int, shared: int, child: int, base: list[int], mate: list[int], parent: list[int],
               in_blossom: list[bool]) -> None:
    """Mark the blossom's vertices from v down to its base and relink their parents."""
    while base[v] != shared:
        in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def perfect_after_adding(graph: list[list[int]], candidates: list[list[int]]) -> list[bool]:
    """For each candidate vertex (its neighbours in `graph`, an adjacency list over 0..n-1):
    would the graph with it added have a perfect matching? One maximum matching of the graph,
    then one search for an augmenting path from each candidate (Berge)."""
    count = len(graph)
    mate = maximum_matching(count, graph)
    if count % 2 == 0 or mate.count(-1) != 1:
        return [False] * len(candidates)
    mate.append(-1)
    answers = []
    for neighbours in candidates:
        for v in neighbours:
            graph[v].append(count)
        graph.append(neighbours)
        end, _ = _augmenting_path(count, count + 1, graph, mate)
        graph.pop()
        for v in neighbours:
            graph[v].pop()
        answers.append(end != -1)
    return answers


def complete_matching_exists(vertices: list[int], neighbours: list[list[int]], byes: list[int]) -> bool:
    """Can `vertices` all be paired (neighbours lists over the whole field), with one of `byes`
    left over when their number is odd?"""
    local = {v: k for k, v in enumerate(vertices)}
    count = len(vertices)
    graph = [[local[u] for u in neighbours[v] if u in local] for v in vertices]
    if count % 2:
        dummy = count
        graph.append([local[b] for b in byes if b in local])
        for b in graph[dummy]:
            graph[b].append(dummy)
        count += 1
    mate = maximum_matching(count, graph)
    return all(m != -1 for m in mate)


def max_weight_matching(vertices: list[int], edges: dict[tuple[int, int], int],
                        most_pairs: bool = False) -> set[tuple[int, int]]:
    """A matching of greatest total weight (positive integer weights), among those with the most
    pairs if `most_pairs`; pairs as (low, high)."""
    local = {v: k for k, v in enumerate(vertices)}
    pairs = [(local[a], local[b]) for a, b in edges]
    weights = list(edges.values())
    if most_pairs:          # one more pair outweighs any weights the matching could give up
        bonus = (len(vertices) // 2 + 1) * max(weights, default=0) + 1
        weights = [w + bonus for w in weights]
    mate = WeightedMatching(len(vertices), pairs, weights).solve()
    return {(min(vertices[v], vertices[m]), max(vertices[v], vertices[m]))
            for v, m in enumerate(mate) if m > v}


class WeightedMatching:
    """Edmonds' maximum-weight matching by the primal-dual blossom method in O(V^3) (Galil,
    "Efficient algorithms for finding maximum matching in graphs", 1986), on integer weights.

    Stages grow alternating trees from the unmatched vertices over tight edges (zero slack),
    shrink odd cycles into blossoms, and augment along a path between two trees; when no tight
    edge is left the duals move by the largest step that keeps them feasible (four kinds of
    step). Edge k joins endpoint 2k and 2k+1; mate[v] is the endpoint at v's partner."""

    def __init__(self, count: int, pairs: list[tuple[int, int]], weights: list[int], scan_all: bool = False):
        self.n = count
        # scan_all: read every edge at every scan, as before the shortcuts of `stage` (the tests
        # compare the two); the shortcuts skip only edges whose reading changes nothing
        self.scan_all = scan_all
        self.weights = weights
        self.twice = [2 * w for w in weights]
        self.endpoint = [v for pair in pairs for v in pair]
        self.neighbend: list[list[int]] = [[] for _ in range(count)]
        for k, (i, j) in enumerate(pairs):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        # what the stage's scan reads of each edge at a vertex: endpoint, edge, far vertex
        self.incident = [[(p, p >> 1, self.endpoint[p]) for p in ends] for ends in self.neighbend]
        # the same entries heaviest first (the earlier in `incident` first among equals), and how
        # far each list is known to hold only matched far ends (a matched vertex stays matched)
        self.heaviest = [sorted(entries, key=lambda e: -weights[e[1]]) for entries in self.incident]
        self.heaviest_from = [0] * count
        self.mate = [-1] * count
        self.label = [0] * (2 * count)          # 0 free, 1 S (outer), 2 T (inner); 5 while scanning
        self.labelend = [-1] * (2 * count)
        self.inblossom = list(range(count))
        self.blossomparent = [-1] * (2 * count)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * count)
        self.blossombase = list(range(count)) + [-1] * count
        self.blossomendps: list[list[int] | None] = [None] * (2 * count)
        self.bestedge = [-1] * (2 * count)
        # 2 * the slack of bestedge[x] (kept up to date by adjust_duals, so never recomputed)
        self.bestslack = [0] * (2 * count)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * count)
        self.unusedblossoms = list(range(count, 2 * count))
        self.liveblossoms: set[int] = set()         # the blossoms in use, top-level or not
        top = max(weights, default=0)
        self.dualvar = [top] * count + [0] * count
        self.allowedge = [False] * len(weights)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        """2 * the slack of edge k (blossom duals do not enter for edges between top-level blossoms)."""
        return self.dualvar[self.endpoint[2 * k]] + self.dualvar[self.endpoint[2 * k + 1]] - self.twice[k]

    def leaves(self, b: int) -> list[int]:
        """The vertices inside blossom b."""
        if b < self.n:
            return [b]
        found, stack = [], [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                found.append(t)
            else:
                stack.extend(self.blossomchilds[t])
        return found

    def assign_label(self, w: int, t: int, p: int) -> None:
        """Label w's top-level blossom S (t=1) or T (t=2), reached through endpoint p; a T
        blossom's base is matched, and its mate's blossom becomes S."""
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.blossombase[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from v and w: the base of a new blossom, or -1 for an augmenting path."""
        path, base = [], -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Shrink the odd cycle closed by edge k into a new S-blossom with the given base."""
        v, w = self.endpoint[2 * k], self.endpoint[2 * k + 1]
        bb, bv, bw = self.inblossom[base], self.inblossom[v], self.inblossom[w]
        b = self.unusedblossoms.pop()
        self.liveblossoms.add(b)
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path, endps = [], []
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.blossomchilds[b], self.blossomendps[b] = path, endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for leaf in self.leaves(b):
            if self.label[self.inblossom[leaf]] == 2:
                self.queue.append(leaf)          # a former T vertex is now S: scan it
            self.inblossom[leaf] = b
        best_to = {}
        for child in path:
            if self.blossombestedges[child] is None:
                lists = [[p // 2 for p in self.neighbend[leaf]] for leaf in self.leaves(child)]
            else:
                lists = [self.blossombestedges[child]]
            for edge_list in lists:
                for e in edge_list:
                    i, j = self.endpoint[2 * e], self.endpoint[2 * e + 1]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if bj != b and self.label[bj] == 1 and (
                            bj not in best_to or self.slack(e) < self.slack(best_to[bj])):
                        best_to[bj] = e
            self.blossombestedges[child] = None
            self.bestedge[child] = -1
        self.blossombestedges[b] = list(best_to.values())
        self.bestedge[b] = min(best_to.values(), key=self.slack, default=-1)
        if self.bestedge[b] != -1:
            self.bestslack[b] = self.slack(self.bestedge[b])

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Undo blossom b: its children become top-level; mid-stage, relabel a T blossom's
        children along the path through its base."""
        for s in self.blossomchilds[b]:
            self.blossomparent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for leaf in self.leaves(s):
                    self.inblossom[leaf] = s
        if not endstage and self.label[b] == 2:
            childs, endps = self.blossomchilds[b], self.blossomendps[b]
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p // 2] = True
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                reached = next((v for v in self.leaves(bv) if self.label[v] != 0), None)
                if reached is not None:
                    self.label[reached] = 0
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
                    self.assign_label(reached, 2, self.labelend[reached])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)
        self.liveblossoms.discard(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges on the even path through blossom b from v to its
        base, which makes v the new base."""
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs, endps = self.blossomchilds[b], self.blossomendps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.blossomchilds[b] = childs[i:] + childs[:i]
        self.blossomendps[b] = endps[i:] + endps[:i]
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]]

    def augment_matching(self, k: int) -> None:
        """Flip the augmenting path through edge k, back to both roots."""
        v, w = self.endpoint[2 * k], self.endpoint[2 * k + 1]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.labelend[bs] == -1:
                    break
                t = self.endpoint[self.labelend[bs]]
                bt = self.inblossom[t]
                s = self.endpoint[self.labelend[bt]]
                j = self.endpoint[self.labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.labelend[bt]
                p = self.labelend[bt] ^ 1

    def solve(self) -> list[int]:
        """mate[v] = the vertex matched with v, or -1."""
        n = self.n
        for _ in range(n):
            self.label = [0] * (2 * n)
            self.bestedge = [-1] * (2 * n)
            for b in range(n, 2 * n):
                self.blossombestedges[b] = None
            self.allowedge = [False] * len(self.weights)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            if not self.stage():
                break
            for b in range(n, 2 * n):           # S-blossoms whose dual reached zero dissolve
                if (self.blossomparent[b] == -1 and self.blossombase[b] >= 0 and self.label[b] == 1
                        and self.dualvar[b] == 0):
                    self.expand_blossom(b, True)
        return [self.endpoint[p] if p >= 0 else -1 for p in self.mate]

    def stage(self) -> bool:
        """Grow the trees until an augmentation (True) or until the duals prove optimality."""
        endpoint, label, inblossom, labelend = self.endpoint, self.label, self.inblossom, self.labelend
        dualvar, twice, allowedge = self.dualvar, self.twice, self.allowedge
        bestedge, bestslack, queue, incident = self.bestedge, self.bestslack, self.queue, self.incident
        mate, scan_all = self.mate, self.scan_all
        while True:
            while queue:
                v = queue.pop()
                bv = inblossom[v]
                dv = dualvar[v]
                ndv = -dv
                chosen = self.best_free_edge(v, bv)
                full = scan_all             # True once v's blossom grew: the rest read in full
                limit = bestslack[bv] - dv if bestedge[bv] != -1 else INFINITY
                for p, k, w in incident[v]:
                    if mate[w] < 0 and k != chosen and not full:   # a free vertex's edge that cannot matter
                        continue
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    lw = label[bw]
                    if lw == 2 and label[w] and not scan_all:   # a T vertex already reached: a tight
                        continue                # edge to it changes nothing, and its slack stays put
                    if not allowedge[k]:
                        x = dualvar[w] - twice[k]       # slack(k) - dv, one big-integer step
                        if x > ndv:                     # not tight: only the best edges move
                            if lw == 1:
                                if x < limit:
                                    bestedge[bv] = k
                                    bestslack[bv] = x + dv
                                    limit = x
                            elif label[w] == 0:
                                kslack = x + dv
                                if bestedge[w] == -1 or kslack < bestslack[w]:
                                    bestedge[w] = k
                                    bestslack[w] = kslack
                            continue
                        allowedge[k] = True
                    if lw == 0:
                        self.assign_label(w, 2, p ^ 1)
                    elif lw == 1:
                        base = self.scan_blossom(v, w)
                        if base >= 0:
                            self.add_blossom(base, k)
                            bv = inblossom[v]
                            full = True
                            limit = bestslack[bv] - dv if bestedge[bv] != -1 else INFINITY
                        else:
                            self.augment_matching(k)
                            return True
                    elif label[w] == 0:
                        label[w] = 2
                        labelend[w] = p ^ 1
            if not self.adjust_duals():
                return False

    def best_free_edge(self, v: int, bv: int) -> int:
        """Of v's edges to free vertices outside its blossom, the one of least slack, the first in
        `incident` among equals; -1 when there is none.

        Every free vertex is an S vertex at every stage and all of their duals are equal (each dual
        step moves them all by the same amount, from the same start), so that edge is the heaviest
        and, when it is tight, every tight edge to a free vertex comes at or after it in
        `incident`. The scan of v reads it alone of those edges, with the same outcome as reading
        them all: its best edge is the first of least slack, and its first tight edge is this one."""
        mate, inblossom = self.mate, self.inblossom
        entries = self.heaviest[v]
        i = self.heaviest_from[v]
        end = len(entries)
        while i < end and mate[entries[i][2]] >= 0:
            i += 1
        self.heaviest_from[v] = i
        while i < end:
            _, k, w = entries[i]
            if mate[w] < 0 and inblossom[w] != bv:
                return k
            i += 1
        return -1

    def adjust_duals(self) -> bool:
        """The largest dual step that keeps every constraint, and what it makes possible; False
        when a vertex dual reaches zero (the matching is then optimal)."""
        n, label, inblossom, dualvar = self.n, self.label, self.inblossom, self.dualvar
        bestedge, bestslack, blossomparent = self.bestedge, self.bestslack, self.blossomparent
        kind, delta, edge, blossom = 1, min(dualvar[:n]), -1, -1
        tops = [label[b] for b in inblossom]        # each vertex's top-level blossom's label
        free = [v for v, top in enumerate(tops) if top == 0 and bestedge[v] != -1]
        blossoms = [b for b in sorted(self.liveblossoms) if blossomparent[b] == -1]
        outer = [v for v in range(n) if blossomparent[v] == -1 and tops[v] == 1 and bestedge[v] != -1]
        outer += [b for b in blossoms if label[b] == 1 and bestedge[b] != -1]
        if free:                        # the first of least slack, as a scan in order would take
            v = min(free, key=bestslack.__getitem__)
            if bestslack[v] < delta:
                kind, delta, edge = 2, bestslack[v], bestedge[v]
        for b in outer:
            d = bestslack[b] // 2
            if d < delta:
                kind, delta, edge = 3, d, bestedge[b]
        for b in blossoms:
            if label[b] == 2 and dualvar[b] < delta:
                kind, delta, blossom = 4, dualvar[b], b
        dualvar[:n] = [d - delta if top == 1 else d + delta if top == 2 else d for d, top in zip(dualvar, tops)]
        for b in blossoms:
            if label[b] == 1:
                dualvar[b] += delta
            elif label[b] == 2:
                dualvar[b] -= delta
        for v in free:                  # an S end moved by delta, the free end not
            bestslack[v] -= delta
        for b in outer:                 # both ends S
            bestslack[b] -= 2 * delta
        if kind == 1:
            return False
        if kind == 2:
            self.allowedge[edge] = True
            i, j = self.endpoint[2 * edge], self.endpoint[2 * edge + 1]
            self.queue.append(i if label[inblossom[i]] != 0 else j)
        elif kind == 3:
            self.allowedge[edge] = True
            self.queue.append(self.endpoint[2 * edge])
        else:
            self.expand_blossom(blossom, False)
        return True
