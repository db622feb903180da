"""Work the lending pages hand to django-tasks' worker (``db_worker``, started by
``make run``)."""

import logging

from django_tasks import task

from .households import Household
from .notices import send_member_link

logger = logging.getLogger(__name__)


@task()
def send_member_link_if_known(card_number: str, email: str) -> None:
    """The e-mail of the "send me my link" form, sent after the answer: the page hands the
    worker every ask the same way, so neither its words nor its time tell who is a member."""
    household = Household.objects.filter(card_number=card_number, email__iexact=email).first()
    if household is None:
        return
    try:
        send_member_link(household)
    except Exception:
        logger.exception("member link: the e-mail to %s could not be sent", card_number)
        raise
