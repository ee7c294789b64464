"""What every request body serializer shares: unknown fields are refused, text and booleans must
be JSON's strings and true/false, and type errors name JSON's types (a client writes JSON, not
Python)."""
from collections.abc import Mapping

from rest_framework import serializers

from games.engine import registry
from games.engine.protocol import json_type_name


# A database id in a request body: the range the database stores (BigAutoField), so a huge
# number is a 400 with a reason, not an overflow in the database driver (a 500).
ID_RANGE = {"min_value": 1, "max_value": 2**63 - 1}


def is_json_type(value, kind: type) -> bool:
    """``value`` is of JSON type ``kind`` (true and false are not integers; 1 is a number)."""
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind) and isinstance(value, bool) == (kind is bool)


def game_choices() -> list[str]:
    """The registered games, for a ChoiceField filled when its serializer is built, not at
    import (tests register games of their own)."""
    return registry.names()


class Input(serializers.Serializer):
    """A request body: a field it does not declare is refused (400, each named in ``fields``)."""

    # Base of every request body. ``{"bot": 2, "seed": -4}`` was a 201 that silently dropped
    # ``seed``; the schema states the rule as ``additionalProperties: false`` (api.schema).

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["unknown field; this request takes: " + ", ".join(self.fields)] for name in unknown},
                    code="unknown_field")
            not_text = {name: [f"must be a string, got {json_type_name(type(data[name]))}"]
                        for name, field in self.fields.items()
                        if isinstance(field, TEXT_FIELDS) and data.get(name) is not None
                        and not isinstance(data[name], str)}
            if not_text:  # DRF turns 0 into "0": the schema says string, so a number is refused
                raise serializers.ValidationError(not_text, code="invalid")
            not_boolean = {name: [f"must be true or false, got {json_type_name(type(data[name]))}"]
                           for name, field in self.fields.items()
                           if isinstance(field, serializers.BooleanField) and data.get(name) is not None
                           and not isinstance(data[name], bool)}
            if not_boolean:  # DRF reads 0, 1, "yes" and "on" as booleans: the schema says boolean
                raise serializers.ValidationError(not_boolean, code="invalid")
        return super().to_internal_value(data)


# Fields whose schema type is string: DRF would take a JSON number (or true) for them and make
# it text; a client sending one has made a mistake the schema already names (issue 40, item 11).
TEXT_FIELDS = (serializers.CharField, serializers.ChoiceField)
