from django import template

register = template.Library()


@register.filter
def field_named(form, name):
    """A form's bound field by name, for a template looping over names."""
    return form[name]


@register.filter
def item(sequence, index):
    """``sequence[index]``, or None past its end (a report not made yet)."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def dotted(prefix, name):
    """A path in the sheet's JSON: ``scorings.0.players.1`` and ``wall``."""
    return f"{prefix}.{name}"
