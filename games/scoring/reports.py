"""A count as the page and the API show it: plain data, labels and sentences translated.

The page renders it, the API sends it as JSON, and the page's script writes the JSON's
values into the elements whose ``data-result`` names their path (``players.0.total``)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import alhambra, petit_prince
from .alhambra import Building


def player_names(names: list[str]) -> list[str]:
    return [name or _("Player %(number)s") % {"number": i + 1} for i, name in enumerate(names)]


def names_and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def points(n: int) -> str:
    return ngettext("%(count)s point", "%(count)s points", n) % {"count": n}


def petit_prince_report(names: list[str], score: petit_prince.GameScore) -> dict:
    names = player_names(names)
    totals = [planet.total for planet in score.planets]
    winners = list(score.winners)
    best = totals[winners[0]]
    tied_on_points = [i for i, total in enumerate(totals) if total == best]
    if len(winners) > 1:
        verdict = _("%(names)s share the victory with %(points)s.") % {
            "names": names_and([names[i] for i in winners]),
            "points": points(best),
        }
    elif len(tied_on_points) > 1:
        verdict = _("%(names)s have %(points)s each; %(name)s wins with the fewest volcanoes.") % {
            "names": names_and([names[i] for i in tied_on_points]),
            "points": points(best),
            "name": names[winners[0]],
        }
    else:
        verdict = _("%(name)s wins with %(points)s.") % {
            "name": names[winners[0]],
            "points": points(best),
        }
    return {
        "players": [
            {
                "name": name,
                "characters": [
                    {"character": character.value, "label": str(character.label), "points": n}
                    for character, n in planet.characters
                ],
                "characters_total": planet.character_total,
                "volcano_penalty": planet.volcano_penalty,
                "total": planet.total,
                "winner": i in winners,
            }
            for i, (name, planet) in enumerate(zip(names, score.planets, strict=True))
        ],
        "verdict": verdict,
    }


def _scoring_name(number: int) -> str:
    return {1: _("the first scoring"), 2: _("the second scoring"), 3: _("the third scoring")}[
        number
    ]


def _builder(score: alhambra.BuilderScore, running_total: int) -> dict:
    return {
        "buildings": {building.value: score.by_building[building] for building in Building},
        "wall": score.wall,
        "total": score.total,
        "running_total": running_total,
    }


def alhambra_report(names: list[str], score: alhambra.GameScore | None) -> dict:
    """``score`` is None while no scoring has been entered."""
    names = player_names(names)
    if score is None:
        return {
            "players": [{"name": name} for name in names],
            "scorings": [],
            "totals": [0] * len(names),
            "dirk_total": None,
            "verdict": _("Enter the first scoring to see the totals."),
        }
    totals = list(score.running_totals[-1])
    leaders = [names[i] for i in score.leaders]
    best = totals[score.leaders[0]]
    if score.finished and len(leaders) > 1:
        verdict = _("%(names)s draw with %(points)s.") % {
            "names": names_and(leaders),
            "points": points(best),
        }
    elif score.finished:
        verdict = _("%(name)s wins with %(points)s.") % {"name": leaders[0], "points": points(best)}
    else:
        verdict = ngettext(
            "After %(scoring)s, %(names)s leads with %(points)s.",
            "After %(scoring)s, %(names)s lead with %(points)s.",
            len(leaders),
        ) % {
            "scoring": _scoring_name(len(score.rounds)),
            "names": names_and(leaders),
            "points": points(best),
        }
    dirk_totals = score.dirk_running_totals
    return {
        "players": [{"name": name} for name in names],
        "scorings": [
            {
                "number": round_score.scoring,
                "players": [
                    _builder(player, running)
                    for player, running in zip(
                        round_score.players, score.running_totals[n], strict=True
                    )
                ],
                "dirk": _builder(round_score.dirk, dirk_totals[n]) if round_score.dirk else None,
            }
            for n, round_score in enumerate(score.rounds)
        ],
        "totals": totals,
        "dirk_total": dirk_totals[-1] if dirk_totals else None,
        "verdict": verdict,
    }
