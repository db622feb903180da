"""The copies a public record shows: how many, how many on the shelf now."""

from django import template

from games.lending.selectors import copies_on_record

register = template.Library()


@register.inclusion_tag("includes/copies_summary.html")
def copies_summary(game):
    return copies_on_record(game)
