"""CSV import and export of games, lossless: what is exported imports back identical.

Related records travel by their natural keys: the publisher by name, the ESAR category by
code, languages as ISO codes, and credits as ``Name (role)`` separated by ``;``.
"""

import re

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export import fields, resources, widgets

from .models import (
    RECORD_FIELDS,
    AuthorRole,
    EsarCategory,
    Game,
    GameAuthor,
    Language,
    Person,
    Publisher,
)

CREDIT_PATTERN = re.compile(r"^(?P<name>.+?)\s*\((?P<role>[a-z]+)\)$")

# A cell a spreadsheet would run as a formula starts with one of these (OWASP, "CSV
# Injection"). The export puts a ' before it, as OWASP advises, and the import takes it off,
# so that what is exported still imports back identical; a cell that already starts with '
# before one of them gets one more, for the same reason.
FORMULA = re.compile(r"^'*[=+\-@\t\r]")

# The most rows the admin imports from one file: a row takes about 13 ms to preview and as
# long again to confirm (1 000 rows took 26.7 s), and a request should take a few seconds.
# The command line (import_games) has no bound.
MAX_ADMIN_ROWS = 200
TOO_MANY_ROWS = gettext_lazy(
    "This file has %(rows)d rows; the admin imports at most %(most)d at a time. Split it, or "
    "import it whole from the command line: python manage.py import_games FILE"
)

NO_PERMISSION = gettext_lazy("You may not %(action)s: %(what)s.")
ACTIONS = {
    "add_game": gettext_lazy("add games"),
    "change_game": gettext_lazy("change games"),
    "delete_gameauthor": gettext_lazy("remove credits"),
    "add_person": gettext_lazy("add people"),
    "add_publisher": gettext_lazy("add publishers"),
}


def require(user, codename: str, what: str) -> None:
    """Refuse the row unless the importing user holds games.<codename>, as the admin's
    forms would. An import run from code (no user) is trusted."""
    if user is not None and not user.has_perm(f"games.{codename}"):
        raise PermissionError(NO_PERMISSION % {"action": ACTIONS[codename], "what": what})


class PublisherWidget(widgets.ForeignKeyWidget):
    """A publisher by name, created when the CSV names a new one (and the user may)."""

    def clean(self, value, row=None, **kwargs):
        name = (value or "").strip()
        if not name:
            return None
        publisher = Publisher.objects.filter(name=name).first()
        if publisher is None:
            require(kwargs.get("user"), "add_publisher", name)
            publisher = Publisher.objects.create(name=name)
        return publisher


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
        # Each row is checked as the admin's form checks a game (its fields' validators,
        # the EAN's check digit among them, and Game.clean), the reasons shown per row.
        clean_model_instances = True
        fields = list(RECORD_FIELDS)
        export_order = fields

    @classmethod
    def field_label(cls, column: str) -> str:
        """A CSV column as staff know it: the record's own field name, then the column."""
        try:
            verbose_name = Game._meta.get_field(column).verbose_name
        except FieldDoesNotExist:
            return column
        return f"{capfirst(verbose_name)} ({column})"

    def export_field(self, field, instance, **kwargs):
        value = super().export_field(field, instance, **kwargs)
        if isinstance(value, str) and FORMULA.match(value):
            return f"'{value}"
        return value

    def dehydrate_authors(self, game):
        return "; ".join(
            f"{credit.person.name} ({credit.role})"
            for credit in game.credits.select_related("person").order_by("order", "id")
        )

    def before_import(self, dataset, **kwargs):
        """Refuse a file longer than the admin's bound (not with ``unbounded=True``, as the
        import_games command passes), before any row is read."""
        if not kwargs.get("unbounded") and len(dataset) > MAX_ADMIN_ROWS:
            raise ValueError(TOO_MANY_ROWS % {"rows": len(dataset), "most": MAX_ADMIN_ROWS})

    def before_import_row(self, row, **kwargs):
        for column, value in row.items():
            if isinstance(value, str) and value.startswith("'") and FORMULA.match(value):
                row[column] = value[1:]
        self._parse_credits(row.get("authors") or "")

    def before_save_instance(self, instance, row, **kwargs):
        exists = instance.pk is not None
        require(kwargs.get("user"), "change_game" if exists else "add_game", instance.title)

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
        """The game's credits become the row's; removing one takes the permission to
        delete credits (an empty `authors` cell removes them all), as in the admin."""
        user = kwargs.get("user")
        credits = self._parse_credits(row.get("authors") or "")
        current = list(instance.credits.select_related("person").order_by("order", "id"))
        if [(c.person.name, c.role) for c in current] == credits:
            return
        removed = {(c.person.name, c.role) for c in current} - set(credits)
        if removed:
            names = ", ".join(sorted(f"{name} ({role})" for name, role in removed))
            require(user, "delete_gameauthor", names)
        instance.credits.all().delete()
        for order, (name, role) in enumerate(credits):
            person = Person.objects.filter(name=name).first()
            if person is None:
                require(user, "add_person", name)
                person = Person.objects.create(name=name)
            GameAuthor.objects.create(game=instance, person=person, role=role, order=order)
