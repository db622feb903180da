"""The API's JSON parser: DRF's, minus the two inputs that made it answer 500."""

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

TOO_DEEP = _("The JSON is nested too deeply.")
NUL_CHARACTER = _("The request contains a NUL character, which no field can hold.")
NOT_JSON = _("The body is not valid JSON.")


class StrictJSONParser(JSONParser):
    """Refuses with 400 JSON nested deeper than Python's parser goes (a RecursionError
    was a 500), any string or key holding a NUL character (PostgreSQL cannot store or
    compare one), and a body that is not JSON, saying so in the reader's language."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        except ParseError:
            # DRF's message ends with Python's own, in English ("Expecting value: line 1").
            raise ParseError(NOT_JSON) from None
        if _holds_nul(data):
            raise ParseError(NUL_CHARACTER)
        return data


def _holds_nul(data) -> bool:
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False
