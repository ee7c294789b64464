"""Wizard Kings' direct checks (issue 42, item 5) against the listing they stand for, on the
states of random playouts, legal and illegal candidates alike: ``rules.surely_legal`` (a plain
move asked of itself by ``movement.plain_move_listed``, done in the move phase) accepts only
actions the listing holds, and accepts every plain move into a hex of the seat's own or
nobody's; ``refusal`` answers with it exactly as from the listing alone (the same reasons);
a build check's candidates for one recruit, add, disband, combine or spend (``build.options``
with ``only``) hold that action exactly when the whole listing does."""
from __future__ import annotations

import pytest

import games.wizard_kings as wk
from games.wizard_kings import build, rules
from games.wizard_kings.content import kind_of
from games.wizard_kings.movement import _within
from games.wizard_kings.state import board, is_enemy
from tests.games.playouts import playout_states


def _listed(state, seat):
    return rules.options_for(state, seat)


def _candidates(state, seat):
    """Every listed action of the seat, plain moves of every block (the seat's and others')
    to every hex near it, some malformed ones, and done."""
    found = [dict(a) for a in _listed(state, seat)]
    b = board(state)
    for bid, blk in sorted(state["blocks"].items()):
        if blk["hex"] is None:
            continue
        reach = kind_of(blk["kind"]).move + 2
        for to in sorted(_within(blk["hex"], reach)):
            found.append({"type": "move", "block": bid, "to": to})
        found.append({"type": "move", "block": bid, "to": blk["hex"]})
    found += [{"type": "done"}, {"type": "done", "x": 1}, {"type": "move", "block": "nope",
                                                           "to": sorted(b.terrain)[0]},
              {"type": "move", "block": ["list"], "to": "0101"},
              {"type": "move", "block": sorted(state["blocks"])[0], "to": 101}]
    return found


def _slow_refusal(state, seat, action, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(rules, "surely_legal", lambda *args: False)
        return wk.refusal(state, seat, action)


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (5, 13)])
def test_a_move_checked_directly_is_refused_exactly_as_by_the_listing(players, seed, monkeypatch):
    """4.2-4.8: a plain move accepted directly is one the listing holds; every listed plain
    move into a hex of the seat's own or nobody's (no battle there) is accepted directly; the
    refusal of every candidate is the listing's, word for word."""
    accepted = refused = 0
    for index, state in enumerate(playout_states("wizard-kings", players, seed)):
        if state["phase"] != "move" or index % 3:
            continue
        for seat in rules.acting_seats(state):
            listed = _listed(state, seat)
            for action in _candidates(state, seat):
                quick = rules.surely_legal(state, seat, action)
                if quick:
                    assert action in listed, (action, state["turn"])
                    accepted += 1
                elif (action in listed and action.keys() == {"type", "block", "to"}
                      and state.get("scenario") is None and action["to"] not in state["fights"]
                      and not is_enemy(state, action["to"], seat)):
                    raise AssertionError(f"a plain legal move not accepted directly: {action}")
                fast = wk.refusal(state, seat, action)
                assert fast == _slow_refusal(state, seat, action, monkeypatch), action
                refused += fast is not None
    assert accepted > 100 and refused > 100            # both answers were put to the test


def _build_candidates(state, seat):
    """Recruits of every kind in every city, adds, disbands, combines and spends of every
    block of the seat's draft, and unknown ones, malformed ones and done."""
    blocks = sorted(state["drafts"][str(seat)]["blocks"]) + ["nope"]
    candidates = [{"type": "disband", "block": bid} for bid in blocks]
    candidates += [{"type": "combine", "from": a, "to": c} for a in blocks for c in blocks]
    candidates += [{"type": "spend", "block": bid} for bid in blocks]
    kinds = sorted({blk["kind"] for blk in state["blocks"].values()}
                   | set(build.pool(state, seat))) + ["nope"]
    cities = sorted(board(state).cities) + ["nope"]
    candidates += [{"type": "recruit", "kind": k, "hex": h} for k in kinds for h in cities]
    candidates += [{"type": "add", "block": bid} for bid in blocks]
    candidates += [{"type": "recruit", "kind": ["x"], "hex": "x"},
                   {"type": "recruit", "kind": "x", "hex": {"x": 1}}]
    candidates += [{"type": "done"}, {"type": "disband", "block": ["x"]},
                   {"type": "combine", "from": {"a": 1}, "to": "x"},
                   {"type": "done", "x": 1}, {"type": "disband", "block": blocks[0], "x": 1},
                   {"type": "add", "block": blocks[0], "hex": "x"}]
    return candidates


@pytest.mark.parametrize("players,seed", [(2, 16), (4, 17)])
def test_a_build_checked_directly_is_refused_exactly_as_by_the_listing(players, seed,
                                                                       monkeypatch):
    """6.2-6.6, D34: a build action accepted directly (``build.surely_listed``) is one the
    listing holds; every listed recruit, add, disband, combine and done after setup is
    accepted directly; the refusal of every candidate is the listing's, word for word."""
    accepted = refused = 0
    for index, state in enumerate(playout_states("wizard-kings", players, seed)):
        if state["phase"] not in ("recruit", "build") or index % 5:
            continue
        for seat in rules.acting_seats(state):
            listed = _listed(state, seat)
            setup = state["drafts"][str(seat)]["setup"]
            for action in _build_candidates(state, seat):
                quick = rules.surely_legal(state, seat, action)
                if quick:
                    assert action in listed, (action, state["turn"])
                    accepted += 1
                elif action in listed and not setup and action["type"] != "spend":
                    raise AssertionError(f"a legal build action not accepted directly: {action}")
                fast = wk.refusal(state, seat, action)
                assert fast == _slow_refusal(state, seat, action, monkeypatch), action
                refused += fast is not None
    assert accepted > 100 and refused > 100            # both answers were put to the test


@pytest.mark.parametrize("players,seed", [(2, 14), (4, 15)])
def test_a_build_checked_alone_is_found_as_in_the_whole_listing(players, seed):
    """6.2-6.5, D30, 1.22: the candidates of one recruit (that kind in that city), add,
    disband, combine or spend (or done) hold it exactly when the whole build listing does; those
    like a recruit in a city of any kind (determinize's) are the whole listing's."""
    asked = held = 0
    for index, state in enumerate(playout_states("wizard-kings", players, seed)):
        if state["phase"] not in ("recruit", "build") or index % 2:
            continue
        for seat in build.waiting(state):
            whole = build.options(state, seat)
            blocks = sorted(state["drafts"][str(seat)]["blocks"]) + ["nope"]
            cities = sorted(board(state).cities) + ["nope"]
            for action in _build_candidates(state, seat):
                alone = [a for a in build.options(state, seat, action) if a == action]
                assert alone == [a for a in whole if a == action], action
                asked += 1
                held += bool(alone)
            for like in [{"type": "recruit", "hex": h} for h in cities] + [
                    {"type": "add", "block": bid} for bid in blocks]:   # determinize's asking
                assert ([a for a in build.options(state, seat, like)
                         if all(a.get(k) == v for k, v in like.items())]
                        == [a for a in whole if all(a.get(k) == v for k, v in like.items())]), like
    assert held > 50 and asked - held > 50
