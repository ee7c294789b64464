"""Sorcado as it stood at an older version, for the matches stored under it (Ruleset.edition).

Version 1 differed from version 2 in three ways, all recorded in docs/rules/sorcado.md:
a look A.2 freed did not count toward A.1 (the reading option freed_look="s1-and-a1" of D25
keeps), a tie replayed only when asked (tie="shared" by default; stored matches name their
``tie`` anyway, every option is written into match_created), and ``history`` held each tied
game's scores only. The edition plays by the version 2 rules with freed_look fixed to
"s1-and-a1" and gives its states and views the version 1 shape, so a version 1 log, its
snapshots and its replay views fold exactly as they were written.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.engine.protocol import option

from . import SPEC, Options, Sorcado


@dataclass(frozen=True)
class OptionsV1(Options):
    """Version 1's options: no freed_look (its reading fixed), shared ties by default."""

    tie: str = option("shared", "E.2, D18: a tie for first is a shared victory, or play-again "
                      "plays a new game (at most `replays` times)", choices=("shared", "play-again"))
    freed_look: str = option("s1-and-a1", "version 1: a look A.2 frees leaves A.1's limit too",
                             choices=("s1-and-a1",))


class SorcadoV1(Sorcado):
    """Version 1: the version 2 rules with freed_look="s1-and-a1", in version 1's shape."""

    spec = dataclasses.replace(SPEC, version=1)
    Options = OptionsV1

    def options_json(self, options) -> dict:
        data = dataclasses.asdict(options)
        del data["freed_look"]
        return data

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        del data["freed"], data["options"]["freed_look"], data["content"]
        data["history"] = [game["scores"] for game in data["history"]]
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        state["options"] = dataclasses.asdict(self.options(state["options"]))
        state["freed"] = []  # only read under freed_look="s1-only"
        state["content"] = 1  # version 1's cards (content.CONTENT)
        state["history"] = [{"scores": scores} for scores in state["history"]]
        return state

    def view(self, state: dict, seat: int | None) -> dict:
        view = super().view(state, seat)
        del view["options"]["freed_look"]
        view["history"] = [game["scores"] for game in view["history"]]
        return view


SORCADO_V1 = SorcadoV1()
