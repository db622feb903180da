"""The member's personal link: a token signed with the site's secret
(``django.core.signing``), naming the household and its card, that works for
``LENDING_MEMBER_LINK_DAYS`` days (the member's page, the e-mails that carry it)."""

import datetime

from django.conf import settings
from django.core import signing
from django.urls import reverse

from .households import Household

SALT = "games.lending.member-page"


def member_token(household: Household) -> str:
    return signing.dumps({"h": household.pk, "c": household.card_number}, salt=SALT)


def member_link(household: Household) -> str:
    """The household's page as an absolute address, in the active language."""
    path = reverse("lending:member-page", kwargs={"token": member_token(household)})
    return settings.SITE_URL + path


class LinkExpired(Exception):
    pass


class LinkInvalid(Exception):
    pass


def household_from_token(token: str) -> Household:
    """The household a link names; ``LinkExpired`` past its days, ``LinkInvalid`` for
    anything else (altered, made up, a card changed since)."""
    try:
        data = signing.loads(
            token,
            salt=SALT,
            max_age=datetime.timedelta(days=settings.LENDING_MEMBER_LINK_DAYS),
        )
    except signing.SignatureExpired:
        raise LinkExpired from None
    except (signing.BadSignature, ValueError, TypeError):
        raise LinkInvalid from None
    if not isinstance(data, dict) or not isinstance(data.get("h"), int):
        raise LinkInvalid
    household = (
        Household.objects.select_related("member_type")
        .filter(pk=data["h"], card_number=data.get("c"))
        .first()
    )
    if household is None:
        raise LinkInvalid
    return household
