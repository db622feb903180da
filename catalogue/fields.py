"""API fields that take what their schema says and nothing it does not."""

import math

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


class StrictIntegerField(serializers.IntegerField):
    """An integer field refusing strings, booleans and floats: DRF's own reads "5", true
    and 5.0 as 5 although the schema says an integer."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFloatField(serializers.FloatField):
    """A number field refusing strings and booleans (DRF's own reads "1.5" and true as
    numbers), and any value that is no finite number: "nan" passes every range check
    (each comparison with it is false) and PostgreSQL refuses the JSON it is stored in."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("invalid")
        return value


class OneOfField(serializers.Field):
    """A value of one of several shapes, each a field or a serializer (its ``shapes``):
    ``shape_for`` picks the one that reads a value, whose errors are then the value's (a
    serializer's nested by field). Its schema says one of the shapes' own schemas
    (catalogue.schema.OneOfFieldExtension)."""

    def __init__(self, *, shapes, **kwargs):
        self.shapes = shapes
        super().__init__(**kwargs)

    def shape_for(self, data) -> serializers.Field:
        raise NotImplementedError

    def to_internal_value(self, data):
        return self.shape_for(data).run_validation(data)

    def to_representation(self, value):
        return value
