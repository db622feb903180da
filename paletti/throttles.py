"""How often one client address may start matches and post actions.

The rates come from settings.PALETTI_THROTTLE_RATES (DJANGO_THROTTLE_* in the environment),
read on each request so that they can be changed without touching code. The counts live in
Django's default cache, which every app server shares (see settings.CACHES). The address
is catalogue.clients.client_address: the socket's, or behind DJANGO_NUM_PROXIES proxies
the one the outermost trusted proxy saw; never a header the client wrote itself.
"""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from catalogue.clients import client_address


class PalettiThrottle(SimpleRateThrottle):
    """Per client address, in the scope's rate ("120/hour"); no rate means no limit."""

    def get_rate(self):
        return settings.PALETTI_THROTTLE_RATES.get(self.scope) or None

    def get_ident(self, request):
        return client_address(request)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class MatchCreationThrottle(PalettiThrottle):
    scope = "match-creation"


class MatchActionThrottle(PalettiThrottle):
    scope = "match-actions"
