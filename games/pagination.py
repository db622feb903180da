"""The API's pages: DRF's page-number pagination as shipped, reading a list's count from
the list itself (``games.selectors.GameList``: a count that stops at 1 000)."""

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response


class GamePagination(PageNumberPagination):
    """Pages of 20; a client may ask for up to 100 with ``page_size`` (another size is a
    400, not silently changed). ``count`` stops at 1 000 (``count_capped`` is then true:
    there are more)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request):
        PageSizeSerializer(data=request.query_params).is_valid(raise_exception=True)
        return super().get_page_size(request)

    def get_paginated_response(self, data):
        return Response(
            {
                "count": self.page.paginator.count,
                # A list of the catalogue knows whether it counted them all; any other
                # list is counted whole by the paginator.
                "count_capped": getattr(self.page.paginator.object_list, "count_capped", False),
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema):
        response = super().get_paginated_response_schema(schema)
        response["properties"]["count_capped"] = {
            "type": "boolean",
            "description": "True when there are more results than count says.",
            "example": False,
        }
        response["properties"] = {
            key: response["properties"][key]
            for key in ("count", "count_capped", "next", "previous", "results")
        }
        return response


class PageSizeSerializer(serializers.Serializer):
    page_size = serializers.IntegerField(
        min_value=1, max_value=GamePagination.max_page_size, required=False
    )
