"""ESAR's facet A, the types of play: its four families and every code below them.

Codes and French labels are those of *Le système ESAR* (Denise Garon, Rolande Filion and
Robert Chiasson, Montréal, ASTED, 2002), in the form whose codes have three digits under
A 100, A 200, A 300 and A 400 (``A 404`` = jeu d'adresse, as the ludothèque's record of
*Villa Paletti* prints it). We did not read the book itself: the list was read from two
public transcriptions that agree code for code (docs/esar.md describes them and says
where their wording differs). Both include four codes for virtual play (A 108, A 205,
A 304, A 412), which may belong to the system's later enrichment rather than to the 2002
book. The Danish, Polish
and English labels are this project's translations, not ESAR's.

The four families keep the plural French labels the site already had ("Jeux d'exercice",
as the ESAR articles of ludipsy and lacompagniedespetits name them); the transcriptions
write them in the singular ("Jeu d'exercice").

The games app's data migration ``0022_esar_facet_a`` copies this list into every database
the migrations create; ``manage.py seed`` and the tests load it again after a database
was emptied. A later edition of ESAR goes into a new migration, not into this list alone:
a database migrated once does not run 0022 again.
"""

from typing import NamedTuple

# ruff: noqa: E501 - one code a line reads as the table it is


class Code(NamedTuple):
    code: str
    parent: str | None
    family: str
    label_fr: str
    label_da: str
    label_pl: str
    label_en: str


# Parents come before their children.
FACET_A = (
    Code("A 100", None, "E", "Jeux d'exercice", "Øvelseslege", "Zabawy ćwiczeniowe", "Exercise play"),
    Code("A 101", "A 100", "E", "Jeu sensoriel sonore", "Sanseleg med lyd", "Zabawa sensoryczna dźwiękowa", "Sensory play with sound"),
    Code("A 102", "A 100", "E", "Jeu sensoriel visuel", "Sanseleg med syn", "Zabawa sensoryczna wzrokowa", "Sensory play with sight"),
    Code("A 103", "A 100", "E", "Jeu sensoriel tactile", "Sanseleg med berøring", "Zabawa sensoryczna dotykowa", "Sensory play with touch"),
    Code("A 104", "A 100", "E", "Jeu sensoriel olfactif", "Sanseleg med lugt", "Zabawa sensoryczna węchowa", "Sensory play with smell"),
    Code("A 105", "A 100", "E", "Jeu sensoriel gustatif", "Sanseleg med smag", "Zabawa sensoryczna smakowa", "Sensory play with taste"),
    Code("A 106", "A 100", "E", "Jeu moteur", "Motorisk leg", "Zabawa ruchowa", "Motor play"),
    Code("A 107", "A 100", "E", "Jeu de manipulation", "Manipulationsleg", "Zabawa manipulacyjna", "Manipulation play"),
    Code("A 108", "A 100", "E", "Jeu d'action-réaction virtuel", "Virtuel aktion-reaktion-leg", "Wirtualna zabawa typu akcja–reakcja", "Virtual action-reaction play"),
    Code("A 200", None, "S", "Jeux symboliques", "Symbolske lege", "Zabawy symboliczne", "Symbolic play"),
    Code("A 201", "A 200", "S", "Jeu de rôle", "Rolleleg", "Zabawa w role", "Role play"),
    Code("A 202", "A 200", "S", "Jeu de mise en scène", "Iscenesættelsesleg", "Zabawa inscenizacyjna", "Staging play"),
    Code("A 203", "A 200", "S", "Jeu de production graphique à deux dimensions", "Grafisk frembringelse i to dimensioner", "Tworzenie graficzne w dwóch wymiarach", "Two-dimensional graphic production"),
    Code("A 204", "A 200", "S", "Jeu de production à trois dimensions", "Frembringelse i tre dimensioner", "Tworzenie w trzech wymiarach", "Three-dimensional production"),
    Code("A 205", "A 200", "S", "Jeu de simulation virtuel", "Virtuel simulationsleg", "Wirtualna zabawa symulacyjna", "Virtual simulation play"),
    Code("A 300", None, "A", "Jeux d'assemblage", "Konstruktionslege", "Zabawy konstrukcyjne", "Assembly play"),
    Code("A 301", "A 300", "A", "Jeu de construction à trois dimensions", "Konstruktionsleg i tre dimensioner", "Budowanie w trzech wymiarach", "Three-dimensional construction"),
    Code("A 302", "A 300", "A", "Jeu d'agencement à deux dimensions", "Lægge- og mønsterleg i to dimensioner", "Układanie w dwóch wymiarach", "Two-dimensional arrangement"),
    Code("A 303", "A 300", "A", "Jeu de montage scientifique", "Naturvidenskabelig samleleg", "Montaż naukowy", "Scientific assembly"),
    Code("A 304", "A 300", "A", "Jeu de montage virtuel", "Virtuel samleleg", "Wirtualny montaż", "Virtual assembly"),
    Code("A 400", None, "R", "Jeux de règles", "Regelspil", "Gry z regułami", "Games with rules"),
    Code("A 401", "A 400", "R", "Jeu d'association", "Associationsspil", "Gra skojarzeniowa", "Association game"),
    Code("A 402", "A 400", "R", "Jeu de séquence", "Sekvensspil", "Gra sekwencyjna", "Sequence game"),
    Code("A 403", "A 400", "R", "Jeu de circuit et de parcours", "Bane- og væddeløbsspil", "Gra z torem i trasą", "Circuit and track game"),
    Code("A 404", "A 400", "R", "Jeu d'adresse", "Fingerfærdighedsspil", "Gra zręcznościowa", "Dexterity game"),
    Code("A 405", "A 400", "R", "Jeu sportif et moteur", "Sports- og bevægelsesspil", "Gra sportowa i ruchowa", "Sports and movement game"),
    Code("A 406", "A 400", "R", "Jeu de stratégie", "Strategispil", "Gra strategiczna", "Strategy game"),
    Code("A 407", "A 400", "R", "Jeu de hasard", "Spil baseret på held", "Gra losowa", "Game of chance"),
    Code("A 408", "A 400", "R", "Jeu questionnaire", "Quizspil", "Gra typu quiz", "Quiz game"),
    Code("A 409", "A 400", "R", "Jeu mathématique", "Matematikspil", "Gra matematyczna", "Mathematical game"),
    Code("A 410", "A 400", "R", "Jeu de langage et d'expression", "Sprog- og udtryksspil", "Gra językowa i ekspresyjna", "Language and expression game"),
    Code("A 411", "A 400", "R", "Jeu d'énigme", "Gådespil", "Gra z zagadkami", "Riddle game"),
    Code("A 412", "A 400", "R", "Jeu de règles virtuel", "Virtuelt regelspil", "Wirtualna gra z regułami", "Virtual game with rules"),
)  # fmt: skip

LABELS = ("label_fr", "label_da", "label_pl", "label_en")


def load_facet_a(model) -> int:
    """Give the table of ``model`` (``EsarCategory``, today's or a migration's historical
    one) every code of ``FACET_A``; returns how many were created.

    Idempotent. A code already there keeps its row, its id and its labels (staff maintain
    the vocabulary): only its parent and family are set as ESAR has them, and a label left
    empty is filled.
    """
    rows = {c.code: c for c in model.objects.filter(code__in=[row.code for row in FACET_A])}
    created = 0
    for row in FACET_A:
        parent = rows[row.parent] if row.parent else None
        category = rows.get(row.code)
        if category is None:
            labels = {name: getattr(row, name) for name in LABELS}
            category = model.objects.create(
                code=row.code, parent=parent, family=row.family, **labels
            )
            created += 1
        else:
            changed = {"family": row.family, "parent_id": parent.pk if parent else None}
            changed |= {name: getattr(row, name) for name in LABELS if not getattr(category, name)}
            changed = {
                name: value for name, value in changed.items() if getattr(category, name) != value
            }
            if changed:
                for name, value in changed.items():
                    setattr(category, name, value)
                category.save(update_fields=[name.removesuffix("_id") for name in changed])
        rows[row.code] = category
    return created


def ensure_facet_a() -> int:
    """Load ``FACET_A`` into today's ``EsarCategory`` (after a database was emptied: a
    flush, a transactional test); returns how many codes were missing."""
    from .models import EsarCategory

    return load_facet_a(EsarCategory)
