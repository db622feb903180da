"""The catalogue as UNIMARC, in PMB's layout, UTF-8 (100$a/26-29 ``50  ``).

What goes where is the import's mapping read backwards (docs/unimarc.md), so that an
export imported into an empty catalogue gives the same catalogue back: a test checks it
field by field.
"""

import pymarc

from games.models import Game

from .mapping import EXPORTED_CUSTOM_FIELDS, LANGUAGES_639_1, ROLE_TO_CODE
from .models import ImportedRecord
from .writing import iso2709, marcxml

# Leader/06 for each document type (the import's DOCUMENT_TYPES backwards).
LEADER_TYPES = {"object": "r", "kit": "m", "book": "a"}
# 100$a as PMB writes it for a UTF-8 database: the date, then PMB's fixed positions,
# 50 (UTF-8) at 26-27.
FIELD_100 = "{date}u        u  u0frey50      ba"


def _field(tag, indicators, *pairs):
    subfields = [pymarc.Subfield(code, str(value)) for code, value in pairs if value != ""]
    return pymarc.Field(tag=tag, indicators=list(indicators), subfields=subfields)


def game_record(game: Game, *, picture_url: str = "") -> pymarc.Record:
    """One game as a PMB notice."""
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
    # The whole title in $a: the catalogue keeps "Title : other title" as one, and its
    # spacing (a no-break space before the colon) comes back as it was.
    record.add_field(_field("200", "1 ", ("a", game.title)))
    if game.publisher_id or game.year:
        record.add_field(
            _field(
                "210",
                "  ",
                ("c", game.publisher.name if game.publisher_id else ""),
                ("d", game.year or ""),
            )
        )
    for position, credit in enumerate(game.credits.all()):
        # Names are kept as written ("Bill Payne"), so the whole name goes in $a.
        record.add_field(
            _field(
                "700" if position == 0 else "701",
                " 1",
                ("a", credit.person.name),
                ("4", ROLE_TO_CODE[credit.role]),
            )
        )
    # PMB prints its categories (606) as "A 404 jeu d'adresse (jeu de règles)".
    record.add_field(_field("606", " 1", ("a", f"{game.esar.code} {game.esar.label_fr}")))
    if picture_url:
        record.add_field(_field("896", "  ", ("a", picture_url)))
    for name, (pmb_name, label, kind_of_value) in EXPORTED_CUSTOM_FIELDS.items():
        if name == "esar":
            continue  # in 606
        value = getattr(game, name)
        if value in (None, ""):
            continue
        record.add_field(
            _field("900", "  ", ("a", value), ("l", label), ("n", pmb_name), ("t", kind_of_value))
        )
    for extra in _copy_fields(game):
        record.add_field(extra)
    return record


def _copy_fields(game: Game) -> list:
    """995 and 996 for each copy."""
    fields = []
    for copy in game.copies.all():
        fields.append(_field("995", "  ", ("f", copy.barcode), ("k", copy.call_number)))
        columns = [
            ("expl_cb", copy.barcode),
            ("expl_cote", copy.call_number),
            ("statut_libelle", copy.get_status_display()),
            ("statut_code", copy.status),
            ("location_libelle", copy.location),
            ("expl_note", copy.condition_note),
            ("create_date", copy.acquired.isoformat() if copy.acquired else ""),
        ]
        fields.append(
            _field("996", "  ", *(("9", f"{key}:{value}") for key, value in columns if value))
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
    return [
        game_record(game, picture_url=pictures.get(game.pk, ""))
        for game in games_for_export(queryset)
    ]


def export_unimarc(queryset=None, *, file_format: str = "iso2709") -> bytes:
    """The games (all of them by default) as one file: ISO 2709 or MARCXML, UTF-8."""
    records = export_records(queryset)
    if file_format == "xml":
        return marcxml(records)
    return b"".join(iso2709(record) for record in records)
