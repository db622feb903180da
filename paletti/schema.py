"""What the API's OpenAPI schema says of matches beyond what drf-spectacular reads from the
views (a hook of SPECTACULAR_SETTINGS)."""

from .serializers import PLAYERS


def add_match_links(result, generator, request, public):
    """A match's 2 to 4 players (drf-spectacular leaves a list's length out), and OpenAPI
    links from a created match to reading it and playing in it, so that a client (and
    schemathesis's stateful tests) can follow the match's id."""
    players = result["components"]["schemas"]["CreateMatch"]["properties"]["players"]
    players.update(minItems=PLAYERS["min_length"], maxItems=PLAYERS["max_length"])
    created = result["paths"]["/api/paletti/matches/"]["post"]["responses"]["201"]
    match_id = {"match_id": "$response.body#/id"}
    created["links"] = {
        "GetMatch": {"operationId": "paletti_matches_retrieve", "parameters": match_id},
        "PlayInMatch": {"operationId": "paletti_matches_actions_create", "parameters": match_id},
    }
    return result
