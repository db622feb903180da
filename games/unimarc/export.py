"""The catalogue as UNIMARC, in PMB's layout, UTF-8 (100$a/26-29 ``50  ``).

Laid out as PMB 8 writes its own records, so that PMB reads them back: its notice export
(``admin/convert/export.class.php``: 200, 210, 215, 330, 700-702, 900, and 995/996 in
``processing_expl``), its item subfields (``classes/import/import_expl.class.php``,
``export_traite_exemplaires``) and what its PMB-to-PMB import reads
(``admin/import/func_pmb.inc.php``: 900 by $n and $t, the items from 996 $9). The site's
own names (custom fields, statuses, sections, lender) come from ``pmb.site()``. The import
reads all of it back: a test checks that an export imported into an empty catalogue gives
the same catalogue.
"""

import re

import pymarc

from games.models import Game

from . import pmb
from .mapping import LANGUAGES_639_1, ROLE_TO_CODE
from .models import ImportedRecord
from .writing import iso2709, marcxml

# Leader/06 for each document type (the import's DOCUMENT_TYPES backwards).
LEADER_TYPES = {"object": "r", "kit": "m", "book": "a"}
# 100$a as PMB writes it for a UTF-8 database: the date, then PMB's fixed positions,
# 50 (UTF-8) at 26-27.
FIELD_100 = "{date}u        u  u0frey50      ba"
# "Title : other title", as the catalogue writes it (a no-break space before the colon in
# French): PMB keeps the two apart, 200 $a and $e.
OTHER_TITLE = re.compile(r"[\s\u00a0\u202f]+:\s+")
# Words that open a surname when they stand before its last word ("Jean de La Fontaine":
# La Fontaine; "Ana Da Silva": Da Silva). Lower-case particles ("de", "van") stay with the
# forename, as French cataloguing writes "Saint-Exupéry, Antoine de". This project's rule.
SURNAME_OPENERS = {"La", "Le", "Les", "Du", "Des", "Da", "Di", "Del", "Della", "Van", "Von", "Mac"}
# PMB's 215 $a (its "importance matérielle") holds 255 characters.
EXTENT_LENGTH = 255


def _field(tag, indicators, *pairs):
    subfields = [pymarc.Subfield(code, str(value)) for code, value in pairs if value != ""]
    return pymarc.Field(tag=tag, indicators=list(indicators), subfields=subfields)


def title_parts(title: str) -> tuple[str, str]:
    """(title proper, other title): 200 $a and $e."""
    parts = OTHER_TITLE.split(title, maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 and parts[0] and parts[1] else (title, "")


def marked(title: str, game: Game) -> str:
    """The title proper with UNIMARC's non-sorting marks around the article its sort title
    drops ("\x88Le \x89Petit Prince"), as the import reads them back."""
    article = game.title.removesuffix(game.sort_title)
    if article in ("", game.title) or not title.startswith(article):
        return title
    return f"\x88{article}\x89{title.removeprefix(article)}"


def name_parts(name: str) -> tuple[str, str]:
    """(surname, forename) of a name the catalogue writes whole ("Bill Payne"): 700 $a
    and $b, as PMB keeps a person (author_name, author_rejete). The import writes
    "$b $a", so the name comes back as it was."""
    words = name.split()
    if len(words) < 2:
        return name.strip(), ""
    first = len(words) - 1
    while first > 1 and words[first - 1] in SURNAME_OPENERS:
        first -= 1
    return " ".join(words[first:]), " ".join(words[:first])


def game_record(game: Game, *, picture_url: str = "", site: dict | None = None) -> pymarc.Record:
    """One game as a PMB notice."""
    site = site or pmb.site()
    kind = LEADER_TYPES.get(game.document_type, "r")
    record = pymarc.Record(force_utf8=True)
    record.leader = pymarc.Leader(f"00000n{kind}m0 22000001i 4500")  # 09 blank, as UNIMARC
    record.add_field(pymarc.Field(tag="001", data=str(game.pk)))
    if game.ean:
        record.add_field(_field("010", "  ", ("a", game.ean)))
    date = game.updated_at.strftime("%Y%m%d") if game.updated_at else "20000101"
    record.add_field(_field("100", "  ", ("a", FIELD_100.format(date=date))))
    codes = [LANGUAGES_639_1.get(lang.code, lang.code) for lang in game.languages.all()]
    if codes:
        record.add_field(_field("101", "0 ", *(("a", code) for code in sorted(codes))))
    title, other_title = title_parts(game.title)
    record.add_field(_field("200", "1 ", ("a", marked(title, game)), ("e", other_title)))
    if game.publisher_id or game.year:
        # No place of publication ($a): the catalogue keeps none.
        publisher = game.publisher.name if game.publisher_id else ""
        record.add_field(_field("210", "  ", ("c", publisher), ("d", game.year or "")))
    if game.contents:
        extent = " ; ".join(line.strip() for line in game.contents.splitlines() if line.strip())
        if len(extent) > EXTENT_LENGTH:
            extent = extent[: EXTENT_LENGTH - 1] + "…"
        record.add_field(_field("215", "  ", ("a", extent)))
    if game.principle:
        record.add_field(_field("330", "  ", ("a", game.principle)))
    for position, credit in enumerate(game.credits.all()):
        surname, forename = name_parts(credit.person.name)
        record.add_field(
            _field(
                "700" if position == 0 else "701",
                " 1",
                ("a", surname),
                ("b", forename),
                ("4", ROLE_TO_CODE[credit.role]),
            )
        )
    # PMB prints its categories (606) as "A 404 jeu d'adresse (jeu de règles)".
    record.add_field(_field("606", " 1", ("a", f"{game.esar.code} {game.esar.label_fr}")))
    if picture_url:
        record.add_field(_field("896", "  ", ("a", picture_url)))
    for name, custom in site["custom_fields"].items():
        value = getattr(game, name, None)
        if custom is None or value in (None, ""):
            continue
        record.add_field(
            _field(
                "900",
                "  ",
                ("a", value),
                ("l", custom.label),
                ("n", custom.name),
                ("t", custom.type),
            )
        )
    for extra in copy_fields(game, site):
        record.add_field(extra)
    return record


def copy_fields(game: Game, site: dict) -> list:
    """995 and 996 for each copy, as PMB's ``processing_expl`` writes them: 995 with the
    subfields of ``export_traite_exemplaires``, then 996 with the same item's letters and,
    in $9, each of its columns as ``name:value`` (what PMB's own import reads back)."""
    fields = []
    for copy in game.copies.all():
        status = site["statuses"].get(copy.status) or pmb.ItemStatus(copy.status, "", True)
        section = copy.section or site["default_section"]
        section_code = site["section_codes"].get(section, site["default_section_code"])
        location_code = site["location_codes"].get(copy.location, "")
        type_code = site["document_type_codes"].get(game.document_type, "uu")
        type_label = site["document_type_labels"].get(game.document_type, "")
        lender, owner = site["lender"], site["lender_code"]
        fields.append(
            _field(
                "995",
                "  ",
                ("a", lender),
                ("b", owner),
                ("c", lender),
                ("f", copy.barcode),
                ("k", copy.call_number),
                ("u", copy.condition_note),
                ("o", status.code),
                ("q", section_code),
                ("r", type_code),
            )
        )
        acquired = copy.acquired.isoformat() if copy.acquired else ""
        columns = [
            ("create_date", acquired),
            ("expl_cb", copy.barcode),
            ("expl_cote", copy.call_number),
            ("statut_libelle", status.label),
            ("statusdoc_codage_import", status.code),
            ("tdoc_libelle", type_label),
            ("tdoc_codage_import", type_code),
            ("expl_note", copy.condition_note),
            ("section_libelle", section),
            ("sdoc_codage_import", section_code),
            ("lender_libelle", lender),
            ("pret_flag", int(status.loanable)),
            ("location_libelle", copy.location),
            ("locdoc_codage_import", location_code),
        ]
        fields.append(
            _field(
                "996",
                "  ",
                ("f", copy.barcode),
                ("k", copy.call_number),
                ("u", copy.condition_note),
                ("a", lender),
                ("b", owner),
                ("v", copy.location),
                ("w", location_code),
                ("x", section),
                ("y", section_code),
                ("e", type_label),
                ("r", type_code),
                ("1", status.label),
                ("2", status.code),
                ("3", int(status.loanable)),
                *(("9", f"{key}:{value}") for key, value in columns if value != ""),
            )
        )
    return fields


def games_for_export(queryset=None):
    queryset = queryset if queryset is not None else Game.objects.all()
    return (
        queryset.for_display()
        .select_related("publisher", "esar")
        .prefetch_related("languages", "credits__person", "copies")
        .order_by("pk")
    )


def export_records(queryset=None) -> list[pymarc.Record]:
    pictures = dict(
        ImportedRecord.objects.exclude(picture_url="").values_list("game_id", "picture_url")
    )
    site = pmb.site()
    return [
        game_record(game, picture_url=pictures.get(game.pk, ""), site=site)
        for game in games_for_export(queryset)
    ]


def export_unimarc(queryset=None, *, file_format: str = "iso2709") -> bytes:
    """The games (all of them by default) as one file: ISO 2709 or MARCXML, UTF-8."""
    records = export_records(queryset)
    if file_format == "xml":
        return marcxml(records)
    return b"".join(iso2709(record) for record in records)
