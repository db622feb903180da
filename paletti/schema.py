"""What the API's OpenAPI schema says of matches beyond what drf-spectacular reads from the
views (a hook of SPECTACULAR_SETTINGS)."""

from .seats import TOKEN_HEADER
from .serializers import PLAYERS

MATCH_PATHS = "/api/paletti/matches/{match_id}/"
SEAT_TOKEN = {
    "type": "apiKey",
    "in": "header",
    "name": TOKEN_HEADER,
    "description": (
        "One of a match's keys: the organiser's (`organiser_token` in the answer that "
        "created the match: it acts for the persons on the organiser's device and replaces "
        "links), a seat's (the secret after the `#` of its link: it acts for that seat) or "
        "the spectators' (it shows the match). A browser sends none: its session cookie "
        "holds the keys of the matches it set up or joined (then a write also needs the "
        "CSRF token, `X-CSRFToken`). A match stored before seats had keys needs none."
    ),
}


def add_match_links(result, generator, request, public):
    """A match's 2 to 4 players (drf-spectacular leaves a list's length out), how a seat's
    key is sent, and OpenAPI links from a created match to reading it, following it and
    playing in it, so that a client (and schemathesis's stateful tests) can follow the
    match's id with the organiser's key."""
    players = result["components"]["schemas"]["CreateMatch"]["properties"]["players"]
    players.update(minItems=PLAYERS["min_length"], maxItems=PLAYERS["max_length"])
    result["components"].setdefault("securitySchemes", {})["seatToken"] = SEAT_TOKEN
    for path, operations in result["paths"].items():
        if path.startswith(MATCH_PATHS):
            for operation in operations.values():
                # The header, the session, or (a match stored before keys) nothing; a join
                # gives the session its key.
                operation["security"] = (
                    [{"cookieAuth": []}, {}]
                    if path.endswith("/join/")
                    else [{"seatToken": []}, {"cookieAuth": []}, {}]
                )
    # A version is 0 to 2**31 - 1, whichever way it is sent (drf-spectacular takes no bounds
    # for an integer parameter).
    for path in (MATCH_PATHS + "updates/", MATCH_PATHS + "stream/"):
        for parameter in result["paths"][path]["get"]["parameters"]:
            if parameter["name"] in ("since", "Last-Event-ID"):
                parameter["schema"].update(minimum=0, maximum=2**31 - 1)
    created = result["paths"]["/api/paletti/matches/"]["post"]["responses"]["201"]
    # The organiser's key goes with the id: without it the match answers 403.
    match_id = {
        "match_id": "$response.body#/id",
        f"header.{TOKEN_HEADER}": "$response.body#/organiser_token",
    }
    created["links"] = {
        "GetMatch": {"operationId": "paletti_matches_retrieve", "parameters": match_id},
        "PlayInMatch": {"operationId": "paletti_matches_actions_create", "parameters": match_id},
        "FollowMatch": {
            "operationId": "paletti_matches_updates_retrieve",
            "parameters": {**match_id, "since": "$response.body#/state/version"},
        },
        "FollowMatchLive": {
            "operationId": "paletti_matches_stream_retrieve",
            "parameters": {**match_id, "since": "$response.body#/state/version"},
        },
    }
    return result
