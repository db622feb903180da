"""Who a request comes from, the same way for the API's throttles and the admin's lockout."""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The client's address, as the throttles and django-axes count it.

    By default the socket's peer (REMOTE_ADDR): a client can write anything in
    X-Forwarded-For, so that header is read only behind settings.NUM_PROXIES proxies
    (DJANGO_NUM_PROXIES), and then only the entry the outermost trusted proxy appended,
    counted from the right. An entry that is not an IP address (or a header with fewer
    entries than proxies) falls back to the socket's address, never an error.
    """
    remote = _ip_or_none(request.META.get("REMOTE_ADDR", "")) or "0.0.0.0"  # noqa: S104
    proxies = settings.NUM_PROXIES
    if not proxies:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < proxies:
        return remote
    return _ip_or_none(forwarded[-proxies]) or remote


def _ip_or_none(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None
