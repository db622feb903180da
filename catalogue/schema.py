"""The OpenAPI schema says every answer the API can give, errors included."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
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
    "500": "The server hit an error of its own; try again later.",
    "503": "The database cannot be reached just now; `Retry-After` says when to try again.",
}

# Request bodies that refuse any key they do not list (catalogue.schema.refuses_unknown_keys),
# by component name: the schema says so with `additionalProperties: false`.
STRICT_COMPONENTS: set[str] = set()
UNKNOWN_FIELD = _("This field is not part of the request.")


def refuses_unknown_keys(serializer_class):
    """A serializer whose body may hold only its own fields: any other key is a 400
    naming it, and its schema component says `additionalProperties: false`."""
    parent = serializer_class.to_internal_value

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(str(key)[:40] for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: [UNKNOWN_FIELD] for key in unknown})
        return parent(self, data)

    serializer_class.to_internal_value = to_internal_value
    name = serializer_class.__name__
    STRICT_COMPONENTS.add(name.removesuffix("Serializer") if name != "Serializer" else name)
    return serializer_class


class OneOfFieldExtension(OpenApiSerializerFieldExtension):
    """A catalogue.fields.OneOfField in the schema: one of its shapes' own schemas, each
    serializer as its component (registered by being defined: this module is the API's
    schema class's)."""

    target_class = "catalogue.fields.OneOfField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schemas = []
        for shape in self.target.shapes:
            if isinstance(shape, serializers.BaseSerializer):
                schemas.append(auto_schema.resolve_serializer(shape, direction).ref)
            else:
                schemas.append(auto_schema._map_serializer_field(shape, direction))
        return {"oneOf": schemas}


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
        codes += ["500", "503"]
        for code in codes:
            if code not in responses:
                response = OpenApiResponse(ErrorSerializer, description=ERRORS[code])
                responses[code] = self._get_response_for_code(response, code, direction=direction)
        return dict(sorted(responses.items()))

    def get_auth(self):
        """A read any visitor may make says so: `{}` (no authentication) among its ways."""
        auths = super().get_auth()
        if {} not in auths and self.method in SAFE_METHODS and self._reads_are_public():
            auths.append({})
        return auths

    def _reads_are_public(self) -> bool:
        return all(
            getattr(p, "anonymous_reads", False)
            for p in getattr(self.view, "permission_classes", [])
        )

    def _get_pagination_parameters(self):
        """The page size's limits as the list enforces them (a 400 outside)."""
        parameters = super()._get_pagination_parameters()
        paginator = self._get_paginator()
        for parameter in parameters:
            if parameter["name"] == getattr(paginator, "page_size_query_param", None):
                parameter["schema"] = {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": paginator.max_page_size,
                }
                parameter["description"] = (
                    f"Results per page, {paginator.page_size} when not given, at most "
                    f"{paginator.max_page_size}."
                )
            elif parameter["name"] == getattr(paginator, "page_query_param", None):
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters

    def _needs_permission(self) -> bool:
        from rest_framework.permissions import AllowAny

        permissions = getattr(self.view, "permission_classes", [])
        return not all(issubclass(p, AllowAny) for p in permissions)


def refuse_unknown_keys_in_schema(result, generator, request, public):
    """`additionalProperties: false` on the bodies that refuse other keys."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name in STRICT_COMPONENTS or name.removeprefix("Patched") in STRICT_COMPONENTS:
            component["additionalProperties"] = False
    return result
