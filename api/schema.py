"""OpenAPI post-processing: every operation documents the error envelope of api.errors for the
4xx it can answer (and 5xx, which must never happen but is the honest contract of any server)."""

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "detail", "fields"],
        "properties": {
            "code": {"type": "string", "description": "machine-readable reason"},
            "detail": {"type": "string", "description": "the reason, for a person"},
            "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        },
    }},
}
ERROR_STATUSES = {
    "400": "Bad request: the reason is in error.code and error.detail",
    "401": "Not authenticated, or the token is expired, revoked or malformed",
    "403": "Authenticated but not allowed",
    "404": "Not found (or not yours to see)",
    "405": "Method not allowed",
    "406": "Not acceptable",
    "409": "Conflict with the current state",
    "413": "Request too large",
    "415": "Unsupported media type",
    "429": "Throttled",
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular hook: add the error envelope to every operation's responses."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in ERROR_STATUSES.items():
                operation["responses"].setdefault(status, {
                    "description": description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                })
    return result
