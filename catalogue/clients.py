"""Who a request comes from, the same way for the API's throttles and the admin's lockout."""

from rest_framework.throttling import BaseThrottle


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind DJANGO_NUM_PROXIES proxies the address
    the outermost trusted proxy saw (from X-Forwarded-For), as DRF's throttles count it."""
    return BaseThrottle().get_ident(request)
