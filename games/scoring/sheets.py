"""A score sheet: the forms of one count, checked, and its report. The page binds it to
the submitted query string, the API to its JSON made flat (``flatten``), so both check
the same way and name a field at fault by the same path."""

from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _

from . import alhambra, petit_prince, reports
from .alhambra import Building
from .forms import HoldingsForm, NameForm, PlanetForm

SCORING_ORDER = _("Enter the scorings in order: an earlier scoring is still blank.")
SCORING_TITLES = {1: _("First scoring"), 2: _("Second scoring"), 3: _("Third scoring")}
SCORING_PAYS = {
    1: _("When the first scoring card turns up: the first place of each type scores."),
    2: _("When the second scoring card turns up: the first two places score."),
    3: _("At the end of the game, after the last buildings are given out: three places score."),
}


# The deepest field of a sheet is scorings.<n>.players.<n>.<type>: anything deeper is no
# field of it, and is not walked through.
MAX_DEPTH = 6


def flatten(value, prefix="", into=None, depth=0) -> MultiValueDict:
    """The JSON as form data: ``{"players": [{"snakes": 2}]}`` is ``players.0.snakes=2``;
    a list of plain values is one name holding them all (the characters); null is left
    out, as a blank field is."""
    into = MultiValueDict() if into is None else into
    if depth > MAX_DEPTH:
        return into
    if isinstance(value, dict):
        for key, item in value.items():
            flatten(item, f"{prefix}.{key}" if prefix else str(key), into, depth + 1)
    elif isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        into.setlist(prefix, [str(v) for v in value if v is not None])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            flatten(item, f"{prefix}.{i}", into, depth + 1)
    elif value is not None:
        into[prefix] = str(value)
    return into


def _errors_of(form, into: dict) -> None:
    for name, errors in form.errors.items():
        path = form.prefix if name == NON_FIELD_ERRORS else form.add_prefix(name)
        into.setdefault(path, []).extend(str(e) for e in errors)


@dataclass
class PetitPrinceSheet:
    planets: list[PlanetForm]
    bound: bool
    report: dict | None = None

    def check(self) -> bool:
        valid = [form.is_valid() for form in self.planets]
        if not (self.bound and all(valid)):
            return False
        score = petit_prince.score_game([form.planet() for form in self.planets])
        names = [form.cleaned_data["name"] for form in self.planets]
        self.report = reports.petit_prince_report(names, score)
        return True

    def errors(self) -> dict[str, list[str]]:
        found = {}
        for form in self.planets:
            _errors_of(form, found)
        return found


def petit_prince_sheet(data, players: int) -> PetitPrinceSheet:
    return PetitPrinceSheet(
        planets=[PlanetForm(data, prefix=f"players.{i}") for i in range(players)],
        bound=data is not None,
    )


@dataclass
class ScoringForms:
    number: int
    players: list[HoldingsForm]
    dirk: HoldingsForm | None
    problems: list[str] = field(default_factory=list)

    @property
    def forms(self) -> list[HoldingsForm]:
        return [*self.players, *([self.dirk] if self.dirk else [])]

    def entered(self) -> bool:
        return any(form.entered() for form in self.forms)

    @property
    def path(self) -> str:
        return f"scorings.{self.number - 1}"

    @property
    def title(self):
        return SCORING_TITLES[self.number]

    @property
    def pays(self):
        return SCORING_PAYS[self.number]


@dataclass
class AlhambraSheet:
    names: list[NameForm]
    scorings: list[ScoringForms]
    bound: bool
    report: dict | None = None

    def check(self) -> bool:
        # Every form is checked, not only up to the first in error: each shows its errors.
        checked = [form.is_valid() for form in self.names + self.all_holdings()]
        valid = all(checked)
        entered = [scoring for scoring in self.scorings if scoring.entered()]
        for scoring in entered:
            if any(not earlier.entered() for earlier in self.scorings[: scoring.number - 1]):
                scoring.problems.append(str(SCORING_ORDER))
                valid = False
        if not (self.bound and valid):
            return False
        names = [form.cleaned_data["name"] for form in self.names]
        if not entered:
            self.report = reports.alhambra_report(names, None)
            return True
        inputs = [
            alhambra.ScoringInput(
                players=[form.holdings() for form in scoring.players],
                dirk=scoring.dirk.holdings() if scoring.dirk else None,
            )
            for scoring in entered
        ]
        try:
            score = alhambra.score_game(inputs)
        except alhambra.ImpossibleScoring as error:
            for (number, who, what), message in error.problems.items():
                scoring = self.scorings[number - 1]
                if who == "dirk" and what is None:
                    scoring.dirk.add_error(None, message)
                else:
                    form = scoring.dirk if who == "dirk" else scoring.players[who]
                    form.add_error(what.value if isinstance(what, Building) else what, message)
            return False
        self.report = reports.alhambra_report(names, score)
        return True

    def all_holdings(self) -> list[HoldingsForm]:
        return [form for scoring in self.scorings for form in scoring.forms]

    def errors(self) -> dict[str, list[str]]:
        found = {}
        for form in self.names + self.all_holdings():
            _errors_of(form, found)
        for scoring in self.scorings:
            if scoring.problems:
                found.setdefault(scoring.path, []).extend(scoring.problems)
        return found


def alhambra_sheet(data, players: int) -> AlhambraSheet:
    return AlhambraSheet(
        names=[NameForm(data, prefix=f"players.{i}") for i in range(players)],
        scorings=[
            ScoringForms(
                number=s + 1,
                players=[
                    HoldingsForm(data, prefix=f"scorings.{s}.players.{i}") for i in range(players)
                ],
                dirk=HoldingsForm(data, prefix=f"scorings.{s}.dirk", dirk=True)
                if players == 2
                else None,
            )
            for s in range(alhambra.SCORINGS)
        ],
        bound=data is not None,
    )
