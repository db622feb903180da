"""Villa Paletti's pages: set up a match, then play it. The browser talks to the API."""

from django.shortcuts import get_object_or_404, render
from django.views.decorators.csrf import ensure_csrf_cookie

from . import services
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


@ensure_csrf_cookie
def match(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    if not services.playable(match):
        # Stored by an earlier engine: say so, rather than a page that cannot load it.
        return render(request, "paletti/outdated.html", {"match": match}, status=410)
    return render(request, "paletti/match.html", {"match": match, "names": piece_names()})
