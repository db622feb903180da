"""The tournament's event stream: the big screen and the players' phones redraw when the
tournament changes, as the matches' devices do (catalogue.live wakes the streams,
catalogue.streams serves them).

Every change either page shows adds one to `Tournament.version` in its transaction
(services.changed); after the commit only the tournament's id and that version are
published. `GET /<lang>/tournament/<code>/stream/` is as public as the big screen's JSON
(the tournament's public code) and says no more than it: each event is an `update` whose
`id` is the version and whose data are the two counters (`{"version": n, "phones": m}`,
`phones` moving with the changes a player's page shows); the page then asks `screen.json`
(or its own state) for what changed. A deleted tournament ends the stream with a `gone` event.
"""

from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from catalogue import live, streams

from .models import Tournament

TOPIC = live.topic("tournament")
TOO_MANY = _("Too many screens follow tournaments on this server right now: try again shortly.")
GONE = _("This tournament no longer exists.")


def key(tournament_id) -> str:
    return f"{TOPIC}:{tournament_id}"


def publish(tournament_id, version: int) -> None:
    live.publish(key(tournament_id), version)


def current_version(tournament_id) -> int | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()


def current_versions(tournament_id) -> tuple[int, int] | None:
    versions = Tournament.objects.filter(pk=tournament_id)
    return versions.values_list("version", "phones_version").first()


class TournamentFeed(streams.Feed):
    def __init__(self, tournament_id: int):
        self.tournament_id = tournament_id
        self.key = key(tournament_id)

    def read(self, since):
        versions = current_versions(self.tournament_id)
        if versions is None:
            return streams.gone("tournament_gone", GONE)
        version, phones = versions
        if since == version:
            return streams.Read("", since)
        data = {"version": version, "phones": phones}
        return streams.Read(streams.event("update", data, version), version)

    def version(self):
        return current_version(self.tournament_id)


def _feed(request, code):
    tournament_id = Tournament.objects.filter(code=code).values_list("pk", flat=True).first()
    if tournament_id is None:
        return streams.answer({"code": "not_found", "detail": str(_("No such tournament."))}, 404)
    return TournamentFeed(tournament_id)


@require_GET
async def stream(request, code):
    """The tournament's event stream (async: see the module's docstring)."""
    return await streams.serve(request, lambda request: _feed(request, code), too_many=TOO_MANY)
