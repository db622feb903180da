"""The tournament's pages: the staff's desk, the players' phones (by personal code), the
big screen and the standings (by the tournament's public code)."""

from __future__ import annotations

import csv

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from reversion.models import Version

from . import selectors, services, throttles
from .forms import CorrectionForm, RegistrationForm, ResultForm, TournamentForm
from .models import Player, ResultStatus, Table, Tournament


def staff_only(permission: str):
    def decorate(view):
        return login_required(
            permission_required(permission, raise_exception=True)(view), login_url="admin:login"
        )

    return decorate


def qr_data_uri(url: str) -> str:
    """A QR code of `url` as an SVG data URI (the site's CSP allows data: images)."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def _absolute(request, name: str, **kwargs) -> str:
    return request.build_absolute_uri(reverse(name, kwargs=kwargs))


# The staff's pages --------------------------------------------------------------------


@staff_only("tournament.view_tournament")
def tournament_list(request):
    return render(
        request,
        "tournament/list.html",
        {"tournaments": Tournament.objects.select_related("game").upcoming_first()},
    )


@staff_only("tournament.add_tournament")
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            tournament = form.save()
            return redirect(tournament)
        return render(request, "tournament/create.html", {"form": form}, status=400)
    return render(request, "tournament/create.html", {"form": form})


def _desk(request, tournament: Tournament, *, status: int = 200, form=None):
    round_ = selectors.current_round(tournament)
    players = list(tournament.players.all())
    next_number = (round_.number + 1) if round_ else 1
    next_is_final = tournament.final_table and next_number == tournament.rounds + 1
    rules = tournament.table_rules
    # The current round's matches on the site, where each stands (a stuck one shows).
    matches = []
    if round_ is not None:
        for table in round_.tables.filter(digital=True).order_by("number"):
            watched = rules.watch(table)
            if watched is not None:
                matches.append({"number": table.number, "on_site": watched})
    return render(
        request,
        "tournament/desk.html",
        {
            "tournament": tournament,
            "round": round_,
            "rounds": selectors.rounds_with_tables(tournament),
            "players": players,
            "form": form or RegistrationForm(age_note=tournament.table_rules.age_note),
            "round_complete": selectors.round_complete(round_),
            "next_number": next_number,
            # A next round to start: a round, or the final table after the last one.
            "has_next": next_number <= tournament.rounds or next_is_final,
            "next_is_final": next_is_final,
            "join_url": _absolute(request, "tournament:join", code=tournament.code),
            "rules": tournament.table_rules.agreed(tournament.rule_options),
            "on_site": tournament.table_rules.plays_on_site,
            "matches": matches,
            # Tables of the current round that could still be played on the site.
            "on_site_waiting": round_ is not None
            and round_.tables.filter(digital=False, status=ResultStatus.OPEN).exists(),
        },
        status=status,
    )


@staff_only("tournament.change_tournament")
def desk(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    return _desk(request, tournament)


@staff_only("tournament.change_tournament")
@require_POST
def desk_register(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    form = RegistrationForm(request.POST, age_note=tournament.table_rules.age_note)
    if not form.is_valid():
        return _desk(request, tournament, status=400, form=form)
    try:
        player = services.register(tournament=tournament, at_desk=True, **form.cleaned_data)
    except services.TournamentError as error:
        form.add_error(None, error.message)
        return _desk(request, tournament, status=error.status, form=form)
    messages.success(request, _("%(name)s is registered.") % {"name": player.name})
    return redirect(tournament)


@staff_only("tournament.change_tournament")
@require_POST
def player_presence(request, pk, player_pk):
    player = get_object_or_404(Player, pk=player_pk, tournament_id=pk)
    present = request.POST.get("present")
    if present not in ("0", "1"):
        return HttpResponse(status=400)
    services.set_present(player=player, present=present == "1")
    return redirect(player.tournament)


@staff_only("tournament.change_tournament")
@require_POST
def registration(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    value = request.POST.get("open")
    if value not in ("0", "1"):
        return HttpResponse(status=400)
    services.set_registration(tournament=tournament, open_=value == "1")
    return redirect(tournament)


@staff_only("tournament.change_tournament")
@require_POST
def round_start(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    try:
        round_ = services.start_round(tournament=tournament)
    except services.TournamentError as error:
        messages.error(request, error.message)
        return _desk(request, tournament, status=error.status)
    messages.success(request, _("Round %(number)d has started.") % {"number": round_.number})
    return redirect(tournament)


@staff_only("tournament.change_tournament")
@require_POST
def finish(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    try:
        services.finish(tournament=tournament)
    except services.TournamentError as error:
        messages.error(request, error.message)
        return _desk(request, tournament, status=error.status)
    return redirect("tournament:standings", code=tournament.code)


@staff_only("tournament.change_table")
@require_POST
def play_on_site(request, pk):
    """A table of the current round (`table`), or every one still open (`table` "all"),
    becomes a match on the site, each player on their own device."""
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    which = request.POST.get("table", "")
    table = None
    if which != "all":
        if not which.isdigit() or len(which) > 18:
            return HttpResponse(status=400)
        table = get_object_or_404(Table, pk=int(which), round__tournament=tournament)
    try:
        started = services.play_on_site(tournament=tournament, table=table)
    except services.TournamentError as error:
        messages.error(request, error.message)
        return _desk(request, tournament, status=error.status)
    if started:
        numbers = ", ".join(str(t.number) for t in started)
        messages.success(
            request,
            ngettext(
                "Table %(numbers)s is played on the site.",
                "Tables %(numbers)s are played on the site.",
                len(started),
            )
            % {"numbers": numbers},
        )
    else:
        messages.info(request, _("No table of this round is waiting for its result."))
    return redirect(tournament)


@staff_only("tournament.change_tournament")
def cards(request, pk):
    """One card a player: their name and the QR of their personal link, to print and cut."""
    tournament = get_object_or_404(Tournament, pk=pk)
    players = tournament.players.all()
    only = request.GET.get("player", "")
    if only:
        if not only.isdigit() or len(only) > 18:
            return HttpResponse(status=400)
        players = players.filter(pk=int(only))
    cards = []
    for player in players:
        url = _absolute(request, "tournament:player", token=player.token)
        cards.append({"player": player, "url": url, "qr": qr_data_uri(url)})
    return render(request, "tournament/cards.html", {"tournament": tournament, "cards": cards})


@staff_only("tournament.change_table")
def table_correct(request, pk, table_pk):
    """Staff set or correct a table's result, with its history."""
    table = get_object_or_404(
        Table.objects.select_related("round__tournament__game"), pk=table_pk, round__tournament=pk
    )
    tournament = table.round.tournament
    form = CorrectionForm(request.POST or None, table=table, rules=tournament.table_rules)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.correct_result(
                    user=request.user,
                    table=table,
                    result=form.result(),
                    note=form.cleaned_data["note"],
                )
            except ValueError as error:
                form.add_error(None, str(error))
            else:
                saved = _("The result of table %(number)d is saved.")
                messages.success(request, saved % {"number": table.number})
                return redirect(tournament)
        status = 400
    history = Version.objects.get_for_object(table).select_related("revision__user")
    return render(
        request,
        "tournament/correct.html",
        {"tournament": tournament, "table": table, "form": form, "history": history},
        status=status,
    )


# The players' phones ------------------------------------------------------------------


def join(request, code):
    """The public link: a player registers with a name and an age, and gets their page.
    Throttled per client address (throttles.py): 429 with Retry-After beyond the rate."""
    wait = throttles.refused(request)
    if wait is not None:
        response = render(
            request, "tournament/too_many.html", {"minutes": -(-wait // 60)}, status=429
        )
        response["Retry-After"] = str(wait)
        return response
    tournament = get_object_or_404(Tournament.objects.select_related("game"), code=code)
    form = RegistrationForm(request.POST or None, age_note=tournament.table_rules.age_note)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                player = services.register(tournament=tournament, **form.cleaned_data)
            except services.TournamentError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                return redirect(player)
        else:
            status = 400
    return render(
        request,
        "tournament/join.html",
        {
            "tournament": tournament,
            "form": form,
            "rules": tournament.table_rules.agreed(tournament.rule_options),
        },
        status=status,
    )


def _player(token: str) -> Player:
    return get_object_or_404(Player.objects.select_related("tournament__game"), token=token)


def _player_page(request, player: Player, *, form=None, error=None, status: int = 200):
    tournament = player.tournament
    round_ = selectors.current_round(tournament)
    seat = selectors.seat_of(player, round_)
    table = seat.table if seat else None
    context = {
        "player": player,
        "tournament": tournament,
        "round": round_,
        "seat": seat,
        "table": table,
        "error": error,
        "version": selectors.player_version(player),
        "rules": tournament.table_rules.agreed(tournament.rule_options),
        "table_rules": tournament.table_rules,
        "bye": round_ is not None and round_.byes.filter(player=player).exists(),
    }
    if table is not None:
        seats = list(table.seats.select_related("player"))
        for s in seats:
            s.colour_names = selectors.colours_text(tournament, s.colours)
        by_pk = {s.pk: s for s in seats}
        rules = tournament.table_rules
        context.update(
            {
                # This player's own link to the table's match (their seat's secret).
                "match_link": rules.seat_link(seat) if table.digital else None,
                "seats": seats,
                "colours": selectors.colours_text(tournament, seat.colours),
                "neutral": selectors.colours_text(tournament, [table.neutral])
                if table.neutral
                else "",
                "first": next((s for s in seats if s.position == table.first_position), None),
                "winner": by_pk.get(table.winner_id),
                "brought_down": by_pk.get(table.brought_down_id),
                "entered_by": by_pk.get(table.entered_by_id),
                "confirmed_by": by_pk.get(table.confirmed_by_id),
                "entered_by_me": table.entered_by_id == seat.pk,
                "current": not tournament.finished,
                "by_place": sorted(
                    (s for s in seats if s.place), key=lambda s: (s.place, s.position)
                ),
                "form": form or ResultForm(table=table, rules=tournament.table_rules),
            }
        )
    rows = selectors.standings(tournament)
    context["standing"] = next((r.standing for r in rows if r.player.pk == player.pk), None)
    return render(request, "tournament/player.html", context, status=status)


@never_cache
@require_GET
def player(request, token):
    return _player_page(request, _player(token))


@require_POST
def player_result(request, token):
    player = _player(token)
    seat = selectors.seat_of(player, selectors.current_round(player.tournament))
    if seat is None:
        return _player_page(request, player, error=_("You have no table this round."), status=403)
    table = seat.table
    form = ResultForm(request.POST, table=table, rules=player.tournament.table_rules)
    if not form.is_valid():
        return _player_page(request, player, form=form, status=400)
    try:
        services.enter_result(seat=seat, result=form.result())
    except services.TournamentError as error:
        return _player_page(request, player, error=error.message, status=error.status)
    except ValueError:
        return _player_page(request, player, form=form, status=400)
    return redirect(player)


@require_POST
def player_confirm(request, token):
    player = _player(token)
    seat = selectors.seat_of(player, selectors.current_round(player.tournament))
    if seat is None:
        return _player_page(request, player, error=_("You have no table this round."), status=403)
    entry = request.POST.get("entry", "")
    if not entry.isdigit() or len(entry) > 9:
        return _player_page(request, player, error=_("That confirmation is not valid."), status=400)
    try:
        services.confirm_result(seat=seat, entry=int(entry))
    except services.TournamentError as error:
        return _player_page(request, player, error=error.message, status=error.status)
    return redirect(player)


@never_cache
@require_GET
def player_state(request, token):
    """What the phone's page polls: a version that changes when its content may."""
    return JsonResponse({"version": selectors.player_version(_player(token))})


# The room: big screen and standings ---------------------------------------------------


def _by_code(code: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("game"), code=code)


@require_GET
def screen(request, code):
    tournament = _by_code(code)
    join_url = _absolute(request, "tournament:join", code=tournament.code)
    return render(
        request,
        "tournament/screen.html",
        {
            "tournament": tournament,
            "table_rules": tournament.table_rules,
            "data": selectors.screen(tournament),
            "join_url": join_url,
            "join_qr": qr_data_uri(join_url),
            "labels": {
                "open": str(ResultStatus.OPEN.label),
                "pending": str(ResultStatus.PENDING.label),
                "confirmed": str(ResultStatus.CONFIRMED.label),
                "table": _("Table %(number)s"),
                "round": _("Round %(number)s of %(total)s"),
                "final": _("The final table"),
                "wins": _("%(name)s wins"),
                "shared": _("%(names)s share the win"),
                "place": _("place %(place)s"),
                "brought_down": str(tournament.table_rules.brought_down_sentence),
                "on_site": _("Played on the site"),
                "watch": _("Watch the match"),
                "time_up": _("Time is up"),
                "byes": _("Sitting this round out:"),
                "left": _("left"),
                "before": _("Registration: %(count)s players so far"),
                "over": _("The tournament is over"),
            },
        },
    )


@never_cache
@require_GET
def screen_data(request, code):
    """The big screen's data, polled every few seconds."""
    return JsonResponse(selectors.screen(_by_code(code)))


@require_GET
def standings(request, code):
    tournament = _by_code(code)
    return render(
        request,
        "tournament/standings.html",
        {
            "tournament": tournament,
            "table_rules": tournament.table_rules,
            "rows": selectors.standings(tournament),
            "rounds_played": selectors.current_round(tournament),
        },
    )


# A spreadsheet reads a cell starting with these as a formula: such names are quoted.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


@require_GET
def standings_csv(request, code):
    tournament = _by_code(code)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.code}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            _("Rank"),
            _("Name"),
            _("Points"),
            _("Game points"),
            _("Opponents' points"),
            _("Games"),
            _("Rounds sat out"),
            _("Present"),
        ]
    )
    for row in selectors.standings(tournament):
        s = row.standing
        writer.writerow(
            [
                s.rank,
                _cell(row.player.name),
                s.points,
                s.game_points,
                s.opponents_points,
                s.games,
                s.byes,
                _("yes") if row.player.present else _("no"),
            ]
        )
    return response
