"""CSV import and export of games, lossless: what is exported imports back identical.

Related records travel by their natural keys: the publisher by name, the ESAR category by
code, languages as ISO codes, and credits as ``Name (role)`` separated by ``;``.
"""

import re

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets

from .models import AuthorRole, EsarCategory, Game, GameAuthor, Language, Person, Publisher

CREDIT_PATTERN = re.compile(r"^(?P<name>.+?)\s*\((?P<role>[a-z]+)\)$")


class PublisherWidget(widgets.ForeignKeyWidget):
    """A publisher by name, created when the CSV names a new one."""

    def clean(self, value, row=None, **kwargs):
        name = (value or "").strip()
        if not name:
            return None
        return Publisher.objects.get_or_create(name=name)[0]


class GameResource(resources.ModelResource):
    publisher = fields.Field(
        attribute="publisher",
        column_name="publisher",
        widget=PublisherWidget(Publisher, field="name"),
    )
    esar = fields.Field(
        attribute="esar",
        column_name="esar",
        widget=widgets.ForeignKeyWidget(EsarCategory, field="code"),
    )
    languages = fields.Field(
        attribute="languages",
        column_name="languages",
        widget=widgets.ManyToManyWidget(Language, field="code", separator=","),
    )
    authors = fields.Field(column_name="authors")

    class Meta:
        model = Game
        import_id_fields = ["slug"]
        skip_unchanged = False
        fields = [
            "slug",
            "title",
            "document_type",
            "authors",
            "publisher",
            "year",
            "languages",
            "esar",
            "min_players",
            "max_players",
            "min_age",
            "max_age",
            "duration_minutes",
            "principle",
            "pedagogical_analysis",
            "rules",
            "contents",
            "ean",
            "bgg_id",
        ]
        export_order = fields

    @classmethod
    def field_label(cls, column: str) -> str:
        """A CSV column as staff know it: the record's own field name, then the column."""
        try:
            verbose_name = Game._meta.get_field(column).verbose_name
        except FieldDoesNotExist:
            return column
        return f"{capfirst(verbose_name)} ({column})"

    def dehydrate_authors(self, game):
        return "; ".join(
            f"{credit.person.name} ({credit.role})"
            for credit in game.credits.select_related("person").order_by("order", "id")
        )

    def before_import_row(self, row, **kwargs):
        self._parse_credits(row.get("authors") or "")

    def _parse_credits(self, text):
        credits = []
        for part in (p.strip() for p in text.split(";")):
            if not part:
                continue
            match = CREDIT_PATTERN.match(part)
            name, role = (match["name"], match["role"]) if match else (part, AuthorRole.AUTHOR)
            if role not in AuthorRole.values:
                raise ValueError(
                    _("Unknown role “%(role)s” for %(name)s.") % {"role": role, "name": name}
                )
            credits.append((name.strip(), role))
        return credits

    def after_save_instance(self, instance, row, **kwargs):
        credits = self._parse_credits(row.get("authors") or "")
        instance.credits.all().delete()
        for order, (name, role) in enumerate(credits):
            person, _created = Person.objects.get_or_create(name=name)
            GameAuthor.objects.create(game=instance, person=person, role=role, order=order)
