"""Who is looking at a match, and what they may do in it: the match's secrets, the viewer
they make, and where a device keeps them.

A match set up now has three kinds of secret, each `secrets.token_urlsafe(24)` (192
random bits), of which the database keeps only a SHA-256 digest, compared in constant
time (`hmac.compare_digest`):
- the organiser's, held by the device that set the match up: it acts for the persons who
  play on that device (never for a bot, never for a seat with its own link) and it sees,
  and replaces, every link;
- one per person playing on their own device: that seat's link acts for that seat;
- the spectators' link: it shows the match and acts for nobody.
A viewer holding none of them is refused, unless the organiser listed the match in the
lobby (then they are a spectator): the match's id is in every address bar, every
log line and every Referer of the site's own pages, so it cannot be the key. A match
stored before seats had secrets (no organiser's digest) is played, as then, by whoever
holds its id.

A client presents a secret in the `X-Seat-Token` header (API clients), or through its
session: a browser that opens a link (`/paletti/join/<id>/#<secret>`: the secret is in the
fragment, which a browser never sends, so it reaches no server log and no Referer; the
join page posts it and replaces the address) or that set the match up keeps, per match,
the secrets it holds, and the organiser the links it handed out, to show them again.
A write that relies on the session needs Django's CSRF token, as DRF's
SessionAuthentication asks of its own; another site's page cannot send the header.
"""

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from enum import StrEnum

from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import Match, Seat, SeatDevice, SeatKind

TOKEN_HEADER = "X-Seat-Token"  # noqa: S105 (a header's name)
# What a secret looks like (token_urlsafe's alphabet); anything else is refused unread.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
SESSION_KEY = "paletti"
# The matches a session remembers, newest last: a device that joined more forgets the oldest.
SESSION_MATCHES = 30
SPECTATOR = "spectator"

NO_SEAT = _(
    "This match is seen through the links its organiser hands out: open yours, or ask "
    "the organiser for one."
)
REPLACED = _(
    "The link this device opened has been replaced by the match's organiser: ask them for "
    "the new one."
)
UNKNOWN_TOKEN = _(
    "This seat's key is not, or no longer, one of this match's: ask its organiser for a new link."
)
MALFORMED_TOKEN = _("A seat's key is a string of 16 to 128 letters, digits, “-” and “_”.")
SPECTATING = _("You are watching this match: a spectator does not play.")
NOT_YOUR_SEAT = _("It is %(name)s's turn, and this device does not play for %(name)s.")
NOT_ORGANISER = _("Only the device that set up this match can hand out its links.")
NO_LINK = _("Only a person playing on their own device has a link of their own.")
CSRF_FAILED = _(
    "This request relies on the session: send the page's CSRF token (X-CSRFToken), or the "
    "seat's key in X-Seat-Token."
)


class Role(StrEnum):
    ORGANISER = "organiser"
    PLAYER = "player"
    SPECTATOR = "spectator"


@dataclass(frozen=True)
class Viewer:
    """What one request may see and do in one match."""

    organiser: bool = False
    spectator: bool = False
    seats: frozenset[int] = frozenset()
    # The session held links to this match that have since been replaced.
    replaced: bool = False

    @property
    def admitted(self) -> bool:
        return self.organiser or self.spectator or bool(self.seats)

    @property
    def role(self) -> Role:
        if self.organiser:
            return Role.ORGANISER
        return Role.PLAYER if self.seats else Role.SPECTATOR

    def may_act_for(self, seat: int | None) -> bool:
        return seat is not None and seat in self.seats

    def __or__(self, other: "Viewer") -> "Viewer":
        return Viewer(
            organiser=self.organiser or other.organiser,
            spectator=self.spectator or other.spectator,
            seats=self.seats | other.seats,
            replaced=self.replaced or other.replaced,
        )


class Refused(Exception):
    """A credential the request cannot use: `status` (400 or 403), `code` and `detail`
    for the answer."""

    def __init__(self, status: int, code: str, detail):
        super().__init__(code)
        self.status = status
        self.code = code
        self.detail = detail


# Secrets ------------------------------------------------------------------------------


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _same(secret_digest: str, stored: str) -> bool:
    return bool(stored) and hmac.compare_digest(secret_digest, stored)


@dataclass
class Secrets:
    """The secrets of a match just set up or a link just replaced, in clear: handed out
    once (to the organiser's answer and session), kept nowhere else."""

    organiser: str = ""
    spectator: str = ""
    seats: dict[int, str] = field(default_factory=dict)


def issue(match: Match, seats: list[Seat]) -> Secrets:
    """New secrets for a match being set up: their digests go on the rows (unsaved)."""
    issued = Secrets(organiser=new_secret(), spectator=new_secret())
    match.organiser_digest = digest(issued.organiser)
    match.spectator_digest = digest(issued.spectator)
    for seat in seats:
        if seat.kind == SeatKind.HUMAN and seat.device == SeatDevice.OWN:
            issued.seats[seat.index] = new_secret()
            seat.key_digest = digest(issued.seats[seat.index])
    return issued


# Viewers ------------------------------------------------------------------------------


def open_match(match: Match) -> bool:
    """A match stored before seats had secrets: whoever holds its id plays it."""
    return not match.organiser_digest


def grants(match: Match, seats: list[Seat], secret: str) -> Viewer | None:
    """What `secret` opens in `match`, or None when it is none of its secrets."""
    presented = digest(secret)
    if _same(presented, match.organiser_digest):
        return Viewer(organiser=True, seats=frozenset(s.index for s in seats if s.on_shared_device))
    if _same(presented, match.spectator_digest):
        return Viewer(spectator=True)
    for seat in seats:
        if _same(presented, seat.key_digest):
            return Viewer(seats=frozenset({seat.index}))
    return None


def organiser_view(seats: list[Seat]) -> Viewer:
    return Viewer(organiser=True, seats=frozenset(s.index for s in seats if s.on_shared_device))


def viewer_of(request, match: Match, seats: list[Seat], *, writing: bool = False) -> Viewer:
    """The viewer a request is in `match`: what its header's secret and its session's
    secrets open together. A header secret that is malformed or opens nothing is refused
    (Refused): a program sent it and should be told. Session secrets that no longer open
    anything (their link was replaced) are forgotten, and the viewer says so. A write
    that relies on the session must carry the CSRF token (Refused otherwise)."""
    if open_match(match):
        return Viewer(seats=frozenset(s.index for s in seats if s.kind == SeatKind.HUMAN))
    viewer = Viewer()
    header = request.headers.get(TOKEN_HEADER)
    if header is not None:
        viewer = viewer | _header_viewer(match, seats, header)
    from_session = _session_viewer(request, match, seats)
    if from_session.admitted and writing and csrf_refusal(request):
        if viewer.admitted:
            return viewer
        raise Refused(403, "csrf_failed", CSRF_FAILED)
    viewer = viewer | from_session
    if match.listed and not viewer.admitted:
        # Shown in the lobby: anyone watches it, as a spectator, who can do nothing.
        viewer = viewer | Viewer(spectator=True)
    return viewer


def held_keys(request, match: Match) -> list[str]:
    """The secrets a request presents for `match` (its header's, then its session's), for
    a stream that checks them again each time it wakes (a link replaced meanwhile)."""
    keys = [request.headers[TOKEN_HEADER]] if TOKEN_HEADER in request.headers else []
    held = _held(request.session).get(str(match.pk))
    if isinstance(held, dict) and isinstance(held.get("keys"), list):
        keys += [k for k in held["keys"] if isinstance(k, str)]
    return keys


def viewer_holding(match: Match, seats: list[Seat], keys: list[str]) -> Viewer:
    """What these secrets open in `match` now (held_keys); nothing when none still opens."""
    if open_match(match):
        return Viewer(seats=frozenset(s.index for s in seats if s.kind == SeatKind.HUMAN))
    viewer = Viewer()
    for secret in keys:
        viewer = viewer | (grants(match, seats, secret) or Viewer())
    return viewer


def _header_viewer(match, seats, secret: str) -> Viewer:
    if not TOKEN_SHAPE.fullmatch(secret):
        raise Refused(400, "malformed_seat_token", MALFORMED_TOKEN)
    granted = grants(match, seats, secret)
    if granted is None:
        raise Refused(403, "unknown_seat_token", UNKNOWN_TOKEN)
    return granted


def _session_viewer(request, match, seats) -> Viewer:
    held = _held(request.session).get(str(match.pk))
    if not isinstance(held, dict) or not isinstance(held.get("keys", []), list):
        return Viewer()
    viewer, kept = Viewer(), []
    for secret in held.get("keys", []):
        granted = grants(match, seats, secret) if isinstance(secret, str) else None
        if granted is None:
            viewer = viewer | Viewer(replaced=True)
        else:
            viewer = viewer | granted
            kept.append(secret)
    if len(kept) != len(held.get("keys", [])):
        held["keys"] = kept
        request.session.modified = True
    return viewer


class _CSRFCheck(CsrfViewMiddleware):
    def _reject(self, request, reason):
        return reason


def csrf_refusal(request) -> str | None:
    """Why Django's CSRF check refuses this request, or None (DRF's SessionAuthentication
    runs the same check)."""
    request = getattr(request, "_request", request)
    check = _CSRFCheck(lambda _request: None)
    check.process_request(request)
    return check.process_view(request, None, (), {})


def refuse_to_act(viewer: Viewer) -> Refused | None:
    """Why this viewer may act for no seat at all (403), or None (the organiser's device
    is told, like a player's, whose turn it is instead)."""
    if viewer.seats or viewer.organiser:
        return None
    if viewer.spectator:
        return Refused(403, "spectator", SPECTATING)
    return Refused(403, "no_seat", NO_SEAT)


def not_your_seat(name: str) -> Refused:
    return Refused(403, "not_your_seat", NOT_YOUR_SEAT % {"name": name})


# What a device keeps ---------------------------------------------------------------------


def _held(session) -> dict:
    held = session.get(SESSION_KEY)
    return held if isinstance(held, dict) else {}


def _entry(session, match_id) -> dict:
    held = _held(session)
    key = str(match_id)
    entry = held.pop(key, None)
    if not isinstance(entry, dict):
        entry = {}
    held[key] = entry  # newest last
    while len(held) > SESSION_MATCHES:
        held.pop(next(iter(held)))
    session[SESSION_KEY] = held
    return entry


def remember(session, match_id, secret: str) -> None:
    """This device holds `secret` for the match from now on (a link it opened, or the
    organiser's own)."""
    entry = _entry(session, match_id)
    keys = [k for k in entry.get("keys", []) if k != secret]
    entry["keys"] = [*keys, secret]
    session.modified = True


def remember_links(session, match_id, links: dict) -> None:
    """The organiser's device keeps the links it handed out (seat index or "spectator"
    → secret), to show them again."""
    entry = _entry(session, match_id)
    entry["links"] = {**entry.get("links", {}), **{str(k): v for k, v in links.items()}}
    session.modified = True


def remember_organiser(session, match_id, issued: Secrets) -> None:
    remember(session, match_id, issued.organiser)
    remember_links(session, match_id, {SPECTATOR: issued.spectator, **issued.seats})


@dataclass(frozen=True)
class Link:
    """A link the organiser hands out: for a seat (its index and name) or the
    spectators (seat None); `url` is None when this device no longer knows it (replaced
    elsewhere, with the organiser's key in the header)."""

    seat: int | None
    name: str
    url: str | None


def join_url(request, match_id, secret: str) -> str:
    """A link's address: the join page, the secret in the fragment (never sent to a server)."""
    path = reverse("paletti-join", kwargs={"match_id": match_id})
    return f"{request.build_absolute_uri(path)}#{secret}"


def _link_name(seats: list[Seat], index: int | None) -> str:
    return str(_("Spectators")) if index is None else seats[index].name


def link_for(request, match: Match, seats: list[Seat], index: int | None, secret: str) -> Link:
    """The link of a seat (`index`) or of the spectators (None) with this secret."""
    return Link(index, _link_name(seats, index), join_url(request, match.pk, secret))


def links_of(request, match: Match, seats: list[Seat]) -> list[Link]:
    """The organiser's links, as this device's session knows them: each own-device seat in
    playing order, then the spectators'."""
    known = _held(request.session).get(str(match.pk), {}).get("links", {})
    wanted = [(s.index, s.key_digest) for s in seats if s.key_digest]
    wanted.append((None, match.spectator_digest))
    links = []
    for index, stored in wanted:
        secret = known.get(SPECTATOR if index is None else str(index))
        current = isinstance(secret, str) and _same(digest(secret), stored)
        url = join_url(request, match.pk, secret) if current else None
        links.append(Link(seat=index, name=_link_name(seats, index), url=url))
    return links


def link_target(which: str, seats: list[Seat]) -> int | None:
    """The seat a link belongs to, from "spectator" or a seat's index; Refused (400) when
    that seat plays on the shared device or is a bot."""
    if which == SPECTATOR:
        return None
    index = int(which) if which.isdigit() else -1
    if not 0 <= index < len(seats) or not seats[index].key_digest:
        raise Refused(400, "no_link", NO_LINK)
    return index
