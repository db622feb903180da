"""What a UNIMARC record says, in the catalogue's terms (docs/unimarc.md has the table).

``map_record`` reads a pymarc record into a ``GameData``: the values the record gives
for each of the game's fields, where each came from, and what in the record has no place
in the catalogue (the dry run prints both). Nothing here touches the database.
"""

import re
from dataclasses import dataclass, field

import pymarc
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from stdnum import ean

from games.identifiers import validate_ean
from games.lending.models import CopyStatus
from games.models import AuthorRole, DocumentType
from games.text import fold

from . import pmb
from .reading import NON_SORTING

# Leader/06 (type of record) → the catalogue's document type. ``r`` is PMB's "objet à 3
# dimensions, artefacts, ..." (the seed records), ``m`` multimedia (a kit), ``a`` text.
DOCUMENT_TYPES = {"r": DocumentType.OBJECT, "m": DocumentType.KIT, "a": DocumentType.BOOK}
# Games and kits are what a ludothèque lends; books only when it asks (--other-types).
GAME_TYPES = {"r", "m"}
OTHER_TYPES = {"a"}
LEADER_TYPE_NAMES = {
    "a": "printed text",
    "b": "manuscript text",
    "c": "printed music",
    "d": "manuscript music",
    "e": "printed cartographic material",
    "f": "manuscript cartographic material",
    "g": "projected or video material",
    "i": "sound recording (non-musical)",
    "j": "sound recording (musical)",
    "k": "two-dimensional graphics",
    "l": "electronic resource",
    "m": "multimedia",
    "r": "three-dimensional artefact",
}

# UNIMARC relator codes ($4 of 700/701/702) → roles. 070 author, 440 illustrator and 730
# translator are UNIMARC's; UNIMARC has no "game developer", so this project writes and
# reads 205 (collaborator) for it.
ROLE_CODES = {
    "070": AuthorRole.AUTHOR,
    "440": AuthorRole.ILLUSTRATOR,
    "730": AuthorRole.TRANSLATOR,
    "205": AuthorRole.DEVELOPER,
}
ROLE_TO_CODE = {role: code for code, role in ROLE_CODES.items()}

# 101$a holds ISO 639-2 codes (bibliographic or terminological); the catalogue keeps
# ISO 639-1.
LANGUAGES_639_2 = {
    "fre": "fr", "fra": "fr", "dan": "da", "pol": "pl", "eng": "en", "ger": "de",
    "deu": "de", "spa": "es", "ita": "it", "dut": "nl", "nld": "nl", "por": "pt",
    "swe": "sv", "nor": "nb", "nob": "nb", "fin": "fi", "cat": "ca", "bre": "br",
    "baq": "eu", "eus": "eu", "ara": "ar", "chi": "zh", "zho": "zh", "jpn": "ja",
    "rus": "ru", "tur": "tr", "gre": "el", "ell": "el", "cze": "cs", "ces": "cs",
    "hun": "hu", "rum": "ro", "ron": "ro", "ukr": "uk", "lit": "lt", "lav": "lv",
    "est": "et", "slo": "sk", "slk": "sk", "slv": "sl", "hrv": "hr", "srp": "sr",
    "bul": "bg", "heb": "he", "kor": "ko", "vie": "vi", "isl": "is", "ice": "is",
}  # fmt: skip
LANGUAGES_639_1 = {two: three for three, two in reversed(LANGUAGES_639_2.items())}

ESAR_CODE = re.compile(r"^\s*([A-Z])\s?(\d{3})\b")

# PMB's custom fields (900: $a value, $l label, $n name, $t type), known by their name or
# label, folded. The labels are those the seed records print; the names are this
# project's own (PMB sites choose theirs): settings.UNIMARC_CUSTOM_FIELDS or the
# command's --field NAME=TARGET add to them or change them (TARGET "ignore" drops one).
CUSTOM_FIELD_TARGETS = {
    "min_players": gettext_lazy("minimum players"),
    "max_players": gettext_lazy("maximum players"),
    "players": gettext_lazy("players (a range: 2-4)"),
    "min_age": gettext_lazy("minimum age"),
    "max_age": gettext_lazy("maximum age"),
    "ages": gettext_lazy("ages (a range: 8-99)"),
    "duration_minutes": gettext_lazy("average duration (minutes)"),
    "esar": gettext_lazy("ESAR category"),
    "principle": gettext_lazy("game principle"),
    "pedagogical_analysis": gettext_lazy("pedagogical analysis"),
    "rules": gettext_lazy("rules"),
    "contents": gettext_lazy("contents"),
    "bgg_id": gettext_lazy("BoardGameGeek id"),
    "ignore": gettext_lazy("ignored"),
}
DEFAULT_CUSTOM_FIELDS = {
    "nombre minimum de joueurs": "min_players",
    "nb joueurs min": "min_players",
    "joueurs min": "min_players",
    "nombre maximum de joueurs": "max_players",
    "nb joueurs max": "max_players",
    "joueurs max": "max_players",
    "nombre de joueurs": "players",
    "nb joueurs": "players",
    "joueurs": "players",
    "age minimum": "min_age",
    "age min": "min_age",
    "age maximum": "max_age",
    "age max": "max_age",
    "age": "ages",
    "ages": "ages",
    "tranche d age": "ages",
    "duree moyenne minutes": "duration_minutes",
    "duree moyenne": "duration_minutes",
    "duree": "duration_minutes",
    "duree de jeu": "duration_minutes",
    "esar": "esar",
    "classement esar": "esar",
    "categorie esar": "esar",
    "principe du jeu": "principle",
    "principe": "principle",
    "analyse pedagogique": "pedagogical_analysis",
    "regles du jeu": "rules",
    "regles": "rules",
    "contenu": "contents",
    "materiel": "contents",
    "boardgamegeek": "bgg_id",
    "bgg id": "bgg_id",
}
# The names and labels the export writes (games.unimarc.pmb: the PMB site's) are known too.
for _target, _field in pmb.DEFAULT_SITE["custom_fields"].items():
    DEFAULT_CUSTOM_FIELDS.setdefault(" ".join(fold(_field.name).replace("_", " ").split()), _target)


def custom_field_key(text: str) -> str:
    """A custom field's name or label as the mapping knows it: folded, words only."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", fold(text or "")).split())


def custom_field_mapping(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The defaults, the PMB site's names and labels (``pmb.site()``, what the export
    writes), then settings.UNIMARC_CUSTOM_FIELDS, then ``extra`` (the command's)."""
    mapping = dict(DEFAULT_CUSTOM_FIELDS)
    for target, custom in pmb.site()["custom_fields"].items():
        if custom is not None:
            mapping[custom_field_key(custom.name)] = target
            mapping[custom_field_key(custom.label)] = target
    for source in (getattr(settings, "UNIMARC_CUSTOM_FIELDS", {}), extra or {}):
        for name, target in source.items():
            if target not in CUSTOM_FIELD_TARGETS:
                raise ValueError(
                    _("Unknown target “%(target)s” for the custom field “%(name)s”.")
                    % {"target": target, "name": name}
                )
            mapping[custom_field_key(name)] = target
    return mapping


@dataclass
class CopyData:
    """A copy (exemplaire) as 995 and 996 describe it."""

    barcode: str = ""
    call_number: str = ""
    status: str = ""
    status_code: str = ""  # the PMB site's import code (995 $o, statusdoc_codage_import)
    location: str = ""
    section: str = ""
    note: str = ""
    acquired: str = ""


@dataclass
class GameData:
    """What a record gives for each of the game's fields (absent fields are absent)."""

    number: int
    source_id: str = ""
    leader_type: str = ""
    leader_level: str = ""
    values: dict = field(default_factory=dict)
    mapped: list[tuple[str, str, str]] = field(default_factory=list)  # source, field, value
    unmapped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    picture_url: str = ""
    copies: list[CopyData] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.values.get("title", "")

    def give(self, target: str, value, source: str) -> None:
        if value in (None, "", []):
            return
        self.values[target] = value
        shown = value if not isinstance(value, list) else "; ".join(map(_shown, value))
        self.mapped.append((source, target, short(str(shown))))


def _shown(item) -> str:
    """A credit as "Bill Payne (author)"; anything else as itself."""
    return f"{item[0]} ({item[1]})" if isinstance(item, tuple | list) else str(item)


def short(text: str, length: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1] + "…"


# The custom fields read as numbers, and a value that starts as a negative one.
NUMBER_TARGETS = (
    "players",
    "ages",
    "min_players",
    "max_players",
    "min_age",
    "max_age",
    "duration_minutes",
    "bgg_id",
)
NEGATIVE = re.compile(r"\s*[-−–]\s*\d")


def first_number(text: str) -> int | None:
    match = re.search(r"\d+", text or "")
    return int(match.group()) if match else None


def number_range(text: str) -> tuple[int | None, int | None]:
    """ "2-4", "2 à 4", "de 2 à 4", "8+" or "8 ans et plus" → (min, max)."""
    numbers = [int(n) for n in re.findall(r"\d+", text or "")]
    if not numbers:
        return None, None
    if len(numbers) == 1:
        return numbers[0], (None if re.search(r"\+|plus", text) else numbers[0])
    return numbers[0], numbers[1]


def shown(value: str) -> str:
    """A subfield's text as it is shown: without the non-sorting marks around an article
    (the article stays; ``sorted_as`` drops it)."""
    return value.translate(_NO_MARKS).strip()


def sorted_as(value: str) -> str:
    """A subfield's text as it sorts: without what the non-sorting marks enclose
    ("\x88Le \x89Petit Prince" → "Petit Prince"). A mark left open drops nothing."""
    return shown(_NON_SORTING_PART.sub("", value)) or shown(value)


_NO_MARKS = str.maketrans("", "", NON_SORTING)
_NON_SORTING_PART = re.compile("[\x88\x98][^\x89\x9c]*[\x89\x9c]")


def subfields(one: pymarc.Field, code: str) -> list[str]:
    return [shown(s.value) for s in one.subfields if s.code == code and shown(s.value)]


def map_record(record: pymarc.Record, *, number: int, custom_fields: dict[str, str]) -> GameData:
    """The record's values for the catalogue, with where each came from."""
    data = GameData(number=number)
    leader = str(record.leader)
    data.leader_type = leader[6:7]
    data.leader_level = leader[7:8]
    used: set[tuple[str, str]] = {("001", ""), ("005", ""), ("100", "a")}
    numbers = record.get_fields("001")
    data.source_id = (numbers[0].data.strip() if numbers else "")[:50]
    if data.leader_type in DOCUMENT_TYPES:
        data.give("document_type", DOCUMENT_TYPES[data.leader_type], "leader/06")

    _title(record, data, used)
    _people(record, data, used)
    _publication(record, data, used)
    _languages(record, data, used)
    _identifiers(record, data, used)
    _custom_fields(record, data, used, custom_fields)
    _esar(record, data, used)
    _notes(record, data, used)
    _copies(record, data, used)
    for one in record.fields:
        if one.is_control_field():
            if (one.tag, "") not in used:
                data.unmapped.append(f"{one.tag}: {short(one.data)}")
            continue
        for sub in one.subfields:
            if (one.tag, sub.code) in used or (sub.code == "9" and one.tag != "996"):
                continue
            data.unmapped.append(f"{one.tag} ${sub.code}: {short(sub.value)}")
    return data


def _title(record, data, used):
    for one in record.get_fields("200")[:1]:
        titles = subfields(one, "a")
        others = subfields(one, "e")
        if titles:
            # "Title : other title" as the catalogue writes it, a no-break space before the
            # colon as French does (the export splits it back).
            source = "200 $a" + (" $e" if others else "")
            data.give("title", "\u00a0: ".join([titles[0], *others]), source)
            # Sorted without the article the marks enclose, if the record marks one.
            first = next(s.value for s in one.subfields if s.code == "a" and shown(s.value))
            data.give("sort_title", "\u00a0: ".join([sorted_as(first), *others]), source)
        used.update({("200", "a"), ("200", "e")})
        responsibility = subfields(one, "f")
        if responsibility:
            used.add(("200", "f"))
            data.notes.append(
                _("200 $f “%(text)s” read; the credits come from 700-702.")
                % {"text": short("; ".join(responsibility))}
            )


def _people(record, data, used):
    credits = []
    for one in record.get_fields("700", "701", "702"):
        surname, forename = (subfields(one, "a") or [""])[0], (subfields(one, "b") or [""])[0]
        name = " ".join(part for part in (forename, surname) if part)
        if not name:
            continue
        codes = subfields(one, "4")
        role = ROLE_CODES.get(codes[0]) if codes else AuthorRole.AUTHOR
        if role is None:
            data.notes.append(
                _(
                    "Role code %(code)s of %(name)s is not one the catalogue knows: "
                    "credited as author."
                )
                % {"code": codes[0], "name": name}
            )
            role = AuthorRole.AUTHOR
        if (name, role) not in credits:
            credits.append((name, str(role)))
        used.update({(one.tag, "a"), (one.tag, "b"), (one.tag, "4")})
    data.give("authors", credits, "700/701/702 $a $b $4")


def _publication(record, data, used):
    for one in record.get_fields("210", "214"):
        names = subfields(one, "c")
        if names and "publisher" not in data.values:
            data.give("publisher", names[0][:200], f"{one.tag} $c")
        years = [first_number(v) for v in subfields(one, "d")]
        years = [y for y in years if y and 1800 <= y <= 2100]
        if years and "year" not in data.values:
            data.give("year", years[0], f"{one.tag} $d")
        used.update({(one.tag, "c"), (one.tag, "d")})


def _languages(record, data, used):
    codes = []
    for one in record.get_fields("101"):
        for code in subfields(one, "a"):
            two = LANGUAGES_639_2.get(code.lower())
            if two is None:
                data.notes.append(
                    _("Language code %(code)s is not known: left out.") % {"code": code}
                )
            elif two not in codes:
                codes.append(two)
        used.add(("101", "a"))
    data.give("languages", codes, "101 $a")


def _identifiers(record, data, used):
    for tag in ("010", "073"):
        for one in record.get_fields(tag):
            for value in subfields(one, "a"):
                digits = ean.compact(value)
                try:
                    validate_ean(digits)
                except ValidationError as error:
                    note = (
                        _("%(tag)s $a “%(value)s” is no EAN: its check digit is wrong. Left out.")
                        if error.code == "ean_check_digit"
                        else _("%(tag)s $a “%(value)s” is no EAN (8 or 13 digits): left out.")
                    )
                    data.notes.append(note % {"tag": tag, "value": value})
                    continue
                if "ean" not in data.values:
                    data.give("ean", digits, f"{tag} $a")
            used.add((tag, "a"))
    for one in record.get_fields("896"):
        pictures = subfields(one, "a")
        if pictures:
            data.picture_url = pictures[0][:500]
            data.mapped.append(("896 $a", "picture", short(pictures[0])))
        used.add(("896", "a"))


def _custom_fields(record, data, used, custom_fields):
    for one in record.get_fields("900"):
        value = "\n".join(subfields(one, "a"))
        name, label = (subfields(one, "n") or [""])[0], (subfields(one, "l") or [""])[0]
        target = custom_fields.get(custom_field_key(name)) or custom_fields.get(
            custom_field_key(label)
        )
        source = f"900 “{name or label}”"
        used.update({("900", code) for code in "alnt"})
        if target is None:
            data.unmapped.append(f"{source}: {short(value)}")
            continue
        if target == "ignore" or not value:
            continue
        if target in NUMBER_TARGETS and NEGATIVE.match(value):
            # "-5" is no count: read as 5 it would be stored without a word.
            data.errors.append(
                _("%(source)s: “%(value)s” is negative; a count is 0 or more.")
                % {"source": source, "value": short(value)}
            )
            continue
        if target in ("players", "ages"):
            low, high = number_range(value)
            prefix = "players" if target == "players" else "age"
            data.give(f"min_{prefix}", low, source)
            data.give(f"max_{prefix}", high, source)
        elif target in NUMBER_TARGETS:
            number = first_number(value)
            if number is None:
                data.errors.append(
                    _("%(source)s: “%(value)s” is not a number.")
                    % {"source": source, "value": short(value)}
                )
            data.give(target, number, source)
        elif target == "esar":
            match = ESAR_CODE.match(value)
            if match:
                data.give("esar", f"{match[1]} {match[2]}", source)
            else:
                data.unmapped.append(f"{source}: {short(value)}")
        else:
            data.give(target, value, source)


def _esar(record, data, used):
    for tag in ("686", "676", "606"):
        for one in record.get_fields(tag):
            for value in subfields(one, "a"):
                match = ESAR_CODE.match(value)
                if match and "esar" not in data.values:
                    data.give("esar", f"{match[1]} {match[2]}", f"{tag} $a")
                    used.add((tag, "a"))
            if tag == "686":
                used.add(("686", "2"))


def _notes(record, data, used):
    for one in record.get_fields("330")[:1]:
        summary = "\n".join(subfields(one, "a"))
        used.add(("330", "a"))
        if "principle" not in data.values:
            data.give("principle", summary, "330 $a")
        elif summary:
            data.notes.append(
                _("330 (summary) left out: the game principle came from a custom field.")
            )
    for one in record.get_fields("215")[:1]:
        parts = subfields(one, "a") + subfields(one, "e")
        used.update({("215", "a"), ("215", "e")})
        if "contents" not in data.values:
            data.give("contents", ", ".join(parts), "215 $a $e")


# The subfields of 995 and 996 that PMB writes (``export_traite_exemplaires`` and
# ``processing_expl``) and the import reads or knows to repeat what it reads.
COPY_SUBFIELDS = {"995": set("abcfkoqru"), "996": set("abefkmnruvwxy0123") | {"9"}}


def _copies(record, data, used):
    """995 ($f barcode, $k call number, $u note, $o status code), each followed by its 996:
    the same item's letters ($v location, $x section, $1 status, $2 its code) and, in $9,
    each of PMB's item columns as ``name:value`` (statut_libelle, location_libelle,
    section_libelle…), which win where both are given."""
    for one in record.fields:
        if one.tag == "995":
            data.copies.append(
                CopyData(
                    barcode=_first(one, "f"),
                    call_number=_first(one, "k"),
                    note=_first(one, "u"),
                    status_code=_first(one, "o"),
                )
            )
            used.update(("995", code) for code in COPY_SUBFIELDS["995"])
        elif one.tag == "996" and data.copies:
            copy = data.copies[-1]
            columns = dict(value.split(":", 1) for value in subfields(one, "9") if ":" in value)
            copy.barcode = copy.barcode or columns.get("expl_cb", "") or _first(one, "f")
            copy.call_number = copy.call_number or columns.get("expl_cote", "") or _first(one, "k")
            copy.status = columns.get("statut_libelle", "") or _first(one, "1")
            # statut_code: this site's own status, as its exports wrote it before PMB's codes.
            copy.status_code = (
                columns.get("statusdoc_codage_import", "")
                or _first(one, "2")
                or columns.get("statut_code", "")
                or copy.status_code
            )
            copy.location = columns.get("location_libelle", "") or _first(one, "v")
            copy.section = columns.get("section_libelle", "") or _first(one, "x")
            copy.note = columns.get("expl_note", "") or columns.get("expl_comment", "") or copy.note
            copy.acquired = columns.get("create_date", "")[:10]
            used.update(("996", code) for code in COPY_SUBFIELDS["996"])
    if data.copies:
        data.mapped.append(("995/996", "copies", ", ".join(c.barcode or "?" for c in data.copies)))


def _first(one: pymarc.Field, code: str) -> str:
    return (subfields(one, code) or [""])[0]


# PMB's item statuses are each site's own labels; these words (folded) say which of ours
# a label means. Anything else is "available", with the label kept in the note.
PMB_STATUS_WORDS = [
    (r"repar", CopyStatus.IN_REPAIR),
    (r"incomplet|manqu", CopyStatus.INCOMPLETE),
    (r"pilon|perdu|retir|elimin|desherb|exclu", CopyStatus.WITHDRAWN),
    (r"\bpret\b|emprunt|sorti", CopyStatus.ON_LOAN),
    (r"disponible|bon etat|neuf|en rayon", CopyStatus.AVAILABLE),
]


def status_from_pmb(label: str, code: str = "") -> tuple[str, bool]:
    """(status, understood) for PMB's statut_libelle and its import code: the code when
    the PMB site's statuses (``pmb.site()``) give it one of ours, else the label's words."""
    from_code = pmb.status_for_code(code)
    if from_code in CopyStatus.values:
        return from_code, True
    if code in CopyStatus.values:  # this site's own status, as its earlier exports wrote it
        return code, True
    folded = fold(label or "")
    for pattern, status in PMB_STATUS_WORDS:
        if re.search(pattern, folded):
            return status, True
    return CopyStatus.AVAILABLE, not folded
