"""The desk: staff scan a member's card, then copies (a scanner types the code and Enter):
each copy is lent to the household, or taken back with its box checked against the game's
contents. Keyboard only, and usable on a phone and a tablet."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .circulation import LendingRefused, cancel_hold, give_back, lend, renew, reserve
from .copies import Copy
from .game_lookup import game_named
from .holds import Hold
from .households import Household, Member
from .member_page import desk_member_link
from .selectors import (
    OVERDUE_SHOWN,
    household_holds,
    household_loans,
    latest_missing,
    missing_text,
    overdue_loans,
)
from .services import CheckRefused, record_check

DESK_PERMISSION = "lending.add_copycheck"


class ScanForm(forms.Form):
    barcode = forms.CharField(
        label=gettext_lazy("Barcode"),
        max_length=50,
        widget=forms.TextInput(
            attrs={"autofocus": True, "autocomplete": "off", "autocapitalize": "characters"}
        ),
    )


class ReserveForm(forms.Form):
    game = forms.CharField(
        label=gettext_lazy("Reserve a game (its title, or a copy's barcode)"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class CheckForm(forms.Form):
    """One field per item: a box to tick for a single piece, a count for several."""

    note = forms.CharField(
        label=gettext_lazy("Note"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, items, **kwargs):
        super().__init__(*args, **kwargs)
        self.items = items
        for item in items:
            label = item.counted_name
            if item.count == 1:
                field = forms.BooleanField(label=label, required=False)
            else:
                field = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=item.count,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    help_text=_("How many are in the box (of %(count)d)?") % {"count": item.count},
                )
            field.french_only = item.name_in_french_only  # the label is marked lang="fr"
            self.fields[f"item_{item.pk}"] = field
        if items:  # after a scan, the first item is where the keyboard is
            self.fields[f"item_{items[0].pk}"].widget.attrs["autofocus"] = True
        self.order_fields([f"item_{item.pk}" for item in items] + ["note"])

    def found(self) -> dict[int, int]:
        counts = {}
        for item in self.items:
            value = self.cleaned_data[f"item_{item.pk}"]
            counts[item.pk] = (item.count if value else 0) if item.count == 1 else value
        return counts


def _desk_required(view):
    login_url = "admin:login"
    return login_required(
        permission_required(DESK_PERMISSION, raise_exception=True)(view), login_url=login_url
    )


# The household at the desk is kept in the volunteer's session between scans.
SESSION_HOUSEHOLD = "desk_household"
SESSION_MEMBER = "desk_member"


def _household_at_desk(request) -> Household | None:
    pk = request.session.get(SESSION_HOUSEHOLD)
    if not isinstance(pk, int):
        return None
    return Household.objects.select_related("member_type").filter(pk=pk).first()


def _member_at_desk(request, household: Household) -> Member | None:
    members = household.members.all()
    pk = request.session.get(SESSION_MEMBER)
    return (members.filter(pk=pk).first() if isinstance(pk, int) else None) or members.first()


def _lend_or_take_back(request, household, member, copy):
    """A copy scanned while a household is at the desk: on loan, it comes back (its contents
    are checked on its page); on the shelf, it is lent to the chosen member."""
    if copy.loans.open().exists():
        return redirect("lending:desk-copy", barcode=copy.barcode)
    if not request.user.has_perm("lending.add_loan"):
        messages.error(request, _("You may check copies, not lend them."))
        return redirect("lending:desk")
    if member is None:
        messages.error(
            request,
            _("%(name)s has no member yet: add one with “Add a member”.")
            % {"name": household.name},
        )
        return redirect("lending:desk")
    try:
        loan = lend(member=member, copy=copy, by=request.user)
    except LendingRefused as refused:
        messages.error(request, refused.reason)
    else:
        messages.success(
            request,
            _("%(barcode)s (%(title)s) lent to %(member)s, due back %(date)s.")
            % {
                "barcode": copy.barcode,
                "title": copy.game.title,
                "member": member,
                "date": formats.date_format(loan.due_on, "MONTH_DAY_FORMAT"),
            },
        )
    return redirect("lending:desk")


def _scan(request, household):
    form = ScanForm(request.POST)
    if not form.is_valid():
        return redirect("lending:desk")
    code = form.cleaned_data["barcode"].strip()
    card = Household.objects.filter(card_number=code).first()
    if card is not None:  # a member's card: that household comes to the desk
        request.session[SESSION_HOUSEHOLD] = card.pk
        request.session.pop(SESSION_MEMBER, None)
        return redirect("lending:desk")
    copy = Copy.objects.select_related("game").filter(barcode=code).first()
    if copy is None:
        messages.error(
            request, _("No copy or card has the number %(barcode)s.") % {"barcode": code}
        )
        return redirect("lending:desk")
    if household is None:  # no one at the desk: check the copy, or take it back
        return redirect("lending:desk-copy", barcode=code)
    member_pk = request.POST.get("member", "")
    if member_pk.isdigit() and household.members.filter(pk=int(member_pk)).exists():
        request.session[SESSION_MEMBER] = int(member_pk)
    return _lend_or_take_back(request, household, _member_at_desk(request, household), copy)


def _renew(request, household):
    pk = request.POST.get("loan", "")
    loan = (
        household.loans.open().filter(pk=int(pk)).first()
        if household and pk.isdigit() and len(pk) < 19
        else None
    )
    if loan is None or not request.user.has_perm("lending.change_loan"):
        messages.error(request, _("There is no such loan to renew."))
        return redirect("lending:desk")
    try:
        loan = renew(loan=loan, by=request.user)
    except LendingRefused as refused:
        messages.error(request, refused.reason)
    else:
        messages.success(
            request,
            _("%(barcode)s (%(title)s) renewed, due back %(date)s.")
            % {
                "barcode": loan.copy.barcode,
                "title": loan.copy.game.title,
                "date": formats.date_format(loan.due_on, "MONTH_DAY_FORMAT"),
            },
        )
    return redirect("lending:desk")


def _reserve(request, household):
    form = ReserveForm(request.POST)
    if household is None or not form.is_valid():
        return redirect("lending:desk")
    if not request.user.has_perm("lending.add_hold"):
        messages.error(request, _("You may not reserve games."))
        return redirect("lending:desk")
    game, problem = game_named(form.cleaned_data["game"].strip())
    member = _member_at_desk(request, household)
    if game is None or member is None:
        messages.error(
            request,
            problem
            or _("%(name)s has no member yet: add one with “Add a member”.")
            % {"name": household.name},
        )
        return redirect("lending:desk")
    try:
        reserve(member=member, game=game, by=request.user)
    except LendingRefused as refused:
        messages.error(request, refused.reason)
    else:
        position = Hold.objects.queue(game).count()
        messages.success(
            request,
            _("%(title)s reserved for %(name)s: number %(position)d in the queue.")
            % {"title": game.title, "name": household.name, "position": position},
        )
    return redirect("lending:desk")


def _cancel(request, household):
    pk = request.POST.get("hold", "")
    hold = (
        household.holds.active().filter(pk=int(pk)).first()
        if household and pk.isdigit() and len(pk) < 19
        else None
    )
    if hold is None or not request.user.has_perm("lending.change_hold"):
        messages.error(request, _("There is no such hold to cancel."))
        return redirect("lending:desk")
    cancel_hold(hold=hold, by=request.user)
    messages.success(request, _("The hold on %(title)s is cancelled.") % {"title": hold.game.title})
    return redirect("lending:desk")


@_desk_required
def desk(request):
    """The scanner's page. With no one at the desk, a copy's barcode opens its checklist
    (or its return); a member's card brings the household to the desk, whose loans are
    listed, and each copy scanned then is lent to it, or taken back if on loan."""
    household = _household_at_desk(request)
    if request.method == "POST":
        action = request.POST.get("action", "scan")
        if action == "done":
            request.session.pop(SESSION_HOUSEHOLD, None)
            request.session.pop(SESSION_MEMBER, None)
            return redirect("lending:desk")
        if action == "renew":
            return _renew(request, household)
        if action == "reserve":
            return _reserve(request, household)
        if action == "cancel":
            return _cancel(request, household)
        if action == "member_link":
            return desk_member_link(request, household)
        return _scan(request, household)
    form = ScanForm(request.GET or None)
    if form.is_valid():  # a scan by address (?barcode=): open the copy
        barcode = form.cleaned_data["barcode"].strip()
        if Copy.objects.filter(barcode=barcode).exists():
            return redirect("lending:desk-copy", barcode=barcode)
        messages.error(request, _("No copy has the barcode %(barcode)s.") % {"barcode": barcode})
    context = {"form": ScanForm(), "household": household, "today": timezone.localdate()}
    if household is None:
        overdue = overdue_loans()
        context.update(overdue=overdue[:OVERDUE_SHOWN], overdue_count=overdue.count())
    else:
        member = _member_at_desk(request, household)
        loans = household_loans(household)
        context.update(
            members=household.members.all(),
            member=member,
            loans=loans,
            holds=household_holds(household),
            reserve_form=ReserveForm(),
            membership_current=household.membership_current(),
        )
    return render(request, "lending/desk.html", context)


def _give_back(request, copy, form, items):
    if "all_there" in request.POST or not items:  # no checklist: nothing to count
        found = {item.pk: item.count for item in items}
        note = request.POST.get("note", "")[:2000]
    elif form.is_valid():
        found, note = form.found(), form.cleaned_data["note"]
    else:
        return None
    minor = request.POST.get("minor") == "on"
    try:
        loan = give_back(copy=copy, by=request.user, found=found, minor=minor, note=note)
    except LendingRefused as refused:  # taken back at another desk meanwhile
        messages.error(request, refused.reason)
        return redirect("lending:desk")
    except CheckRefused:  # the checklist changed in the admin meanwhile: count again
        messages.error(request, _("The game's contents changed: count the box again."))
        return redirect("lending:desk-copy", barcode=copy.barcode)
    names = {
        "barcode": copy.barcode,
        "title": copy.game.title,
        "name": loan.household.name,
        "missing": missing_text(loan.return_check.missing()),
    }
    if loan.return_check.complete:
        messages.success(
            request, _("%(barcode)s (%(title)s) is back from %(name)s, complete.") % names
        )
    elif minor:
        messages.warning(
            request,
            _(
                "%(barcode)s (%(title)s) is back from %(name)s without %(missing)s, "
                "a minor piece: it stays on the shelf."
            )
            % names,
        )
    else:
        messages.warning(
            request,
            _("%(barcode)s (%(title)s) is back from %(name)s, incomplete: %(missing)s.") % names,
        )
    held = copy.holds.active().select_related("household").first()
    if held is not None:
        messages.info(
            request,
            _("Put %(barcode)s aside for %(name)s (%(card)s), until %(date)s: they reserved it.")
            % {
                "barcode": copy.barcode,
                "name": held.household.name,
                "card": held.household.card_number,
                "date": formats.date_format(held.ready_until, "MONTH_DAY_FORMAT"),
            },
        )
    return redirect("lending:desk")


@_desk_required
def desk_copy(request, barcode):
    """One copy's checklist, and its checks so far. A copy on loan is taken back here:
    its return is this check."""
    copy = get_object_or_404(Copy.objects.select_related("game"), barcode=barcode)
    loan = copy.loans.open().select_related("household", "member").first()
    items = list(copy.game.content_items.all())
    form = CheckForm(request.POST or None, items=items)
    if request.method == "POST" and loan is not None:
        if not request.user.has_perm("lending.change_loan"):
            raise PermissionDenied
        response = _give_back(request, copy, form, items)
        if response is not None:
            return response
    elif request.method == "POST" and items:
        if "all_there" in request.POST:
            found = {item.pk: item.count for item in items}
            note = request.POST.get("note", "")[:2000]
        elif form.is_valid():
            found, note = form.found(), form.cleaned_data["note"]
        else:
            found = None
        if found is not None:
            check = record_check(copy=copy, found=found, user=request.user, note=note)
            if check.complete:
                text = _("%(barcode)s (%(title)s) is complete.")
            else:
                text = _("%(barcode)s (%(title)s) is incomplete: %(missing)s.")
            (messages.success if check.complete else messages.warning)(
                request,
                text
                % {
                    "barcode": copy.barcode,
                    "title": copy.game.title,
                    "missing": missing_text(check.missing()),
                },
            )
            return redirect(reverse("lending:desk"))
    checks = copy.checks.select_related("checked_by").prefetch_related("lines__item")[:20]
    return render(
        request,
        "lending/desk_copy.html",
        {
            "copy": copy,
            "loan": loan,
            "form": form,
            "items": items,
            "checks": checks,
            "missing": latest_missing(copy),
        },
    )
