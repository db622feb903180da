"""The OpenAPI schema says every answer the API can give, errors included."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS


class ErrorSerializer(serializers.Serializer):
    """An error. `detail` says why in the reader's language, `code` names it for a
    program; a refused body instead (or also) maps each field at fault to its reasons."""

    code = serializers.CharField(required=False)
    detail = serializers.CharField(required=False)


ERRORS = {
    "400": "Malformed: a bad parameter, body or character; the body says which and why.",
    "403": "Not signed in as staff with the permission this needs.",
    "404": "No such resource, or no such page of a list.",
    "413": "The request body is over the size limit.",
    "429": "Too many requests from this address; `Retry-After` says when to try again.",
}


class ErrorDocumentingAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus the error answers every operation can give: 400 for
    any (a NUL character anywhere is one), 404 where the path names a resource or a list
    has pages, 403 and 413 for writes, 429 where a throttle counts requests."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = ["400"]
        if "{" in self.path or (self._is_list_view() and self._get_paginator()):
            codes.append("404")  # a resource, or a page, that does not exist
        if self.method not in SAFE_METHODS:
            codes.append("413")
            if self._needs_permission():
                codes.append("403")
        if getattr(self.view, "throttle_classes", None):
            codes.append("429")
        for code in codes:
            if code not in responses:
                response = OpenApiResponse(ErrorSerializer, description=ERRORS[code])
                responses[code] = self._get_response_for_code(response, code, direction=direction)
        return dict(sorted(responses.items()))

    def _needs_permission(self) -> bool:
        from rest_framework.permissions import AllowAny

        permissions = getattr(self.view, "permission_classes", [])
        return not all(issubclass(p, AllowAny) for p in permissions)


def add_match_links(result, generator, request, public):
    """OpenAPI links from a created match to reading it and playing in it, so that a
    client (and schemathesis's stateful tests) can follow the match's id."""
    created = result["paths"]["/api/paletti/matches/"]["post"]["responses"]["201"]
    match_id = {"match_id": "$response.body#/id"}
    created["links"] = {
        "GetMatch": {"operationId": "paletti_matches_retrieve", "parameters": match_id},
        "PlayInMatch": {"operationId": "paletti_matches_actions_create", "parameters": match_id},
    }
    return result
