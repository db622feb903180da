"""The lobby: the library's big screen, showing the matches being played now and those
finished today, each with a link to watch it (as a spectator) or to replay it.

Only matches their organiser chose to show (`Match.listed`) appear. "Now" and "today"
are ours to define where the issue is silent: a match is being played now while its last
action is at most PLAYING_WINDOW old (one left mid-game drops off rather than sitting
on the screen for ever), and today is the calendar day in the site's time zone
(settings.TIME_ZONE), since a ludothèque closes at night.

The page is drawn by static/js/paletti/lobby.js from the same JSON the endpoint gives,
which it polls every few seconds (lobby.html says how often): a big screen left on all
afternoon follows the matches without anyone reloading it, and without the flash of a
whole page reloaded.
"""

from datetime import datetime, time, timedelta

from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from . import engine, services
from .api import MatchAPIView
from .messages import COLOURS
from .models import Match, MatchStatus, SeatKind
from .store import SEATS_IN_ORDER

PLAYING_WINDOW = timedelta(minutes=30)
# As many of each list as a screen across a room can show and anyone read.
LOBBY_SIZE = 12
# How often the page asks for the lists again (seconds).
REFRESH_SECONDS = 5


def _listed():
    return Match.objects.filter(listed=True).prefetch_related(SEATS_IN_ORDER)


def playing_now(*, now: datetime | None = None):
    """Listed matches being played: an action (or the set-up) within PLAYING_WINDOW,
    most recently moved first."""
    now = now or timezone.now()
    return (
        _listed()
        .filter(status=MatchStatus.PLAYING, updated_at__gte=now - PLAYING_WINDOW)
        .order_by("-updated_at", "pk")
    )


def start_of_today(now: datetime | None = None) -> datetime:
    """Midnight today in the site's time zone."""
    today = timezone.localdate(now or timezone.now())
    return timezone.make_aware(datetime.combine(today, time.min))


def finished_today(*, now: datetime | None = None):
    """Listed matches that ended today (site's time zone), most recent first."""
    now = now or timezone.now()
    return (
        _listed()
        .filter(
            status=MatchStatus.FINISHED, updated_at__gte=start_of_today(now), updated_at__lte=now
        )
        .order_by("-updated_at", "pk")
    )


def _ago(moment: datetime, now: datetime) -> str:
    """How long ago, in the lobby's range (a day at most), with each language's count
    forms: "1 minutę temu", "3 minuty temu", "5 minut temu"."""
    minutes = int((now - moment).total_seconds() // 60)
    if minutes < 1:
        return _("just now")
    if minutes < 60:
        return ngettext("%(count)d minute ago", "%(count)d minutes ago", minutes) % {
            "count": minutes
        }
    hours = minutes // 60
    return ngettext("%(count)d hour ago", "%(count)d hours ago", hours) % {"count": hours}


def card(match: Match, now: datetime) -> dict | None:
    """One match as the lobby shows it: its players (name, colours, bot or person, score),
    who is to play or who won, how long ago, and where to watch or replay it. None for a
    match an earlier engine stored (it can be neither watched nor replayed)."""
    if not services.playable(match):
        return None
    state = services.load_state(match)
    rules = state.rules
    view_players = engine.state_to_json(state)["players"]
    seat_rows = services.seats_of(match)
    finished = match.status == MatchStatus.FINISHED
    to_act = None if finished else rules.to_act
    players = [
        {
            "name": seat.name,
            "bot": seat.kind == SeatKind.BOT,
            "colours": [
                {"colour": colour, "label": str(COLOURS.get(colour, colour))}
                for colour in shown["colours"]
            ],
            "score": shown["score"],
            "to_play": seat.index == to_act,
            "won": finished and seat.index == rules.winner,
        }
        for seat, shown in zip(seat_rows, view_players, strict=True)
    ]
    names = [seat.name for seat in seat_rows]
    if finished:
        won = rules.winner is not None and 0 <= rules.winner < len(names)
        headline = _("%(name)s won") % {"name": names[rules.winner]} if won else _("Nobody won")
        when = _("finished %(ago)s") % {"ago": _ago(match.updated_at, now)}
        url = reverse("paletti:replay", kwargs={"match_id": match.pk})
    else:
        headline = _("%(name)s to play") % {"name": names[to_act]} if to_act is not None else ""
        when = _("last move %(ago)s") % {"ago": _ago(match.updated_at, now)}
        url = match.get_absolute_url()
    return {
        "id": str(match.pk),
        "status": match.status,
        "players": players,
        "headline": headline,
        "when": when,
        "at": match.updated_at.isoformat(),
        "actions": match.version,
        "url": url,
    }


def lobby_data(*, now: datetime | None = None) -> dict:
    """Both lists, as the page and the endpoint give them."""
    now = now or timezone.now()

    def cards(matches):
        return [shown for m in matches[:LOBBY_SIZE] if (shown := card(m, now)) is not None]

    return {
        "playing": cards(playing_now(now=now)),
        "finished": cards(finished_today(now=now)),
        "refresh": REFRESH_SECONDS,
    }


def page(request):
    """The lobby page: drawn from lobby_data, then kept current by its script."""
    return render(request, "paletti/lobby.html", {"lobby": lobby_data()})


class LobbyColourSerializer(serializers.Serializer):
    colour = serializers.CharField()
    label = serializers.CharField(help_text="The colour's name in the active language.")


class LobbyPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    bot = serializers.BooleanField()
    colours = LobbyColourSerializer(many=True)
    score = serializers.IntegerField()
    to_play = serializers.BooleanField()
    won = serializers.BooleanField()


class LobbyMatchSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    players = LobbyPlayerSerializer(many=True)
    headline = serializers.CharField(help_text="Who is to play, or who won.")
    when = serializers.CharField(help_text="How long ago it last moved, or ended.")
    at = serializers.DateTimeField()
    actions = serializers.IntegerField()
    url = serializers.CharField(
        help_text="Where to watch it (a match being played) or replay it (a finished one)."
    )


class LobbySerializer(serializers.Serializer):
    playing = LobbyMatchSerializer(many=True)
    finished = LobbyMatchSerializer(many=True)
    refresh = serializers.IntegerField(help_text="Seconds until the lobby asks again.")


class LobbyView(MatchAPIView):
    """The matches shown in the library's lobby: those their organiser listed that are
    being played now (an action in the last 30 minutes) and those finished today (the
    site's time zone), at most 12 of each, most recent first. Anyone may read it: it
    carries no key, only where each match is watched or replayed."""

    @extend_schema(responses={200: LobbySerializer})
    def get(self, request):
        return Response(lobby_data())
