"""How often one client address may open a tournament's public join page and register
through it: the link is public (printed, projected, shared), so a script could fill a
tournament's places with invented players or try codes.

DRF's own throttle (SimpleRateThrottle: a sliding history of request times per client,
kept in the default cache, which every app server shares), called from the page's view;
the rates come from settings.TOURNAMENT_THROTTLE_RATES (DJANGO_THROTTLE_TOURNAMENT_* in
the environment), read on each request; no rate means no limit. The address is
catalogue.clients.client_address, as for the API's throttles: never a header the client
wrote. Two requests at the same instant may both be let through at the edge of the rate
(the cache's read and write are two steps): a registration's real bound is the
tournament's own, at most MAX_PLAYERS places.
"""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from catalogue.clients import client_address

JOIN_PAGE = "tournament-join"
REGISTRATION = "tournament-registration"


class JoinThrottle(SimpleRateThrottle):
    """Per client address, in the scope's rate ("60/hour")."""

    def __init__(self, scope: str):
        self.scope = scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self):
        return settings.TOURNAMENT_THROTTLE_RATES.get(self.scope) or None

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def refused(request) -> int | None:
    """None when this join-page request may go on; else the seconds to wait (at least 1).
    A registration (a POST) counts in both scopes."""
    scopes = [JOIN_PAGE, REGISTRATION] if request.method == "POST" else [JOIN_PAGE]
    for scope in scopes:
        throttle = JoinThrottle(scope)
        if not throttle.allow_request(request, None):
            return max(1, int(throttle.wait() or 1))
    return None
