"""API fields that take what their schema says and nothing it does not."""

from rest_framework import serializers


class StrictStringMixin:
    """A string field refusing numbers: DRF's own turns `"title": 0` into "0" although
    the schema says a string."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(StrictStringMixin, serializers.CharField):
    pass


class StrictSlugField(StrictStringMixin, serializers.SlugField):
    pass


class StrictEmailField(StrictStringMixin, serializers.EmailField):
    pass


class StrictURLField(StrictStringMixin, serializers.URLField):
    pass
