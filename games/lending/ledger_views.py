"""A household's ledger at the desk: its balance, the deposit held, every entry, and a form
to record what is paid or handed over there."""

from decimal import Decimal

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .households import Household
from .ledger import DESK_KINDS, MAX_AMOUNT, LedgerKind, LedgerRefused, balances, record

ENTRIES_SHOWN = 200


class LedgerForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("What"),
        choices=[(kind.value, kind.label) for kind in DESK_KINDS],
    )
    amount = forms.DecimalField(
        label=gettext_lazy("Amount"),
        min_value=Decimal("0.01"),
        max_value=MAX_AMOUNT,
        max_digits=7,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"}),
    )
    note = forms.CharField(label=gettext_lazy("Note"), required=False, max_length=200)


@login_required(login_url="admin:login")
@permission_required("lending.view_ledgerentry", raise_exception=True)
def household_ledger(request, card):
    """The ledger of the household with card number ``card``; staff who may add entries
    record a payment, a deposit held, returned or cashed, or money handed back."""
    household = get_object_or_404(Household.objects.select_related("member_type"), card_number=card)
    form = LedgerForm(request.POST or None)
    if request.method == "POST":
        if not request.user.has_perm("lending.add_ledgerentry"):
            raise PermissionDenied
        if form.is_valid():
            try:
                entry = record(
                    household=household,
                    kind=form.cleaned_data["kind"],
                    amount=form.cleaned_data["amount"],
                    note=form.cleaned_data["note"],
                    by=request.user,
                )
            except LedgerRefused as refused:
                messages.error(request, refused.reason)
            else:
                messages.success(
                    request,
                    _("Recorded: %(kind)s, %(amount)s %(currency)s.")
                    % {
                        "kind": entry.get_kind_display(),
                        "amount": formats.number_format(entry.amount, 2),
                        "currency": settings.LENDING_CURRENCY,
                    },
                )
                return redirect("lending:household-ledger", card=household.card_number)
    entries = household.ledger_entries.select_related("recorded_by", "loan__copy__game")
    return render(
        request,
        "lending/ledger.html",
        {
            "household": household,
            "form": form,
            "entries": entries[:ENTRIES_SHOWN],
            "entries_count": entries.count(),
            "shown": ENTRIES_SHOWN,
            "currency": settings.LENDING_CURRENCY,
            "kinds": LedgerKind,
            **balances(household),
        },
    )
