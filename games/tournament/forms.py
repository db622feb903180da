"""The tournament's forms: set-up, registration, a table's result."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game

from . import tables
from .models import Tournament
from .standings import check_places, check_points_table
from .tables import Result


class PointsField(forms.CharField):
    """A table's placement points typed as numbers separated by spaces or commas."""

    def __init__(self, *, size: int, **kwargs):
        self.size = size
        super().__init__(max_length=40, **kwargs)

    def prepare_value(self, value):
        if isinstance(value, (list, tuple)):
            return " ".join(str(v) for v in value)
        return value

    def clean(self, value):
        text = super().clean(value)
        try:
            points = [int(part) for part in text.replace(",", " ").split()]
            check_points_table(points, self.size)
        except ValueError as error:
            raise forms.ValidationError(
                _("Give %(size)d whole numbers from 0 to 99, never more for a worse place."),
                params={"size": self.size},
            ) from error
        return points


def option_field(slug: str, name: str) -> str:
    return f"rule_{slug}_{name}"


class TournamentForm(forms.ModelForm):
    """Staff set a tournament up. Each game whose table rules offer options has its own
    group of them; only the chosen game's are kept."""

    points_4 = PointsField(size=4, label=_("Points at a table of four"))
    points_3 = PointsField(size=3, label=_("Points at a table of three"))
    points_2 = PointsField(size=2, label=_("Points at a table of two"))

    class Meta:
        model = Tournament
        fields = [
            "name",
            "game",
            "date",
            "meets_at",
            "plays_from",
            "ends_around",
            "rounds",
            "round_minutes",
            "final_table",
            "table_size",
            "pairs_when_needed",
            "bye_points",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "meets_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "plays_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "ends_around": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = Game.objects.order_by("sort_title", "pk")
        points = self.instance.placement_points or {}
        for size in (4, 3, 2):
            self.fields[f"points_{size}"].initial = points.get(str(size))
        chosen = self.instance.game.slug if self.instance.game_id else None
        self.option_games = tables.with_options()
        for slug, rules in self.option_games.items():
            agreed = rules.with_defaults(self.instance.rule_options if slug == chosen else {})
            for name, option in rules.options.items():
                self.fields[option_field(slug, name)] = forms.ChoiceField(
                    label=option.question,
                    choices=list(option.readings.items()),
                    initial=agreed.get(name, option.default),
                    required=False,
                    widget=forms.RadioSelect,
                )

    def rule_groups(self):
        """The option groups, one a game that has options: (the game's title, its fields)."""
        titles = dict(Game.objects.filter(slug__in=self.option_games).values_list("slug", "title"))
        return [
            (titles.get(slug, slug), [self[option_field(slug, name)] for name in rules.options])
            for slug, rules in self.option_games.items()
        ]

    def clean(self):
        data = super().clean()
        # Written to the instance only when every part is valid (each field checks its
        # own): the model's own checks then see nothing wrong and the form's errors stand.
        game = data.get("game")
        points = [data.get(f"points_{size}") for size in (4, 3, 2)]
        if all(p is not None for p in points):
            self.instance.placement_points = {
                str(size): p for size, p in zip((4, 3, 2), points, strict=True)
            }
        if game is not None:
            # The chosen game's options (any not sent at its default); none for a game
            # without them.
            rules = tables.rules_for(game.slug)
            fields = {name: option_field(game.slug, name) for name in rules.options}
            if not any(field in self.errors for field in fields.values()):
                self.instance.rule_options = rules.with_defaults(
                    {name: data[field] for name, field in fields.items() if data.get(field)}
                )
        return data


class RegistrationForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
    age = forms.IntegerField(
        label=_("Age"),
        min_value=3,
        max_value=120,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args, age_note: str = "", **kwargs):
        """`age_note`: why the game's rules need the age, if they do."""
        super().__init__(*args, **kwargs)
        self.fields["age"].help_text = age_note

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give a name."))
        return name


class ResultForm(forms.Form):
    """A table's result as its game's rules ask it: each player's place (the plain rules),
    or a winner, who brought the game down and each player's game points. Only the
    table's own seats are choices."""

    def __init__(self, *args, table, rules: tables.TableRules, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.rules = rules
        seats = list(table.seats.all())
        self.seats = seats
        names = [(str(seat.pk), seat.player.name) for seat in seats]
        if rules.asks_winner:
            self.fields["winner"] = forms.TypedChoiceField(
                label=_("Winner"), choices=names, coerce=int, widget=forms.RadioSelect
            )
        if rules.brought_down_question:
            self.fields["brought_down"] = forms.TypedChoiceField(
                label=rules.brought_down_question,
                choices=[("", rules.brought_down_nobody)] + names,
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
        if rules.points_label:
            for seat in seats:
                self.fields[f"points_{seat.pk}"] = forms.IntegerField(
                    label=seat.player.name,
                    min_value=0,
                    max_value=rules.points_max,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
        if rules.asks_places:
            places = [(str(n), str(n)) for n in range(1, len(seats) + 1)]
            for seat in seats:
                self.fields[f"place_{seat.pk}"] = forms.TypedChoiceField(
                    label=seat.player.name, choices=[("", "–")] + places, coerce=int
                )
        self.points_label = rules.points_label
        if table.status != "open" and not self.is_bound:
            self.initial = {
                "winner": str(table.winner_id or ""),
                "brought_down": str(table.brought_down_id or ""),
                **{f"points_{seat.pk}": seat.points for seat in seats},
                **{f"place_{seat.pk}": seat.place for seat in seats},
            }

    def points_fields(self):
        return [self[f"points_{seat.pk}"] for seat in self.seats] if self.rules.points_label else []

    def place_fields(self):
        return [self[f"place_{seat.pk}"] for seat in self.seats] if self.rules.asks_places else []

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if self.rules.asks_places:
            try:
                check_places({seat.pk: data[f"place_{seat.pk}"] for seat in self.seats})
            except ValueError as error:
                raise forms.ValidationError(
                    _(
                        "Places run from 1 for the best; players level share the better "
                        "place, and the next place is skipped (1, 1, 3)."
                    )
                ) from error
        try:
            self.rules.places(self.result(), [seat.pk for seat in self.seats])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error
        return data

    def result(self) -> Result:
        data = self.cleaned_data
        return Result(
            winner=data.get("winner"),
            brought_down=data.get("brought_down"),
            points={
                seat.pk: data[f"points_{seat.pk}"]
                for seat in self.seats
                if data.get(f"points_{seat.pk}") is not None
            },
            places={
                seat.pk: data[f"place_{seat.pk}"]
                for seat in self.seats
                if data.get(f"place_{seat.pk}") is not None
            },
        )


class CorrectionForm(ResultForm):
    note = forms.CharField(label=_("Why (kept in the history)"), max_length=200, required=False)
