"""The PMB site the export writes for: its names for what this catalogue holds.

PMB reads a custom field back only under the name and type its own site gave it (900 $n,
$t: ``renseigne_cp`` in PMB's ``admin/import/func_pmb.inc.php``), and an item's status,
section and location by the labels and import codes of its own lists (``traite_exemplaires``
there). Those are each site's choices, so they come from the ``UNIMARC_PMB_SITE`` setting,
key by key over ``DEFAULT_SITE`` below (docs/unimarc.md). Every default here is this
project's own choice, not PMB's: PMB ships no list of statuses, sections or custom fields.
"""

from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class CustomField:
    """A PMB custom field of the record (900): its name ($n), label ($l) and input type
    ($t: PMB's ``text`` is one line, ``comment`` several)."""

    name: str
    label: str
    type: str = "text"


@dataclass(frozen=True)
class ItemStatus:
    """A PMB item status: its label (``statut_libelle``), its import code
    (``statusdoc_codage_import``, 995 $o) and whether it may be lent (``pret_flag``)."""

    label: str
    code: str
    loanable: bool


DEFAULT_SITE = {
    # Who lends the items (995 $a and $c as PMB writes them, 996 lender_libelle) and its
    # code (995 $b, the owner in the 995 recommendation).
    "lender": "Ludothèque",
    "lender_code": "",
    # The catalogue's fields as the site's custom fields; None writes no 900 for it.
    "custom_fields": {
        "min_players": CustomField("nb_joueurs_min", "Nombre minimum de joueurs"),
        "max_players": CustomField("nb_joueurs_max", "Nombre maximum de joueurs"),
        "min_age": CustomField("age_min", "Age minimum"),
        "max_age": CustomField("age_max", "Age maximum"),
        "duration_minutes": CustomField("duree", "Durée moyenne (minutes)"),
        "principle": CustomField("principe", "Principe du jeu", "comment"),
        "pedagogical_analysis": CustomField(
            "analyse_pedagogique", "Analyse pédagogique", "comment"
        ),
        "rules": CustomField("regles", "Règles du jeu", "comment"),
        "contents": CustomField("contenu", "Contenu", "comment"),
        "bgg_id": CustomField("bgg_id", "BoardGameGeek"),
    },
    # The copies' statuses (games.lending's CopyStatus values) as the site's. PMB has no
    # "on loan" status (a loan is a row of its own): the code lets it come back here.
    "statuses": {
        "available": ItemStatus("Disponible", "d", True),
        "on_loan": ItemStatus("En prêt", "p", True),
        "in_repair": ItemStatus("En réparation", "r", False),
        "incomplete": ItemStatus("Incomplet", "i", False),
        "withdrawn": ItemStatus("Retiré", "x", False),
    },
    # The section a copy without one is written in (PMB gives every item a section), and
    # the codes of the site's sections (995 $q, 996 sdoc_codage_import); "u" is
    # "indéterminé" in PMB's includes/marc_tables/fr_FR/section_995.xml.
    "default_section": "Jeux",
    "section_codes": {},
    "default_section_code": "u",
    # The codes of the site's locations (996 locdoc_codage_import), by label.
    "location_codes": {},
    # 995 $r, the item's document type, from PMB's includes/marc_tables/fr_FR/typdoc_995.xml:
    # "autre / indéterminé" for a game, "doc. multi-supports / indéterminé" for a kit,
    # "imprimé / indéterminé" for a book.
    "document_type_codes": {"object": "zu", "kit": "mu", "book": "au"},
    "document_type_labels": {"object": "Jeu", "kit": "Malle de jeux", "book": "Livre"},
}


def site() -> dict:
    """The defaults with the ``UNIMARC_PMB_SITE`` setting over them, key by key (and inside
    ``custom_fields`` and ``statuses``, field by field)."""
    configured = getattr(settings, "UNIMARC_PMB_SITE", {}) or {}
    merged = {**DEFAULT_SITE, **configured}
    for key in ("custom_fields", "statuses"):
        merged[key] = {**DEFAULT_SITE[key], **_typed(key, configured.get(key, {}))}
    return merged


def _typed(key: str, entries: dict) -> dict:
    """Entries written in the settings as tuples or dicts, made the dataclasses above."""
    kind = CustomField if key == "custom_fields" else ItemStatus
    typed = {}
    for name, value in entries.items():
        if value is None or isinstance(value, kind):
            typed[name] = value
        elif isinstance(value, dict):
            typed[name] = kind(**value)
        else:
            typed[name] = kind(*value)
    return typed


def status_for_code(code: str) -> str | None:
    """This catalogue's status for the site's import code, if one of ours has it."""
    for status, item in site()["statuses"].items():
        if code and item.code == code:
            return status
    return None
