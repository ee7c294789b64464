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


# Imperial Twing (docs/rules/imperial-twing.md, The view / Content): card ids carry element and
# power. Buys objects when it can, attacks the seat with the smallest hand when it holds spells,
# lays its strongest spell (own element first), re-rolls bad dice with a cat.
def card_power(card):
    parts = card.split("-")
    if card.startswith("SP-") and len(parts) == 3:
        return int("".join(ch for ch in parts[2] if ch.isdigit()) or 0)
    if (card.startswith("CR-") or card.startswith("MT-")) and len(parts) >= 3:
        return int(parts[2]) if parts[2].isdigit() else 0
    return 0


def card_element(card):
    parts = card.split("-")
    return parts[1] if len(parts) >= 3 and parts[0] in ("SP", "CR", "MT") else None


def first(legal, kind):
    return next((a for a in legal if a.get("type") == kind), None)


def choose(view, legal, seat):
    phase = need(view, "phase")
    me = need(view, "seat")
    hand = need(view, "hand")
    element = need(view, "characters", me)
    if phase == "action":
        objects = need(view, "active_objects", me)
        if len(objects) >= 3:
            for kind in ("endgame_attack", "begin_endgame"):
                if first(legal, kind):
                    return first(legal, kind)
        if first(legal, "buy"):
            return first(legal, "buy")
        spells = [c for c in hand if c.startswith("SP-")]
        attacks = [a for a in legal if a.get("type") == "attack"]
        if attacks and sum(card_power(c) for c in spells) >= 6:
            sizes = need(view, "hand_sizes")
            return min(attacks, key=lambda a: sizes[a["target"]])
        if first(legal, "pass"):
            return first(legal, "pass")
    if phase == "commit":
        fight = need(view, "fight")
        sides = need(fight, "sides")
        laid = next((s for s in sides if s.get("seat") == me), {})
        spells_laid = len(laid.get("spells") or [])
        spells = [a for a in legal if a.get("type") == "spell"]
        if spells and spells_laid < 3:
            return max(spells, key=lambda a: (card_power(a["card"]), card_element(a["card"]) == element))
        creatures = [a for a in legal if a.get("type") == "creature"]
        if creatures:
            return max(creatures, key=lambda a: card_power(a["card"]) + card_power(a.get("rider", "")))
        if first(legal, "done"):
            return first(legal, "done")
    if phase == "limit":
        colours = [a for a in legal if a.get("type") == "discard_colour"]
        if colours:
            other = [a for a in colours if a["element"] != element]
            return (other or colours)[0]
        spells = [a for a in legal if a.get("type") == "discard_spell"]
        if spells:
            return min(spells, key=lambda a: card_power(a["card"]))
    if phase == "respond":
        fight = need(view, "fight")
        mine = next((s for s in need(fight, "sides") if s.get("seat") == me), None)
        die = mine.get("die") if mine else None
        bad = die == "cross" or (isinstance(die, int) and die < 0)
        if bad:
            for kind in ("reroll", "cat"):
                if first(legal, kind):
                    return first(legal, kind)
        if first(legal, "pass"):
            return first(legal, "pass")
    if phase == "character":
        chars = [a for a in legal if a.get("type") == "character"]
        if chars:
            return chars[0]
    return legal[0]


if __name__ == "__main__":
    run(choose)
