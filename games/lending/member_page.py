"""The member's own page: the household's loans with their due dates, its holds with their
place in the queue; renew a loan, reserve a game, cancel a hold, under the desk's rules.

It is reached by a personal link: a token signed with the site's secret
(``django.core.signing``), naming the household and its card, that works for
``LENDING_MEMBER_LINK_DAYS`` days. The link is e-mailed to the household's address, on the
"send me my link" form (a card number and that address: the answer is the same whatever
was typed, so the form tells nobody who is a member) or by staff from the desk."""

import logging

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .circulation import LendingRefused, cancel_hold, renew, reserve
from .game_lookup import game_named
from .member_links import LinkExpired, LinkInvalid, household_from_token, member_link
from .notices import library_name, send_member_link
from .selectors import household_holds, household_loans
from .tasks import send_member_link_if_known

logger = logging.getLogger(__name__)

# "Send me my link": at most this many asks per hour from one address, and per card
# (our choice: enough for a member who mistyped, too few to try cards in bulk).
LINK_ASKS_PER_ADDRESS = 5
LINK_ASKS_PER_CARD = 3
THROTTLE_SECONDS = 3600


class LinkRequestForm(forms.Form):
    card_number = forms.CharField(
        label=gettext_lazy("Card number"),
        max_length=50,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class ReserveForm(forms.Form):
    game = forms.CharField(
        label=gettext_lazy("Reserve a game (its title)"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def _client_address(request) -> str:
    """The asker's address: behind ``NUM_PROXIES`` proxies, the one the last of them saw."""
    proxies = settings.NUM_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if forwarded:
            return forwarded[-min(proxies, len(forwarded))][:64]
    return request.META.get("REMOTE_ADDR", "")[:64]


def _over_limit(key: str, limit: int) -> bool:
    """Count one more ask under ``key`` this hour; whether that is more than ``limit``. A
    cache that fails lets the ask through (the answer tells nothing either way)."""
    try:
        cache.add(key, 0, THROTTLE_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, THROTTLE_SECONDS)
            count = 1
    except Exception:  # noqa: BLE001
        logger.warning("member link throttle: cache unavailable", exc_info=True)
        return False
    return count > limit


def link_request(request):
    """ "Send me my link": a card number and the household's e-mail address."""
    form = LinkRequestForm(request.POST or None)
    context = {"form": form, "link_days": settings.LENDING_MEMBER_LINK_DAYS}
    if request.method != "POST":
        return render(request, "lending/member_link.html", context)
    if _over_limit(f"member-link:address:{_client_address(request)}", LINK_ASKS_PER_ADDRESS):
        context["throttled"] = True
        return render(request, "lending/member_link.html", context, status=429)
    if not form.is_valid():
        return render(request, "lending/member_link.html", context, status=400)
    card = form.cleaned_data["card_number"].strip()
    email = form.cleaned_data["email"].strip()
    # Counted per card too, whether or not the card exists (the answer never says). The
    # worker looks the card up and sends the e-mail: the answer's time tells nothing either.
    if not _over_limit(f"member-link:card:{card.casefold()[:50]}", LINK_ASKS_PER_CARD):
        transaction.on_commit(lambda: send_member_link_if_known.enqueue(card, email))
    context.update(sent=True, form=LinkRequestForm())
    return render(request, "lending/member_link.html", context)


def _act(request, household, action) -> None:
    """A renewal, a reservation or a cancellation asked on the page: done, or refused with
    the desk's reason (a message either way)."""
    pk = request.POST.get("loan" if action == "renew" else "hold", "")
    known = pk.isdigit() and len(pk) < 19
    if action == "renew":
        loan = household.loans.open().filter(pk=int(pk)).first() if known else None
        if loan is None:
            messages.error(request, _("There is no such loan to renew."))
            return
        try:
            loan = renew(loan=loan, by=None)
        except LendingRefused as refused:
            messages.error(request, refused.reason)
            return
        messages.success(
            request,
            _("%(title)s renewed: due back %(date)s.")
            % {
                "title": loan.copy.game.title,
                "date": formats.date_format(loan.due_on, "MONTH_DAY_FORMAT"),
            },
        )
    elif action == "cancel":
        hold = household.holds.active().filter(pk=int(pk)).first() if known else None
        if hold is None:
            messages.error(request, _("There is no such hold to cancel."))
            return
        cancel_hold(hold=hold, by=None)
        messages.success(
            request, _("The hold on %(title)s is cancelled.") % {"title": hold.game.title}
        )
    elif action == "reserve":
        form = ReserveForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Type the title of the game to reserve."))
            return
        game, problem = game_named(form.cleaned_data["game"].strip())
        member = household.members.first()
        if game is None or member is None:
            messages.error(
                request,
                problem or _("Ask at the desk: no member of your household is registered yet."),
            )
            return
        try:
            hold = reserve(member=member, game=game, by=None)
        except LendingRefused as refused:
            messages.error(request, refused.reason)
            return
        position = household_holds(household)
        position = next((h.position for h in position if h.pk == hold.pk), 1)
        messages.success(
            request,
            _("%(title)s reserved: you are number %(position)d in the queue.")
            % {"title": game.title, "position": position},
        )


def member_page(request, token):
    """The household's loans and holds, from its personal link."""
    try:
        household = household_from_token(token)
    except LinkExpired:
        return render(request, "lending/member_link_invalid.html", {"expired": True}, status=410)
    except LinkInvalid:
        return render(request, "lending/member_link_invalid.html", {"expired": False}, status=400)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in ("renew", "reserve", "cancel"):
            return render(
                request, "lending/member_link_invalid.html", {"bad_action": True}, status=400
            )
        _act(request, household, action)
        return redirect(request.path)
    return render(
        request,
        "lending/member_page.html",
        {
            "household": household,
            "loans": household_loans(household),
            "holds": household_holds(household),
            "reserve_form": ReserveForm(),
            "today": timezone.localdate(),
            "library": library_name(),
            "membership_current": household.membership_current(),
        },
    )


def desk_member_link(request, household):
    """From the desk: e-mail the household its link (if it has an address) and show it to
    staff, to read out or open on the member's phone."""
    if household is None:
        return redirect("lending:desk")
    with translation.override(household.language):
        link = member_link(household)
    try:
        sent = send_member_link(household)
    except Exception:  # noqa: BLE001 - the mail server failed: staff still see the link
        messages.error(
            request,
            _("The e-mail could not be sent: show them the link: %(link)s") % {"link": link},
        )
        return redirect("lending:desk")
    if sent:
        messages.success(
            request,
            _("The link to their page is sent to %(email)s: %(link)s")
            % {"email": household.email, "link": link},
        )
    else:
        messages.info(
            request,
            _("%(name)s has no e-mail address: show them their page's link: %(link)s")
            % {"name": household.name, "link": link},
        )
    return redirect("lending:desk")
