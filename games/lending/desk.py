"""The desk: staff scan a copy's barcode (a scanner types it and Enter) and check its box
against the game's contents. Keyboard only, and usable on a phone."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .copies import Copy
from .selectors import latest_missing, missing_text
from .services import record_check

DESK_PERMISSION = "lending.add_copycheck"


class ScanForm(forms.Form):
    barcode = forms.CharField(
        label=gettext_lazy("Barcode"),
        max_length=50,
        widget=forms.TextInput(
            attrs={"autofocus": True, "autocomplete": "off", "autocapitalize": "characters"}
        ),
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


@_desk_required
def desk(request):
    """The scanner's page: a barcode and Enter opens the copy's checklist."""
    form = ScanForm(request.GET or None)
    if form.is_valid():
        barcode = form.cleaned_data["barcode"].strip()
        if Copy.objects.filter(barcode=barcode).exists():
            return redirect("lending:desk-copy", barcode=barcode)
        messages.error(request, _("No copy has the barcode %(barcode)s.") % {"barcode": barcode})
        form = ScanForm()
    return render(request, "lending/desk.html", {"form": form})


@_desk_required
def desk_copy(request, barcode):
    """One copy's checklist, and its checks so far."""
    copy = get_object_or_404(Copy.objects.select_related("game"), barcode=barcode)
    items = list(copy.game.content_items.all())
    form = CheckForm(request.POST or None, items=items)
    if request.method == "POST" and items:
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
            "form": form,
            "items": items,
            "checks": checks,
            "missing": latest_missing(copy),
        },
    )
