"""Villa Paletti's pages: set up a match, play it, join it by a link. The browser talks to
the API."""

import segno
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from . import seats, services
from .engine import COLUMNS, default_setup
from .engine.pieces import (
    BASE_LENGTH,
    COLUMN_HEIGHT,
    FORBIDDEN_HALF_WIDTH,
    LANE_DEPTH,
    LANES,
    PLATFORM_LENGTHS,
)
from .messages import piece_names
from .models import Match

MAX_PLAYERS = 4


def _seed(request) -> int | None:
    """An optional ?seed= replays a match exactly (handy for tests and for sharing)."""
    raw = request.GET.get("seed", "")
    return int(raw) if raw.isdigit() and len(raw) < 18 else None


# The API is called with fetch; a logged-in person's session needs the CSRF cookie.
@ensure_csrf_cookie
def setup(request):
    return render(
        request,
        "paletti/setup.html",
        {
            "seed": _seed(request),
            "seats": range(1, MAX_PLAYERS + 1),
            "arrangement": _arrangement(),
            "names": piece_names(),
            "lobby_url": reverse("paletti:lobby"),
        },
    )


def _arrangement() -> dict:
    """What the set-up page needs to let the players arrange the columns themselves: the
    usual arrangement to start from, and the pieces' sizes to draw it."""
    return {
        "setup": default_setup(),
        "columns": [
            {"id": c.id, "colour": c.colour, "kind": c.kind, "width": c.width} for c in COLUMNS
        ],
        "base_length": BASE_LENGTH,
        "forbidden_half_width": FORBIDDEN_HALF_WIDTH,
        "column_height": COLUMN_HEIGHT,
        "blue_length": PLATFORM_LENGTHS[0],
        "lanes": list(LANES),
        # Each row's depth z (mm, negative at the front): the page places columns by (x, z).
        "lane_depths": [LANE_DEPTH[lane] for lane in LANES],
    }


def _match_or_404(match_id) -> Match:
    try:
        return services.get_match(match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def qr_data_uri(url: str) -> str:
    """A QR code of `url` as an SVG data URI (the site's CSP allows data: images)."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


@ensure_csrf_cookie
def match(request, match_id):
    """The play page, as the viewer's keys make it (paletti.seats): the organiser's device
    also shows the links to hand out; a viewer without a key is told how to get one."""
    match = _match_or_404(match_id)
    if not services.playable(match):
        # Stored by an earlier engine: say so, rather than a page that cannot load it.
        return render(request, "paletti/outdated.html", {"match": match}, status=410)
    seat_rows = services.seats_of(match)
    try:
        viewer = seats.viewer_of(request, match, seat_rows)
    except seats.Refused as refusal:
        return render(request, "paletti/no_seat.html", {"reason": refusal.detail}, status=403)
    if not viewer.admitted:
        reason = seats.REPLACED if viewer.replaced else seats.NO_SEAT
        return render(request, "paletti/no_seat.html", {"reason": reason}, status=403)
    links = []
    if viewer.organiser:
        links = [
            {"link": link, "qr": qr_data_uri(link.url) if link.url else None}
            for link in seats.links_of(request, match, seat_rows)
        ]
    return render(
        request,
        "paletti/match.html",
        {
            "match": match,
            "names": piece_names(),
            "viewer": viewer,
            "role_line": role_line(viewer, match, seat_rows),
            "remote_seats": [seat for seat in seat_rows if seat.key_digest],
            "links": links,
        },
    )


def role_line(viewer: seats.Viewer, match: Match, seat_rows) -> str:
    """Who this device plays for, said under the banner; nothing around one shared
    screen, where the page is as it always was."""
    mine = ", ".join(seat.name for seat in seat_rows if viewer.may_act_for(seat.index))
    if viewer.organiser:
        if not any(seat.key_digest for seat in seat_rows):
            return ""
        if not mine:
            return _("This device hands out the links: every player plays on their own device.")
        return _("This device plays for %(names)s; the others play on their own devices.") % {
            "names": mine
        }
    if viewer.seats and not seats.open_match(match):
        return _("This device plays for %(names)s.") % {"names": mine}
    if viewer.spectator and not viewer.seats:
        return _("You are watching this match: the players' moves appear as they make them.")
    return ""


@never_cache
@ensure_csrf_cookie
def join(request, match_id):
    """A link's landing page. The secret is in the address's fragment, which browsers never
    send: the page's script posts it to the API (which keeps it in this device's session)
    and replaces the address with the match's, so the secret stays out of every server's
    log, every Referer and the history."""
    match = _match_or_404(match_id)
    return render(request, "paletti/join.html", {"match": match})


@require_POST
def replace_link(request, match_id):
    """The organiser replaces a seat's or the spectators' link (the form on the play
    page); the old link stops working at once."""
    match = _match_or_404(match_id)
    seat_rows = services.seats_of(match)
    try:
        viewer = seats.viewer_of(request, match, seat_rows, writing=True)
    except seats.Refused as refusal:
        return render(request, "paletti/no_seat.html", {"reason": refusal.detail}, status=403)
    if not viewer.organiser:
        return render(request, "paletti/no_seat.html", {"reason": seats.NOT_ORGANISER}, status=403)
    which = request.POST.get("which", "")
    try:
        seat = seats.link_target(which, seat_rows)
    except seats.Refused as refusal:
        return HttpResponseBadRequest(str(refusal.detail))
    secret = services.replace_link(match=match, seat=seat)
    seats.remember_links(request.session, match.pk, {which: secret})
    return redirect(reverse("paletti:match", kwargs={"match_id": match.pk}) + "#links")
