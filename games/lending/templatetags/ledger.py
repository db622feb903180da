"""The household's money on the desk's page: its balance and the deposit held (one query)."""

from django import template
from django.conf import settings

from games.lending.ledger import balances

register = template.Library()


@register.inclusion_tag("lending/includes/ledger_summary.html", takes_context=True)
def ledger_summary(context, household):
    """The balance and deposit of ``household``, with the link to its ledger, for staff who
    may read ledgers."""
    perms = context.get("perms")
    shown = bool(perms and perms["lending"]["view_ledgerentry"])
    return {
        "household": household,
        "shown": shown,
        "currency": settings.LENDING_CURRENCY,
        **(balances(household) if shown else {}),
    }
