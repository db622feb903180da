"""Households kept at the desk: a new household (with its first member), its details
edited, its membership renewed, a member added. The membership's fee is charged through
the ledger's own service, as the admin does, so a period is charged once."""

import datetime

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxValueValidator
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .desk import SESSION_HOUSEHOLD, SESSION_MEMBER, _desk_required, _household_at_desk
from .households import Household, Member, MemberType
from .ledger import record_membership


def one_year_on(day: datetime.date) -> datetime.date:
    """The same date a year later (29 February: 28 February). A membership runs a year
    unless staff set other dates: our default."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return day.replace(year=day.year + 1, day=28)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class HouseholdForm(forms.ModelForm):
    """The household's details; the same rules as the admin (unique card, end not before
    start)."""

    class Meta:
        model = Household
        fields = [
            "name",
            "card_number",
            "contact",
            "email",
            "language",
            "member_type",
            "membership_start",
            "membership_end",
            "fee_paid",
        ]
        widgets = {
            "membership_start": DateInput(),
            "membership_end": DateInput(),
            "contact": forms.Textarea(attrs={"rows": 2}),
            "card_number": forms.TextInput(attrs={"autocomplete": "off"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member_type"].queryset = MemberType.objects.all()
        self.fields["member_type"].empty_label = None
        self.fields["name"].widget.attrs["autofocus"] = True

    def clean_card_number(self):
        card = self.cleaned_data["card_number"].strip()
        if not card:
            raise forms.ValidationError(_("Type the card's number."))
        taken = Household.objects.filter(card_number=card).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(
                _("The card %(card)s is already given to %(name)s.")
                % {"card": card, "name": taken.get().name}
            )
        return card

    def clean(self):
        data = super().clean()
        start, end = data.get("membership_start"), data.get("membership_end")
        if start and end and end < start:
            self.add_error("membership_end", _("The membership cannot end before it starts."))
        return data


MAX_AGE = 120


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ["first_name", "last_name", "child_age"]
        widgets = {"child_age": forms.NumberInput(attrs={"inputmode": "numeric"})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Our bound, against a typing slip: no one is older than this.
        self.fields["child_age"].widget.attrs["max"] = MAX_AGE
        self.fields["child_age"].validators.append(MaxValueValidator(MAX_AGE))


def _focus_first_error(*forms_shown):
    """After a refusal the keyboard is in the first field to correct, not the first one."""
    for form in forms_shown:
        if form is None or not form.is_bound:
            continue
        wrong = [name for name in form.fields if name in form.errors]
        if wrong:
            for field in [f for shown in forms_shown if shown for f in shown.fields.values()]:
                field.widget.attrs.pop("autofocus", None)
            form.fields[wrong[0]].widget.attrs["autofocus"] = True
            return


@_desk_required
def household_new(request):
    """A new household, at the desk once saved (as after scanning its card)."""
    if not (
        request.user.has_perm("lending.add_household")
        and request.user.has_perm("lending.add_member")
    ):
        raise PermissionDenied
    today = timezone.localdate()
    initial = {
        "membership_start": today,
        "membership_end": one_year_on(today),
        "member_type": MemberType.objects.first(),
        "language": request.LANGUAGE_CODE
        if request.LANGUAGE_CODE in dict(Household._meta.get_field("language").choices)
        else "fr",
    }
    form = HouseholdForm(request.POST or None, initial=initial, prefix="household")
    member_form = MemberForm(request.POST or None, prefix="member")
    if request.method == "POST" and form.is_valid() and member_form.is_valid():
        try:
            with transaction.atomic():
                household = form.save()
                member = member_form.save(commit=False)
                member.household = household
                member.save()
                record_membership(household=household, by=request.user, paid_now=household.fee_paid)
        except IntegrityError:  # the same card saved at another desk meanwhile
            form.add_error(
                "card_number", _("This card number was just given to another household.")
            )
        else:
            request.session[SESSION_HOUSEHOLD] = household.pk
            request.session[SESSION_MEMBER] = member.pk
            messages.success(
                request,
                _("%(name)s (%(card)s) is a member until %(date)s.")
                % {
                    "name": household.name,
                    "card": household.card_number,
                    "date": formats.date_format(household.membership_end, "DATE_FORMAT"),
                },
            )
            return redirect("lending:desk")
    _focus_first_error(form, member_form)
    return render(
        request,
        "lending/desk_household_form.html",
        {"form": form, "member_form": member_form, "household": None},
    )


@_desk_required
def household_edit(request):
    """The household at the desk's details. A new end date is a renewal: its fee is charged
    (once), as in the admin."""
    household = _household_at_desk(request)
    if household is None:
        return redirect("lending:desk")
    if not request.user.has_perm("lending.change_household"):
        raise PermissionDenied
    old_end, old_paid = household.membership_end, household.fee_paid
    form = HouseholdForm(request.POST or None, instance=household, prefix="household")
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                household = form.save()
                if household.membership_end != old_end:
                    paid_now = household.fee_paid and not old_paid
                    record_membership(household=household, by=request.user, paid_now=paid_now)
        except IntegrityError:
            form.add_error(
                "card_number", _("This card number was just given to another household.")
            )
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": household.name})
            return redirect("lending:desk")
    _focus_first_error(form)
    return render(
        request,
        "lending/desk_household_form.html",
        {"form": form, "member_form": None, "household": household},
    )


@_desk_required
@require_POST
def household_renew(request):
    """One click: a year more, from the old end or today, whichever is later. A lapsed
    membership starts again today, its fee unpaid unless paid now; one renewed before it
    ends keeps its start and its paid fee (the new period's fee is owed in the ledger):
    our reading, so an early renewal does not stop the household borrowing."""
    if not request.user.has_perm("lending.change_household"):
        raise PermissionDenied
    today = timezone.localdate()
    paid_now = request.POST.get("paid_now") == "on"
    with transaction.atomic():
        pk = request.session.get(SESSION_HOUSEHOLD)
        household = (
            Household.objects.select_for_update().filter(pk=pk).first()
            if isinstance(pk, int)
            else None
        )
        if household is None:
            return redirect("lending:desk")
        if max(household.membership_end, today).year >= datetime.MAXYEAR:
            messages.error(request, _("This membership cannot be extended further."))
            return redirect("lending:desk")
        lapsed = household.membership_end < today
        household.membership_end = one_year_on(max(household.membership_end, today))
        if lapsed:
            household.membership_start = today
            household.fee_paid = paid_now
        elif paid_now:
            household.fee_paid = True
        household.save(update_fields=["membership_start", "membership_end", "fee_paid"])
        record_membership(household=household, by=request.user, paid_now=paid_now)
    messages.success(
        request,
        _("%(name)s is a member until %(date)s.")
        % {
            "name": household.name,
            "date": formats.date_format(household.membership_end, "DATE_FORMAT"),
        },
    )
    return redirect("lending:desk")


@_desk_required
def member_add(request):
    """Another member of the household at the desk; the one who borrows next."""
    household = _household_at_desk(request)
    if household is None:
        return redirect("lending:desk")
    if not request.user.has_perm("lending.add_member"):
        raise PermissionDenied
    form = MemberForm(request.POST or None, prefix="member")
    form.fields["first_name"].widget.attrs["autofocus"] = True
    if request.method == "POST" and form.is_valid():
        member = form.save(commit=False)
        member.household = household
        member.save()
        request.session[SESSION_MEMBER] = member.pk
        messages.success(
            request,
            _("%(member)s is a member of %(name)s.") % {"member": member, "name": household.name},
        )
        return redirect("lending:desk")
    _focus_first_error(form)
    return render(
        request,
        "lending/desk_household_form.html",
        {"form": None, "member_form": form, "household": household, "adding_member": True},
    )
