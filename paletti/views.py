"""Villa Paletti's pages: set up a match, then play it. The browser talks to the API."""

from django.shortcuts import get_object_or_404, render
from django.views.decorators.csrf import ensure_csrf_cookie

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
        {"seed": _seed(request), "seats": range(1, MAX_PLAYERS + 1)},
    )


@ensure_csrf_cookie
def match(request, match_id):
    return render(request, "paletti/match.html", {"match": get_object_or_404(Match, pk=match_id)})
