"""The API's JSON body reader: DRF's, except that a body nested deeper than Python's decoder
goes is a 400 naming it, not a ``RecursionError`` answered 500 (issue 25, item 7: deeply nested
JSON is a format error, never a traceback)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

__all__ = ["JSONParser", "NestingJSONParser"]


class NestingJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON body is nested too deeply.")) from None
