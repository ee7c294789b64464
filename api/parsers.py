"""Request parsers of the API (DEFAULT_PARSER_CLASSES)."""
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, but JSON nested deeper than Python's recursion limit is a 400.

    DRF catches only ValueError; a body of a few hundred kilobytes of ``[[[...]]]`` makes the
    decoder raise RecursionError instead, which would be a 500 for anyone on any JSON endpoint.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply") from None
