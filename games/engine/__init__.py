"""The engine contract, chance derivation, the event log and the registry (no Django here)."""
from .protocol import (Chance, Ended, Event, GameSpec, IllegalAction, InvalidOptions, Result,
                       Ruleset, ToAct, option, options_schema)

__all__ = ["Chance", "Ended", "Event", "GameSpec", "IllegalAction", "InvalidOptions", "Result",
           "Ruleset", "ToAct", "option", "options_schema"]
