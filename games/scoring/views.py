"""The score sheets' pages: a form that counts when it is submitted (no script needed),
and counts as the players type when the page's script runs (``static/js/score.js``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from ..models import Game
from . import alhambra, petit_prince, sheets
from .alhambra import Building
from .forms import PlayerCountForm

PETIT_PRINCE = "le-petit-prince-fabrique-moi-une-planete"
ALHAMBRA = "alhambra"
SLUGS = (PETIT_PRINCE, ALHAMBRA)


def has_score_sheet(slug: str) -> bool:
    return slug in SLUGS


def _submitted(request) -> bool:
    return any(key.startswith(("players.", "scorings.")) for key in request.GET)


def points_table() -> list[dict]:
    """Alhambra's table, row by row, as the page prints it."""
    return [
        {
            "label": building.label,
            **{
                name: "/".join(map(str, alhambra.points_by_place(building, number)))
                for number, name in ((1, "first"), (2, "second"), (3, "third"))
            },
        }
        for building in Building
    ]


def score_sheet(request, slug):
    """``/<language>/games/<slug>/score/``: the score sheet of a game that has one."""
    if not has_score_sheet(slug):
        raise Http404
    game = get_object_or_404(Game, slug=slug)
    data = request.GET if _submitted(request) else None
    if slug == PETIT_PRINCE:
        count = PlayerCountForm(
            request.GET,
            fewest=petit_prince.MIN_PLAYERS,
            most=petit_prince.MAX_PLAYERS,
            default=petit_prince.MIN_PLAYERS,
        )
        sheet = sheets.petit_prince_sheet(data, count.count())
        template = "scoring/petit_prince.html"
        api_url = reverse("api:score-petit-prince")
        extra = {"counts": list(petit_prince.COUNTS)}
    else:
        count = PlayerCountForm(
            request.GET,
            fewest=alhambra.MIN_PLAYERS,
            most=alhambra.MAX_PLAYERS,
            default=alhambra.MIN_PLAYERS,
        )
        sheet = sheets.alhambra_sheet(data, count.count())
        template = "scoring/alhambra.html"
        api_url = reverse("api:score-alhambra")
        extra = {"buildings": list(Building), "points_table": points_table()}
    sheet.check()
    errors = sheet.errors() if data is not None else {}
    context = {
        "game": game,
        "count_form": count,
        "players": count.count(),
        "sheet": sheet,
        "report": sheet.report,
        "errors": errors,
        "api_url": api_url,
        **extra,
    }
    status = 400 if errors else 200
    return render(request, template, context, status=status)
