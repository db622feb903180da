"""The tournament's forms: set-up, registration, a table's result."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game

from . import rules
from .models import Tournament
from .services import MAX_GAME_POINTS, Result
from .standings import check_points_table


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


class TournamentForm(forms.ModelForm):
    """Staff set a tournament up. The rule options apply to Villa Paletti only."""

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
        self.fields["game"].queryset = Game.objects.order_by("title")
        points = self.instance.placement_points or {}
        for size in (4, 3, 2):
            self.fields[f"points_{size}"].initial = points.get(str(size))
        options = {**rules.DEFAULT_OPTIONS, **(self.instance.rule_options or {})}
        for name, (question, readings) in rules.OPTIONS.items():
            self.fields[f"rule_{name}"] = forms.ChoiceField(
                label=question,
                choices=list(readings.items()),
                initial=options[name],
                widget=forms.RadioSelect,
            )

    def rule_fields(self):
        return [self[f"rule_{name}"] for name in rules.OPTIONS]

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
        options = {name: data.get(f"rule_{name}") for name in rules.OPTIONS}
        if game is not None and game.slug != rules.VILLA_PALETTI:
            self.instance.rule_options = {}
        elif all(options.values()):
            self.instance.rule_options = options
        return data


class RegistrationForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
    age = forms.IntegerField(
        label=_("Age"),
        min_value=3,
        max_value=120,
        help_text=_("The youngest at each table begins (the rules say so)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give a name."))
        return name


class ResultForm(forms.Form):
    """A table's result: the winner, who brought the villa down (if anyone) and each
    player's points on the top platform. Only the table's own seats are choices."""

    def __init__(self, *args, table, villa_paletti: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        seats = list(table.seats.all())
        self.seats = seats
        names = [(str(seat.pk), seat.player.name) for seat in seats]
        self.fields["winner"] = forms.TypedChoiceField(
            label=_("Winner"), choices=names, coerce=int, widget=forms.RadioSelect
        )
        if villa_paletti:
            self.fields["brought_down"] = forms.TypedChoiceField(
                label=_("Who brought the villa down?"),
                choices=[("", _("nobody: it stood to the end"))] + names,
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
        points_label = _("Points on the top platform") if villa_paletti else _("Game points")
        for seat in seats:
            self.fields[f"points_{seat.pk}"] = forms.IntegerField(
                label=seat.player.name,
                min_value=0,
                max_value=MAX_GAME_POINTS,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.points_label = points_label
        if table.winner_id is not None and not self.is_bound:
            self.initial = {
                "winner": str(table.winner_id),
                "brought_down": str(table.brought_down_id or ""),
                **{f"points_{seat.pk}": seat.points for seat in seats},
            }

    def points_fields(self):
        return [self[f"points_{seat.pk}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        winner, brought_down = data.get("winner"), data.get("brought_down")
        if winner is not None and winner == brought_down:
            raise forms.ValidationError(_("Whoever brings the villa down cannot win."))
        return data

    def result(self) -> Result:
        data = self.cleaned_data
        return Result(
            winner=data["winner"],
            brought_down=data.get("brought_down"),
            points={seat.pk: data[f"points_{seat.pk}"] for seat in self.seats},
        )


class CorrectionForm(ResultForm):
    note = forms.CharField(label=_("Why (kept in the history)"), max_length=200, required=False)
