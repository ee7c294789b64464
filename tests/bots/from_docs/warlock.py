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


# Warlock (docs/rules/warlock.md, For bot authors / Content): duels while it has energy, picks
# and redirects towards the wizard with least energy, attacks and defends with the cheapest
# affordable spell (cost table of the Content section), returns from limbo when it can afford it.
COST = {"lightning": 8, "thunderclap": 6, "cannon": 7, "darkness": 5, "invisibility": 5,
        "petrify": 9, "vacuum": 6, "wings": 3, "shield": 4, "mirror": 6, "witch": 6,
        "priest": 5, "holy-staff": 4, "crows": 5, "dwarves": 5, "goblins": 4, "trolls": 6,
        "giant": 8, "dragon": 11, "black-knight": 5, "white-knight": 5, "hero": 4,
        "super-hero": 7, "anti-hero": 4, "siren-song": 4, "swordsman": 6, "magic-spear": 3,
        "golden-sword": 4, "black-sword": 4, "magic-trident": 4, "magic-sword": 4, "magic-bow": 3}


def spell_of(card):
    # "The spell of a card id is the text between `WL-` and the last `-`."
    return card[3:card.rfind("-")]


def cost(cards):
    total = 0
    for c in cards:
        key = spell_of(c)
        if key not in COST:
            raise Missing(f"Content table has no spell '{key}' (card {c})")
        total += COST[key]
    return total


def choose(view, legal, seat):
    phase = need(view, "phase")
    me = need(view, "seat")
    energy = need(view, "energy")
    hand = need(view, "hand")
    mine = need(energy, me)
    by_type = {}
    for a in legal:
        by_type.setdefault(a.get("type"), []).append(a)
    if "decide" in by_type:
        want = "duel" if mine >= 60 and len(hand) >= 2 else "learn"
        return next((a for a in by_type["decide"] if a.get("choice") == want), by_type["decide"][0])
    for kind in ("pick", "redirect"):
        if kind in by_type:
            return min(by_type[kind], key=lambda a: need(energy, a["victim"]))
    if "return" in by_type or "wait" in by_type:
        if "return" in by_type and mine > 60:
            return by_type["return"][0]
        if "wait" in by_type:
            return by_type["wait"][0]
    for kind in ("attack", "defend", "conjure"):
        if kind in by_type:
            opts = [a for a in by_type[kind] if a.get("cards") and cost(a["cards"]) < mine]
            if opts:
                return min(opts, key=lambda a: cost(a["cards"]))
    if "swap" in by_type:
        if "stop" in by_type:
            return by_type["stop"][0]
        return max(by_type["swap"], key=lambda a: cost([a["card"]]))
    if "influence" in by_type:
        decision = need(view, "decision")
        return next((a for a in by_type["influence"] if a.get("choice") == "pass"), by_type["influence"][0]) \
            if decision is not None else by_type["influence"][0]
    if "mock" in by_type:
        return by_type["mock"][0]
    return legal[0]


if __name__ == "__main__":
    run(choose)
