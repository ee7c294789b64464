"""A bot written from the documentation only (docs/protocol.md, docs/rules). Standard library only."""
import json
import sys

MARK = "MISSING-DOC-FIELD"


class Missing(Exception):
    pass


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def need(obj, *path):
    """Read a documented field; raise Missing (logged by main) if the real view lacks it."""
    cur = obj
    for key in path:
        if isinstance(cur, dict) and key in cur:
            cur = cur[key]
        elif isinstance(cur, list) and isinstance(key, int) and 0 <= key < len(cur):
            cur = cur[key]
        else:
            raise Missing(".".join(str(p) for p in path))
    return cur


def run(choose):
    hello = {}
    stats = {"acts": 0, "fallbacks": 0}
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            hello = msg
            log(f"hello: {msg.get('game')} v{msg.get('version')} seat {msg.get('seat')} "
                f"of {msg.get('players')}")
        elif kind == "act":
            legal = msg["legal_actions"]
            stats["acts"] += 1
            try:
                action = choose(msg["view"], legal, msg.get("seat", hello.get("seat")))
                if action not in legal:
                    log("BOT-ERROR: chose an action not in legal_actions:", action)
                    action = legal[0]
            except Missing as exc:
                log(f"{MARK}: {exc} (phase/type: {msg['view'].get('phase') if isinstance(msg['view'], dict) else '?'})")
                stats["fallbacks"] += 1
                action = legal[0]
            except Exception as exc:  # never fault: log and play the first legal action
                log(f"BOT-ERROR: {type(exc).__name__}: {exc}")
                stats["fallbacks"] += 1
                action = legal[0]
            sys.stdout.write(json.dumps({"action": action}) + "\n")
            sys.stdout.flush()
        elif kind == "result":
            log(f"result: {msg.get('result')} acts={stats['acts']} fallbacks={stats['fallbacks']}")
            return


# Sorcado (docs/rules/sorcado.md, Views): look at positions it does not know yet, lay its
# strongest mage card beside the emptiest slot, ban the strongest known monster, swap only
# when it knows the cards.
def power(cards, card):
    return need(cards, card, "power")


def choose(view, legal, seat):
    phase = need(view, "phase")
    known = need(view, "known")
    cards = need(view, "cards")
    types = {a.get("type") for a in legal}
    if phase in ("look", "divine"):
        unknown = [a for a in legal if "pos" in a and need(known, a["pos"]) is None]
        return (unknown or legal)[0]
    if phase == "place":
        hand = need(view, "hand")
        slots = need(view, "slots")
        places = [a for a in legal if a.get("type") == "place"]
        if places:
            top = max(hand, key=lambda c: power(cards, c))
            best = [a for a in places if a["card"] == top] or places
            return min(best, key=lambda a: len(need(slots, a["slot"])))
    if phase == "ban":
        bans = need(view, "bans")
        cands = []
        for a in legal:
            if a.get("type") == "ban" and need(bans, a["pos"]) is None:
                card = need(known, a["pos"])
                if card is not None and need(cards, card, "kind") == "monster":
                    cands.append((need(cards, card, "strength"), a))
        if cands:
            return max(cands, key=lambda x: x[0])[1]
        if "pass" in types:
            return next(a for a in legal if a.get("type") == "pass")
    if phase == "swap":
        looked = need(view, "looked")
        values = [need(cards, known[p], "strength") if known[p] else None for p in looked]
        if "swap" in types and len(values) == 2 and None not in values and values[0] != values[1]:
            return next(a for a in legal if a.get("type") == "swap")
        if "keep" in types:
            return next(a for a in legal if a.get("type") == "keep")
    if phase == "transpose" and "keep" in types:
        return next(a for a in legal if a.get("type") == "keep")
    if phase == "faction":
        factions = need(view, "factions")
        free = [a for a in legal if a.get("faction") not in factions]
        return (free or legal)[0]
    return legal[0]


if __name__ == "__main__":
    run(choose)
