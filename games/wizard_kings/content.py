"""Wizard Kings content as data: the seven armies' blocks and each army's spell list.

The rulebook prints no army lists, spells or rites (2.0 only says each army has 8 blocks: a
wizard, cheap blocks, better ones and a castle, "roughly equal in strength"). They are designed in
``data/armies.json`` with the reasons in docs/rules/wizard-kings.md. This module loads and checks
them; the engine reads blocks through ``kind_of``.

A block kind: ``rating`` is a letter and a hit number ("B2": fires in the B turn, hits on 1-2;
2.12), or "A+"/"B+" for a wizard (2.2: casts before the other blocks of its letter, never fires);
``max`` its full strength in steps (2.11, 1-4), ``move`` hexes a turn (2.13; 0: a castle, 2.4),
``cost`` gold a step (2.14), ``count`` the copies an army has, ``traits`` from TRAITS.

A spell: ``level`` 1-3 (its cost in steps, 2.22), ``phase`` "battle" or "move" (2.22), ``effect``
from EFFECTS with its parameters:
- strike {dice, fire}: roll dice@F against one enemy block the caster names (5.33);
- storm {dice, fire}: roll dice@F, each hit to the strongest enemy block (5.32);
- heal {steps}: add steps to friendly blocks in the caster's hex, the weakest first;
- rout {}: one named enemy block (not a castle, 2.4) must retreat at once;
- teleport {range}: move phase; one friendly block of the caster's hex (not a castle) moves to a
  friendly hex at most ``range`` hexes away, ignoring terrain.
No spell removes an enemy block's last step (5.34); 1-step castles are immune (5.34).
"""
from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ARMIES_FILE = Path(__file__).resolve().parent / "data" / "armies.json"
EXTRAS_FILE = Path(__file__).resolve().parent / "data" / "extras.json"

NATIVE = ("forest", "mountain", "desert", "amphibian", "city")
TRAITS = NATIVE + ("flyer", "castle", "wizard", "cleric", "chaos", "water", "hero", "haven",
                   "lycanthrope", "treasure")
EFFECTS = {"strike": {"dice", "fire"}, "storm": {"dice", "fire"}, "heal": {"steps"},
           "rout": set(), "teleport": {"range"}}
LETTERS = ("A", "B", "C", "D")
_RATING = re.compile(r"^([A-D])([1-6]|\+)$")


class ContentError(ValueError):
    """armies.json breaks the format (the message names the army, block or spell)."""


@dataclass(frozen=True)
class Kind:
    """A kind of block of an army (2.1)."""

    key: str          # "elves/pixie"
    army: str
    name: str
    letter: str       # A, B, C or D
    fire: int         # hit number; 0 for a wizard (A+/B+ cast, never fire)
    max: int
    move: int
    cost: int
    count: int
    traits: frozenset
    rites: tuple = ()        # a cleric's rites (2.36), keys of extras.json's "rites"

    @property
    def rating(self) -> str:
        if self.treasure:
            return "-"
        return f"{self.letter}{'+' if self.wizard else self.fire}"

    @property
    def treasure(self) -> bool:
        """2.6: silver or gold: carries gold, never fires (D31)."""
        return "treasure" in self.traits

    @property
    def wizard(self) -> bool:
        return "wizard" in self.traits

    @property
    def castle(self) -> bool:
        return "castle" in self.traits

    @property
    def flyer(self) -> bool:
        return "flyer" in self.traits

    def native(self, terrain: str) -> bool:
        """2.31-2.35: a native of this terrain (a swamp's natives are the amphibians)."""
        wanted = "amphibian" if terrain == "swamp" else terrain
        return wanted in self.traits


@dataclass(frozen=True)
class Spell:
    """A spell of an army's list (2.21)."""

    key: str          # "elves/thorns"
    army: str
    name: str
    level: int
    phase: str
    effect: str
    dice: int = 0
    fire: int = 0
    steps: int = 0
    range: int = 0


DISPEL = Spell("dispel", "", "Dispel Magic", 1, "battle", "dispel")


@dataclass(frozen=True)
class Army:
    key: str
    title: str
    colour: str
    kinds: tuple[Kind, ...]
    spells: tuple[Spell, ...]


def _kind(army: str, raw: dict) -> Kind:
    where = f"army {army}, block {raw.get('kind')!r}"
    traits = frozenset(raw.get("traits", []))
    if "treasure" in traits:                            # 2.6: no combat rating (D31)
        if raw.get("rating") != "-" or traits != {"treasure"}:
            raise ContentError(f"{where}: treasure has the rating '-' and no other trait (2.6)")
        raw = {**raw, "rating": "D1"}                   # letter D: the last turn of a round
    match = _RATING.match(str(raw.get("rating", "")))
    if not match:
        raise ContentError(f"{where}: rating must be a letter A-D and a hit number or '+'")
    unknown = sorted(traits - set(TRAITS))
    if unknown:
        raise ContentError(f"{where}: unknown traits {unknown}")
    if (match.group(2) == "+") != ("wizard" in traits):
        raise ContentError(f"{where}: A+/B+ is the mark of a wizard and only of a wizard (2.2)")
    if not 1 <= raw["max"] <= 4 or not 0 <= raw["move"] <= 4 or raw["cost"] < 1:
        raise ContentError(f"{where}: max 1-4 (2.11), move 0-4, cost >= 1")
    if bool(traits & {"castle", "haven"}) != (raw["move"] == 0):
        raise ContentError(f"{where}: castles and havens, and only they, never move (2.4, 2.39)")
    if "hero" in traits and raw["max"] != 1:
        raise ContentError(f"{where}: a hero has one step (2.8)")
    if raw.get("rites") and "cleric" not in traits:
        raise ContentError(f"{where}: only clerics know rites (2.36)")
    return Kind(f"{army}/{raw['kind']}", army, raw["name"], match.group(1),
                0 if match.group(2) == "+" or "treasure" in traits else int(match.group(2)),
                raw["max"], raw["move"],
                raw["cost"], raw.get("count", 1), traits, tuple(raw.get("rites", ())))


def _spell(army: str, raw: dict) -> Spell:
    where = f"army {army}, spell {raw.get('key')!r}"
    effect = raw.get("effect")
    if effect not in EFFECTS:
        raise ContentError(f"{where}: effect must be one of {sorted(EFFECTS)}")
    params = set(raw) - {"key", "name", "level", "phase", "effect", "why"}
    if params != EFFECTS[effect]:
        raise ContentError(f"{where}: a {effect} spell takes {sorted(EFFECTS[effect])}")
    if raw.get("phase") not in ("battle", "move") or raw.get("level") not in (1, 2, 3):
        raise ContentError(f"{where}: phase battle|move, level 1-3 (2.21)")
    if (effect == "teleport") != (raw["phase"] == "move") and effect != "heal":
        raise ContentError(f"{where}: teleport is a move-phase spell; strike, storm and rout "
                           f"are battle spells")
    return Spell(f"{army}/{raw['key']}", army, raw["name"], raw["level"], raw["phase"], effect,
                 **{k: raw[k] for k in EFFECTS[effect]})


@lru_cache(maxsize=4)
def armies(path: str = str(ARMIES_FILE)) -> dict[str, Army]:
    """Every army by key, checked: 8 blocks with one wizard and a castle (2.0), three level-1
    spells, two level-2 and one level-3 (2.21)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    result = {}
    for key, raw in data["armies"].items():
        kinds = tuple(_kind(key, b) for b in raw["blocks"])
        spells = tuple(_spell(key, s) for s in raw["spells"])
        where = f"army {key}"
        if sum(k.count for k in kinds) != 8:
            raise ContentError(f"{where}: 2.0 gives every army 8 blocks, not "
                               f"{sum(k.count for k in kinds)}")
        if sum(k.count for k in kinds if k.wizard) != 1 or not any(k.castle for k in kinds):
            raise ContentError(f"{where}: one wizard and a castle (2.0)")
        levels = sorted(s.level for s in spells)
        if levels != [1, 1, 1, 2, 2, 3]:
            raise ContentError(f"{where}: 2.21 gives three level-1, two level-2 and one level-3 "
                               f"spell, not levels {levels}")
        result[key] = Army(key, raw["title"], raw["colour"], kinds, spells)
    return result


@dataclass(frozen=True)
class Extras:
    """The blocks of the Heroes & Treasures expansion (2.0, footnote 3: per army two more
    blocks, and seven chaos blocks any army may add), the clerics' rites (2.36) and the moon
    (2.5)."""

    chaos: tuple[Kind, ...]
    expansion: dict            # army -> tuple of Kind
    rites: dict                # key -> Spell (effect strike, storm, heal or rout)
    moon: tuple[str, ...]      # the phases, one a turn in a cycle
    moon_fire: dict            # phase -> change of a lycanthrope's hit number
    treasure: tuple = ()       # 2.6: silver and gold (Kind, army "treasure"), any army's
    artefacts: dict = dataclasses.field(default_factory=dict)  # army -> tuple of Artefact


@dataclass(frozen=True)
class Artefact:
    """2.7: a magic weapon (``rating``: the carrier fires as it) or a magic artefact (the
    carrier casts its army's battle spells up to ``level``); ``max`` charges, ``cost`` a charge."""

    key: str          # "elves/starbow"
    army: str         # its colours (footnote 5)
    name: str
    type: str         # "weapon" or "magic"
    max: int
    cost: int
    letter: str = ""  # a weapon's rating
    fire: int = 0
    level: int = 0    # a magic artefact's highest spell level

    @property
    def rating(self) -> str:
        return f"{self.letter}{self.fire}" if self.type == "weapon" else f"L{self.level}"


def _artefact(army: str, raw: dict) -> Artefact:
    where = f"artefact {army}/{raw.get('key')}"
    if raw.get("type") == "weapon":
        match = _RATING.match(str(raw.get("rating", "")))
        if not match or match.group(2) == "+" or "level" in raw:
            raise ContentError(f"{where}: a weapon has a rating (a letter and a hit number, 2.7)")
        extra = {"letter": match.group(1), "fire": int(match.group(2))}
    elif raw.get("type") == "magic":
        if raw.get("level") not in (1, 2, 3) or "rating" in raw:
            raise ContentError(f"{where}: a magic artefact has a spell level 1-3 (2.7)")
        extra = {"level": raw["level"]}
    else:
        raise ContentError(f"{where}: type is 'weapon' or 'magic' (2.7)")
    if not 1 <= raw.get("max", 0) <= 4 or raw.get("cost", 0) < 1:
        raise ContentError(f"{where}: max 1-4 charges, cost >= 1")
    return Artefact(f"{army}/{raw['key']}", army, raw["name"], raw["type"], raw["max"],
                    raw["cost"], **extra)


@lru_cache(maxsize=4)
def extras(path: str = str(EXTRAS_FILE)) -> Extras:
    """The expansion's blocks, the rites and the moon, checked (none if the file is absent)."""
    if not Path(path).exists():
        return Extras((), {}, {}, ("new",), {})
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    chaos = tuple(_kind("chaos", b) for b in data["chaos"])
    for kind in chaos:
        if "chaos" not in kind.traits or kind.count != 1 or kind.wizard:
            raise ContentError(f"chaos block {kind.key}: one copy, trait chaos, no wizard (2.5)")
    if len(chaos) != 7:
        raise ContentError(f"footnote 3: seven chaos blocks, not {len(chaos)}")
    expansion = {army: tuple(_kind(army, b) for b in blocks)
                 for army, blocks in data["expansion"].items()}
    for army, kinds in expansion.items():
        if sum(k.count for k in kinds) != 2 or any(k.wizard for k in kinds):
            raise ContentError(f"footnote 3: two expansion blocks for {army}, no wizard")
    rites = {}
    for raw in data["rites"]:
        spell = _spell("rite", {**raw, "level": 1, "phase": "battle"})
        if spell.effect == "teleport":
            raise ContentError(f"rite {raw['key']}: rites are battle acts (2.36)")
        rites[spell.key] = spell
    moon = data["moon"]
    treasure = tuple(_kind("treasure", b) for b in data.get("treasure", {}).get("blocks", ()))
    if any(not k.treasure for k in treasure):
        raise ContentError("2.6: the treasure blocks are silver and gold, trait treasure")
    artefacts = {army: tuple(_artefact(army, a) for a in items)
                 for army, items in data.get("artefacts", {}).get("armies", {}).items()}
    for army, items in artefacts.items():
        if army not in armies() or len({a.key for a in items}) != len(items):
            raise ContentError(f"artefacts of {army!r}: an army of armies.json, each once")
    return Extras(chaos, expansion, rites, tuple(moon["phases"]), dict(moon["fire"]),
                  treasure, artefacts)


@lru_cache(maxsize=None)
def kind_of(key: str) -> Kind:
    """The block kind "army/kind" (or "chaos/kind")."""
    army, _, _ = key.partition("/")
    more = extras()
    kinds = (more.chaos if army == "chaos" else more.treasure if army == "treasure"
             else armies()[army].kinds + more.expansion.get(army, ()))
    for kind in kinds:
        if kind.key == key:
            return kind
    raise KeyError(key)


@lru_cache(maxsize=None)
def spell_of(key: str) -> Spell:
    """A spell by key ("dispel", "army/spell" or a rite "rite/key")."""
    if key == "dispel":
        return DISPEL
    army, _, _ = key.partition("/")
    if army == "rite":
        return extras().rites[key]
    for spell in armies()[army].spells:
        if spell.key == key:
            return spell
    raise KeyError(key)


@lru_cache(maxsize=None)
def artefact_of(key: str) -> Artefact:
    """An artefact by key ("army/key")."""
    army, _, _ = key.partition("/")
    for item in extras().artefacts.get(army, ()):
        if item.key == key:
            return item
    raise KeyError(key)


def army_keys() -> list[str]:
    """The seven armies in the order of 2.0."""
    return list(armies())
