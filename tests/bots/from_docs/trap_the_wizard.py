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


# Trap the Wizard (docs/rules/trap-the-wizard.md, section 8): prefer bringing captives home,
# then capturing enemy wizards (not on special fields unless carrying the joker), then the
# centre joker; after a six roll again.
def choose(view, legal, seat):
    state = need(view, "state")
    fields = need(state, "fields")
    captives = need(state, "captives")
    wizards = need(state, "options", "wizards")
    joker = need(view, "joker")
    homes = need(view, "board", "homes")
    board_fields = need(view, "board", "fields")
    kinds = {need(f, "id"): need(f, "kind") for f in board_fields}
    mine = set(range(seat * wizards, seat * wizards + wizards))

    def score(action):
        t = action.get("type")
        if t == "roll":
            return 5
        if t == "pass":
            return -1
        if t != "move":
            return -2
        w, to = action["wizard"], action["to"]
        carried = captives[w] if w < len(captives) else []
        s = 0
        if to == homes[seat] and any(c not in mine and c != joker for c in carried):
            s += 100 + 10 * len(carried)
        with_joker = joker in carried
        enemies = [p for p, f in enumerate(fields) if f == to and p not in mine and p != joker]
        if enemies and (kinds.get(to) != "special" or with_joker):
            s += 20 * len(enemies)
        if fields[joker] == to if joker < len(fields) else False:
            s += 8
        return s

    best = max(range(len(legal)), key=lambda i: (score(legal[i]), -i))
    return legal[best]


if __name__ == "__main__":
    run(choose)
