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


# Wizard Kings (docs/rules/wizard-kings.md, For bot authors): in battle fire (or cast) rather
# than pass or retreat and give hits to the block with most steps; in the move phase march
# towards cities it does not control, richest first (each block at most once a turn); recruit
# and build the dearest kinds it may.
RATING_ORDER = ["A+", "A", "B+", "B", "C", "D"]


def choose(view, legal, seat):
    phase = need(view, "phase")
    me = need(view, "seat")
    blocks = need(view, "blocks")
    by_id = {need(b, "id"): b for b in blocks}
    by_type = {}
    for a in legal:
        by_type.setdefault(a.get("type"), []).append(a)
    if phase == "battle":
        for kind in ("fire", "wield", "berserk", "cast", "invoke", "rite", "pursue", "dispel",
                     "stay", "keep"):
            if kind in by_type:
                return by_type[kind][0]
        if "hit" in by_type:
            return max(by_type["hit"], key=lambda a: by_id.get(a["block"], {}).get("steps", 0))
        if "regroup" in by_type and "done" in by_type:
            return by_type["done"][0]
        return legal[0]
    if phase == "move":
        cities = need(view, "cities")
        board_cities = need(view, "board", "cities")
        targets = {hex_: need(board_cities, hex_, "gold") for hex_, c in cities.items()
                   if need(c, "controller") != me}
        moves = [a for a in by_type.get("move", []) if a["to"] in targets and "by" not in a
                 and not need(by_id, a["block"], "moved")]
        if moves:
            return max(moves, key=lambda a: targets[a["to"]])
        if "done" in by_type:
            return by_type["done"][0]
        return legal[0]
    if phase in ("recruit", "build"):
        kinds = need(view, "army", "kinds")
        recruits = [a for a in by_type.get("recruit", []) if a["kind"] in kinds]
        if recruits:
            return max(recruits, key=lambda a: need(kinds, a["kind"], "cost"))
        if "add" in by_type:
            return by_type["add"][0]
        if "done" in by_type:
            return by_type["done"][0]
    return legal[0]


if __name__ == "__main__":
    run(choose)
