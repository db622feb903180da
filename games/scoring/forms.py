"""The score sheets' forms: what a family types at the table, checked the way the API
checks it (the rules' own checks live in the scoring modules).

Field names are the paths of the API's JSON (``players.0.snakes``,
``scorings.1.players.0.tower``): the page's script turns the form into that JSON as it
is, and without the script the form is submitted and counted here."""

from django import forms
from django.utils.translation import gettext_lazy as _

from . import alhambra, petit_prince
from .alhambra import Building

NAME_LENGTH = 40
MAX_WALL = alhambra.MAX_WALLS_PER_BUILDING * sum(alhambra.TILES.values())


class PathForm(forms.Form):
    """A form whose fields are named ``<prefix>.<field>``, as the JSON nests them."""

    def add_prefix(self, field_name):
        return f"{self.prefix}.{field_name}" if self.prefix else field_name


class PlayerCountForm(forms.Form):
    players = forms.TypedChoiceField(label=_("Number of players"), coerce=int)

    def __init__(self, data, *, fewest, most, default):
        super().__init__(data)
        self.fields["players"].choices = [(n, n) for n in range(fewest, most + 1)]
        self.default = default

    def count(self) -> int:
        return self.cleaned_data["players"] if self.is_valid() else self.default


def player_name_field():
    return forms.CharField(label=_("Name"), max_length=NAME_LENGTH, required=False, strip=True)


def count_field(label, most):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=most,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": most}),
    )


class CharactersField(forms.MultipleChoiceField):
    """The four corner characters, one <select> each under the same name; a select left
    on its empty choice is no character."""

    def to_python(self, value):
        return [v for v in super().to_python(value) if v]


class PlanetForm(PathForm):
    name = player_name_field()
    characters = CharactersField(
        label=_("Characters"),
        choices=[(c.value, c.label) for c in petit_prince.Character],
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in petit_prince.COUNTS.items():
            self.fields[name] = count_field(label, petit_prince.MAX_COUNT)

    def character_slots(self):
        """The four selects' current values, for the template."""
        values = list(self["characters"].value() or [])
        return [(i, values[i] if i < len(values) else "") for i in range(4)]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        planet = self.planet()
        try:
            petit_prince.check_planet(planet)
        except petit_prince.ImpossiblePlanet as error:
            for field, message in error.problems.items():
                self.add_error(field, message)
        return data

    def planet(self) -> petit_prince.Planet:
        data = self.cleaned_data
        return petit_prince.Planet(
            characters=tuple(petit_prince.Character(c) for c in data.get("characters") or []),
            **{name: data.get(name) for name in petit_prince.COUNTS},
        )


class NameForm(PathForm):
    name = player_name_field()


class HoldingsForm(PathForm):
    """One builder's Alhambra at one scoring: buildings per type, and the longest outer
    wall (not for Dirk)."""

    def __init__(self, *args, dirk=False, **kwargs):
        super().__init__(*args, **kwargs)
        for building in Building:
            self.fields[building.value] = count_field(building.label, alhambra.TILES[building])
        if not dirk:
            self.fields["wall"] = count_field(_("Longest outer wall"), MAX_WALL)

    def entered(self) -> bool:
        return any(self.data.get(self.add_prefix(name)) not in (None, "") for name in self.fields)

    def holdings(self) -> alhambra.Holdings:
        data = self.cleaned_data
        return alhambra.Holdings(
            {building: data.get(building.value) or 0 for building in Building},
            data.get("wall") or 0,
        )
