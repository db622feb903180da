"""The identifiers printed on a game's box, checked as the trade defines them."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from stdnum import ean
from stdnum.exceptions import InvalidChecksum
from stdnum.exceptions import ValidationError as NumberInvalid

EAN_DIGITS = _("An EAN has 8 or 13 digits.")
EAN_CHECK_DIGIT = _(
    "This EAN's check digit (the last one) does not match its other digits: one of them "
    "was mistyped, or two swapped. Copy it again from under the barcode."
)


def validate_ean(value: str) -> None:
    """An EAN-8 or EAN-13 written as its digits alone, whose check digit is the one its
    other digits give (python-stdnum's ``stdnum.ean``). A 12-digit UPC or a 14-digit GTIN,
    which stdnum also reads, is not what a ludothèque's record holds."""
    if ean.compact(value) != value or len(value) not in (8, 13):
        raise ValidationError(EAN_DIGITS, code="ean_digits")
    try:
        ean.validate(value)
    except InvalidChecksum:
        raise ValidationError(EAN_CHECK_DIGIT, code="ean_check_digit") from None
    except NumberInvalid:
        raise ValidationError(EAN_DIGITS, code="ean_digits") from None
