"""A test corpus of UNIMARC records laid out as PMB's export writes them.

The layout follows PMB's export code (``admin/convert/export.class.php``): leader with
record status ``n``, type ``r`` (objet à 3 dimensions), level ``m``, hierarchy ``0``,
encoding level ``1``, cataloguing form ``i``; 001 the notice number; 100$a the creation
date, ``u        u  u0frey``, then ``50  `` (UTF-8 database) or ``0103`` (Latin-1), then
``    ba``; 200 ``1 `` $a/$e; 101 ``0 `` $a; 210 $c/$d with ``$9 id:``; 700/701/702 `` 1``
$a surname, $b forename, $4 relator code, ``$9 id:``; 606 `` 1`` $a the category with
``$9 id:/lang:/idthes:``; 900 per custom field ($a value, $l label, $n name, $t type); 995
per copy ($f barcode, $k call number) followed by 996 with ``$9 column:value`` for each
item column. Built here, record by record, not copied from any real database.

The three seed games are in it as the ludothèque's records print them (seeds 000 and 002
are PMB OPAC prints: Villa Paletti with its ESAR category; Le Petit Prince without one, its
authors typed as one name, "Cathla" misspelt), Alhambra from the project's own record.
"""

import pymarc

from games.unimarc.writing import iso2709, marcxml

UTF8_100 = "20231005u        u  u0frey50      ba"
LATIN1_100 = "20231005u        u  u0frey0103    ba"

LABELS = {
    "nb_joueurs_min": ("Nombre minimum de joueurs", "integer"),
    "nb_joueurs_max": ("Nombre maximum de joueurs", "integer"),
    "age_min": ("Age minimum", "integer"),
    "age_max": ("Age maximum", "integer"),
    "duree": ("Durée moyenne (minutes)", "integer"),
    "principe": ("Principe du jeu", "text"),
    "analyse": ("Analyse pédagogique", "text"),
    "regles": ("Règles du jeu", "text"),
    "contenu": ("Contenu", "text"),
}


def field(tag, indicators="  ", **codes):
    """A data field; ``codes`` maps a subfield code to a value or a list of them."""
    subfields = []
    for code, values in codes.items():
        code = code.lstrip("_")  # _4, _9: codes that are digits
        for value in values if isinstance(values, list) else [values]:
            subfields.append(pymarc.Subfield(code, str(value)))
    return pymarc.Field(tag=tag, indicators=list(indicators), subfields=subfields)


def pmb_record(
    notice_id,
    title,
    *,
    other_title="",
    authors=(),
    publisher="",
    publisher_id=1,
    year="",
    languages=("fre",),
    category="",
    custom=None,
    ean="",
    summary="",
    picture="",
    copies=(),
    typdoc="r",
    level="m",
    declared=UTF8_100,
):
    """A PMB notice. ``authors``: (surname, forename, relator code); ``custom``: PMB custom
    field name → value; ``copies``: dicts of PMB item columns."""
    record = pymarc.Record(force_utf8=True, leader=f"00000n{typdoc}{level}0 2200000   4500")
    record.leader = f"00000n{typdoc}{level}0 22000001i 4500"
    record.add_field(pymarc.Field(tag="001", data=str(notice_id)))
    if ean:
        record.add_field(field("010", a=ean))
    record.add_field(field("100", a=declared))
    record.add_field(field("101", "0 ", a=list(languages)))
    record.add_field(field("200", "1 ", a=title, **({"e": other_title} if other_title else {})))
    if publisher or year:
        codes = {"c": publisher} if publisher else {}
        codes.update({"d": year} if year else {})
        codes["_9"] = f"id:{publisher_id}"
        record.add_field(field("210", **codes))
    if summary:
        record.add_field(field("330", a=summary))
    for position, (surname, forename, code) in enumerate(authors):
        tag = "700" if position == 0 else "701"
        codes = {"a": surname}
        if forename:
            codes["b"] = forename
        codes.update({"_4": code, "_9": f"id:{notice_id * 10 + position}"})
        record.add_field(field(tag, " 1", **codes))
    if category:
        record.add_field(field("606", " 1", _9=["id:12", "lang:fr_FR", "idthes:1"], a=category))
    if picture:
        record.add_field(field("896", a=picture))
    for copy in copies:
        record.add_field(field("995", f=copy["expl_cb"], k=copy.get("expl_cote", "")))
        record.add_field(field("996", _9=[f"{key}:{value}" for key, value in copy.items()]))
    for name, value in (custom or {}).items():
        label, kind = LABELS.get(name, (name, "text"))
        record.add_field(field("900", a=value, l=label, n=name, t=kind))
    return record


def villa_paletti_custom():
    return {
        "nb_joueurs_min": "2",
        "nb_joueurs_max": "4",
        "age_min": "8",
        "age_max": "99",
        "duree": "30",
        "principe": "Hisser ses colonnes sur le plateau le plus élevé de la villa.",
        "analyse": "Un jeu d'adresse",
        "contenu": "1 base, 5 plateaux en bois en 5 couleurs différentes, 20 colonnes "
        "en 3 formats et en 4 couleurs, 1 sceau du maître d'œuvre, 1 petit crochet, "
        "1 règle de jeu.",
    }


def villa_paletti(**changes):
    values = {
        "notice_id": 101,
        "title": "Villa paletti",
        "authors": [("Payne", "Bill", "070")],
        "publisher": "Zoch",
        "category": "A 404 jeu d'adresse (jeu de règles)",
        "custom": villa_paletti_custom(),
        "copies": [
            {
                "expl_cb": "J0001",
                "expl_cote": "JEU ADR PAY",
                "statut_libelle": "Disponible",
                "location_libelle": "Ludothèque",
                "section_libelle": "Jeux d'adresse",
                "create_date": "2023-10-05 10:00:00",
            }
        ],
    }
    values.update(changes)
    return pmb_record(**values)


def petit_prince(**changes):
    values = {
        "notice_id": 102,
        "title": "Le petit Prince fabrique-moi une Planète",
        "authors": [("Antoine Bauza Bruno Cathla", "", "070")],
        "publisher": "Ludonaute",
        "custom": {
            "nb_joueurs_min": "2",
            "nb_joueurs_max": "5",
            "age_min": "8",
            "age_max": "99",
            "duree": "25",
            "contenu": "80 tuiles, 5 jetons, 1 règle de jeu.",
        },
    }
    values.update(changes)
    return pmb_record(**values)


# Alhambra's PMB custom fields.
ALHAMBRA_CUSTOM = {
    "nb_joueurs_min": "2",
    "nb_joueurs_max": "6",
    "age_min": "8",
    "age_max": "99",
    "duree": "60",
    "contenu": "6 cartons de départ, 54 édifices, 108 cartes de paiement en 4 "
    "devises, 1 bourse en tissu, 1 règle du jeu.",
}


def alhambra(**changes):
    values = {
        "notice_id": 103,
        "title": "Alhambra",
        "authors": [("Henn", "Dirk", "070")],
        "publisher": "Queen Games",
        "year": "2003",
        "category": "A 400 jeux de règles",
        "custom": dict(ALHAMBRA_CUSTOM),
    }
    values.update(changes)
    return pmb_record(**values)


def a_book(**changes):
    values = {
        "notice_id": 201,
        "title": "Le grand livre des jeux",
        "authors": [("Dupont", "Marie", "070")],
        "publisher": "Éditions Exemple",
        "typdoc": "a",
        "custom": {},
    }
    values.update(changes)
    return pmb_record(**values)


def seeds():
    return [villa_paletti(), petit_prince(), alhambra()]


def iso(records, encoding="utf-8") -> bytes:
    return b"".join(iso2709(record, encoding=encoding) for record in records)


def xml(records, namespace=True) -> bytes:
    return marcxml(records, namespace=namespace)
